// Memory benchmark, the package's built Node entry (bench/_build.ts) against a bare WebSocket client doing
// JSON.parse, each in fresh processes run with --expose-gc (bench/_memory-child.mjs):
// - idle: heap bytes per open, idle subscription (snapshot received, nothing streaming): N connections to N
//   conversations after 20 spare ones (what all share, the code V8 optimises included), heap after garbage collection, difference / N, once the HTTP keep-alive
//   connections of the connect's requests have closed (6 s; also printed: 300 ms after connecting, while they
//   are open). Target <= 64 KiB.
// - streaming: RSS growth (peak over samples after every 5,000 events, minus the RSS once connected) while one
//   connection takes 300,000 events of the conversation mix. Target <= 2x the bare client's growth.
// The server is bench/_stream-server.ts in a worker of this process, so its memory is not counted.
//
// Run with Node 24:
//   node bench/memory.ts [--connections 200] [--rounds 1] [--events 300000] [--stream-rounds 1]
//                        [--protocol session|events]
// The last lines, `memory idle: …` and `memory streaming: <ratio>× bare WebSocket …`, are what `npm run bench`
// collects. Without `--protocol`, both protocols, each in its own process (`memory session idle: …`, `memory
// events streaming: …`): the issue's RSS target is for both, and `/sockets/events` looks every event up by id.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

