// Stream benchmark: events per second through `EventsClient.subscribe` (the async iterator) from a loopback
// agent server, against a bare WebSocket client that only runs JSON.parse on each frame, in the same run on the
// same server. Target: subscribe >= 0.8x the bare client's throughput.
//
// Run with Node 24 (runs the TypeScript sources directly, no build needed):
//   node bench/stream.ts [--rounds 7] [--events 5000]
// The server runs in a worker thread and sends pre-serialized frames; both clients use Node's built-in WebSocket. The last line,
// `stream: <ratio>× bare WebSocket`, is what `npm run bench` collects.
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';

// The resolve hook for the TypeScript sources, first (a variable: tsc rejects `.ts` specifiers).
const hooks = './_ts-sources.ts';
await import(hooks);

const { EventsClient } = await import('../src/agent-server/events-client.js');
// Compiled parsers, as the package's Node entry points enable them.
(await import('../src/models/index.js')).enableCompiledParsers((await import('zod/mini')).compile);

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : Number.NaN;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}
const ROUNDS = option('rounds', 15);
// Both clients get the same warm-up runs: the figure is steady-state throughput. The subscriber needs more of
// them (zod's generated validators settle after ~25-40k events); docs/performance.md gives the cold figures.
const WARMUP = option('warmup', 8);
const EVENTS = option('events', 5000);

const PROTOCOL = process.argv.includes('--protocol')
  ? process.argv[process.argv.indexOf('--protocol') + 1] === 'session'
    ? 'session'
    : 'events'
  : 'events';
// The first COLD events of a fresh process, measured before any warm-up (a real session is short).
const COLD = option('cold', 1000);

const worker = new Worker(new URL('./_stream-server.ts', import.meta.url), {
  workerData: { protocol: PROTOCOL },
});
const [{ url, samples }] = (await once(worker, 'message')) as [{ url: string; samples: number }];

/** A new conversation whose `count` frames the server prepares now and sends on `publish`. */
async function conversation(count = EVENTS): Promise<string> {
  const reply = once(worker, 'message');
  worker.postMessage({ create: count });
  return ((await reply) as [{ conversationId: string }])[0].conversationId;
}
const publish = (conversationId: string) => worker.postMessage({ publish: conversationId });

let sink = 0;

/** One run: wall-clock and main-thread CPU time (the server is another thread) for EVENTS events. */
interface Run {
  wall: number;
  cpu: number;
}
/** Main-thread CPU milliseconds (user + system) since `from`. */
const cpuSince = (from: NodeJS.CpuUsage) => {
  const now = process.threadCpuUsage(from);
  return (now.user + now.system) / 1000;
};

/** A bare WebSocket: connect, wait for the first frame (the state snapshot), then JSON.parse every frame. */
async function bare(events = EVENTS): Promise<Run> {
  const id = await conversation(events);
  const path = PROTOCOL === 'session' ? 'session' : 'events';
  const socket = new WebSocket(`${url.replace('http', 'ws')}/sockets/${path}/${id}`);
  // Session frames: the sync envelope comes before the snapshot; the bare client only parses.
  let skip = PROTOCOL === 'session' ? 1 : 0;
  let started = 0;
  let cpu = process.threadCpuUsage();
  let count = -1;
  const done = new Promise<Run>((resolve) => {
    socket.addEventListener('message', (event) => {
      const value = JSON.parse(event.data as string) as { kind?: string; type?: string };
      if (skip > 0) {
        skip -= 1;
        return;
      }
      sink += (value.kind ?? value.type ?? '').length;
      count += 1;
      if (count === 0) {
        started = performance.now();
        cpu = process.threadCpuUsage();
        publish(id);
      } else if (count === events) {
        resolve({ wall: performance.now() - started, cpu: cpuSince(cpu) });
      }
    });
  });
  const run = await done;
  socket.close();
  return run;
}

/** `subscribe`: validated, deduplicated, in order, through the async iterator. */
async function subscribed(events = EVENTS): Promise<Run> {
  const id = await conversation(events);
  const client = new EventsClient({ baseUrl: url, logLevel: 'off' });
  const subscription = client.subscribe(id);
  let started = 0;
  let cpu = process.threadCpuUsage();
  subscription.once('open', () => {
    started = performance.now();
    cpu = process.threadCpuUsage();
    publish(id);
  });
  let count = 0;
  let run: Run = { wall: Number.NaN, cpu: Number.NaN };
  for await (const event of subscription) {
    sink += String(event.kind).length;
    count += 1;
    if (count === events) {
      run = { wall: performance.now() - started, cpu: cpuSince(cpu) };
      break;
    }
  }
  return run;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

// Cold: the first COLD events of each client in this fresh process, before any warm-up.
const coldSub = await subscribed(COLD);
const coldBare = await bare(COLD);

// Warm-up (JIT, zod's compiled parsers, connections), then rounds in alternating order.
for (let run = 0; run < WARMUP; run += 1) {
  await bare();
  await subscribed();
}
const perSecond = (ms: number) => (EVENTS * 1000) / ms;
const series = {
  bareWall: [] as number[],
  subWall: [] as number[],
  bareCpu: [] as number[],
  subCpu: [] as number[],
};
const ratios = { wall: [] as number[], cpu: [] as number[] };
for (let round = 0; round < ROUNDS; round += 1) {
  const first = round % 2 === 0;
  const x = first ? await bare() : await subscribed();
  const y = first ? await subscribed() : await bare();
  const [b, s] = first ? [x, y] : [y, x];
  series.bareWall.push(perSecond(b.wall));
  series.subWall.push(perSecond(s.wall));
  series.bareCpu.push(perSecond(b.cpu));
  series.subCpu.push(perSecond(s.cpu));
  ratios.wall.push(b.wall / s.wall);
  ratios.cpu.push(b.cpu / s.cpu);
}
worker.postMessage({ stop: true });
await once(worker, 'exit');

const fmt = (n: number) => Math.round(n).toLocaleString('en-US').padStart(9);
const wall = median(ratios.wall);
const cpu = median(ratios.cpu);
console.log(
  `protocol ${PROTOCOL}; cold (first ${COLD} events of a fresh process): subscribe ${fmt((COLD * 1000) / coldSub.wall)} events/s, bare ${fmt((COLD * 1000) / coldBare.wall)} events/s (${(coldBare.wall / coldSub.wall).toFixed(2)}×)`,
);
console.log(
  `node ${process.version}; ${EVENTS} events per run (${samples} real sample events, round robin); ${WARMUP} warm-up runs each, then ${ROUNDS} rounds; medians:`,
);
console.log('                                 wall clock       per main-thread CPU second');
console.log(
  `  bare WebSocket + JSON.parse  ${fmt(median(series.bareWall))} events/s  ${fmt(median(series.bareCpu))} events/s`,
);
console.log(
  `  EventsClient.subscribe       ${fmt(median(series.subWall))} events/s  ${fmt(median(series.subCpu))} events/s`,
);
console.log(
  `  subscribe / bare, wall clock: ${wall.toFixed(2)}× (target >= 0.8×) ${wall >= 0.8 ? 'ok' : 'MISSED'}`,
);
console.log(
  `  subscribe / bare, CPU:        ${cpu.toFixed(2)}× (the client's own cost; the same when other processes compete)`,
);
if (sink === 0) console.log('(no output)');
console.log(`stream${PROTOCOL === 'session' ? ' (session)' : ''}: ${wall.toFixed(2)}× bare WebSocket`);