if (!process.argv.includes('--protocol')) {
  const lines: string[] = [];
  for (const protocol of ['session', 'events']) {
    const script = fileURLToPath(import.meta.url);
    const out = execFileSync(process.execPath, [script, ...process.argv.slice(2), '--protocol', protocol], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const body = out.trimEnd().split('\n');
    console.log(body.slice(0, -2).join('\n'));
    lines.push(...body.slice(-2).map((line) => line.replace(/^memory /, `memory ${protocol} `)));
  }
  console.log(lines.join('\n'));
  process.exit(0);
}

const hooks = './_ts-sources.ts';
await import(hooks);
const { median, option } = await import('./_stats.js');
const { nodeEntry } = await import('./_build.js');

const CONNECTIONS = option('connections', 200);
/** Spare connections opened before the measured ones (bench/_memory-child.mjs). */
const WARM = option('warm-connections', 20);
const EVENTS = option('events', 300_000);
const ROUNDS = option('rounds', 1);
// One streaming run per client by default: 300,000 events take some 20 s per client on a loaded 2-vCPU machine.
const STREAM_ROUNDS = option('stream-rounds', 1);
const BATCH = 5000;
const PROTOCOL = process.argv[process.argv.indexOf('--protocol') + 1] === 'events' ? 'events' : 'session';
const entry = await nodeEntry();
const childScript = fileURLToPath(new URL('./_memory-child.mjs', import.meta.url));

const signal = new Int32Array(new SharedArrayBuffer(4));
const worker = new Worker(new URL('./_stream-server.ts', import.meta.url), {
  workerData: { protocol: PROTOCOL, signal, sdk: await (await import('./_build.js')).sdkDir() },
});
const [{ url }] = (await once(worker, 'message')) as [{ url: string }];

/** Prepares `count` more events of conversation `id` (a new conversation without `id`). */
async function prepare(count: number, id?: string): Promise<string> {
  const reply = once(worker, 'message');
  worker.postMessage({ create: count, id });
  return ((await reply) as [{ conversationId: string }])[0].conversationId;
}
/** Sends the prepared events; returns once they are all written to the socket. */
function publish(id: string): void {
  const before = Atomics.load(signal, 0);
  worker.postMessage({ publish: id });
  Atomics.wait(signal, 0, before, 30_000);
}

function child(task: 'idle' | 'stream', mode: 'bare' | 'sdk', ...rest: string[]): ChildProcess {
  return spawn(process.execPath, ['--expose-gc', childScript, task, mode, url, PROTOCOL, entry, ...rest], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}
const next = async <T>(process: ChildProcess) => ((await once(process, 'message')) as [T])[0];

async function idle(mode: 'bare' | 'sdk'): Promise<{ perConnection: number; connecting: number }> {
  const ids: string[] = [];
  for (let i = 0; i < WARM + CONNECTIONS; i++) ids.push(await prepare(0));
  const process = child('idle', mode);
  process.send({ ids, warm: WARM });
  const result = await next<{ perConnection: number; connecting: number }>(process);
  await once(process, 'exit');
  return result;
}

interface Streamed {
  rss0: number;
  peak: number;
  end: number;
  heap: number;
  heapTotal: number;
}
async function streaming(mode: 'bare' | 'sdk'): Promise<Streamed> {
  const id = await prepare(0);
  const process = child('stream', mode, id, String(BATCH));
  process.send({ start: true });
  await next(process); // ready
  for (let sent = 0; sent < EVENTS; sent += BATCH) {
    await prepare(BATCH, id);
    const delivered = next(process);
    publish(id);
    await delivered;
  }
  process.send({ done: true });
  const result = await next<Streamed>(process);
  await once(process, 'exit');
  return result;
}

const perConnection = { bare: [] as number[], sdk: [] as number[] };
const connecting = { bare: [] as number[], sdk: [] as number[] };
const growth = { bare: [] as number[], sdk: [] as number[] };
const ends = { bare: [] as number[], sdk: [] as number[] };
const heaps = { bare: [] as number[], sdk: [] as number[] };
const reserved = { bare: [] as number[], sdk: [] as number[] };
const order = (round: number) => (round % 2 ? (['sdk', 'bare'] as const) : (['bare', 'sdk'] as const));
for (let round = 0; round < ROUNDS; round++) {
  for (const mode of order(round)) {
    const result = await idle(mode);
    perConnection[mode].push(result.perConnection);
    connecting[mode].push(result.connecting);
  }
}
for (let round = 0; round < STREAM_ROUNDS; round++) {
  for (const mode of order(round)) {
    const run = await streaming(mode);
    growth[mode].push(run.peak - run.rss0);
    ends[mode].push(run.end - run.rss0);
    heaps[mode].push(run.heap);
    reserved[mode].push(run.heapTotal);
  }
}
worker.postMessage({ stop: true });
await once(worker, 'exit');

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const idleSdk = median(perConnection.sdk);
const ratio = median(growth.sdk) / median(growth.bare);
console.log(
  `node ${process.version}; protocol ${PROTOCOL}; fresh processes: ${ROUNDS} per idle figure, ${STREAM_ROUNDS} per streaming figure; medians:`,
);
console.log(
  `  idle, heap per connection (${CONNECTIONS} connections): subscribe ${kib(idleSdk)}, bare WebSocket ${kib(median(perConnection.bare))} (target <= 64 KiB) ${idleSdk <= 64 * 1024 ? 'ok' : 'MISSED'}`,
);
console.log(
  `  300 ms after connecting (the requests' HTTP keep-alive connections still open): subscribe ${kib(median(connecting.sdk))}, bare WebSocket ${kib(median(connecting.bare))} (information)`,
);
console.log(
  `  RSS growth over ${EVENTS.toLocaleString('en-US')} events (peak): subscribe ${mib(median(growth.sdk))}, bare WebSocket ${mib(median(growth.bare))}: ${ratio.toFixed(2)}× (target <= 2×) ${ratio <= 2 ? 'ok' : 'MISSED'}`,
);
console.log(
  `  at the end, after garbage collection: RSS growth subscribe ${mib(median(ends.sdk))}, bare ${mib(median(ends.bare))}; heap used growth subscribe ${mib(median(heaps.sdk))}, bare ${mib(median(heaps.bare))}; peak growth of V8's reserved heap subscribe ${mib(median(reserved.sdk))}, bare ${mib(median(reserved.bare))} (information)`,
);
console.log(
  `memory idle: ${kib(idleSdk)} heap per idle subscription (${kib(median(connecting.sdk))} 300 ms after connecting, keep-alive connections open; bare WebSocket ${kib(median(perConnection.bare))}); target ≤ 64 KiB: ${idleSdk <= 64 * 1024 ? 'ok' : 'MISSED'}`,
);
console.log(
  `memory streaming: ${ratio.toFixed(2)}× bare WebSocket RSS growth (${EVENTS.toLocaleString('en-US')} events); target ≤ 2×: ${ratio <= 2 ? 'ok' : 'MISSED'}`,
);
