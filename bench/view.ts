// ConversationView benchmark (issue 32), the package's built Node entry (bench/_build.ts) against the simulator's
// agent server (1.58.0, `/sockets/session`) in a worker thread (bench/_view-server.ts), so that the figures are
// the client's work: the main thread's event-loop active time (`performance.eventLoopUtilization`), not the
// wall clock, which would include the server's.
// - open: `view()` until `ready` (the newest page shown, the live stream connected), on a 20,000-event and a
//   200-event conversation, alternating, the ratio of the medians. Target: 20,000 <= 1.3x 200.
// - live: `count` events published to a conversation, followed by a bare subscription (`on('event')`, nothing
//   else) and by a view (which holds a subscription), alternating; the view's own work per event is the view's
//   time minus the subscription's. Target: <= 2x the subscription's own per-event time.
// - memory (a child process with --expose-gc): a view loaded back to the start of the 20,000-event conversation
//   (`loadOlder()` until `hasOlder` is false), heap growth after garbage collection over the JSON size of its
//   events as the server stores them. Target: <= 3x.
//
// Run with Node 24 (the committed sources, transpiled by bench/_build.ts; BENCH_SOURCE to pick another):
//   node bench/view.ts [--rounds 15] [--live-events 2000]
// The last lines, `view open: …`, `view live: …`, `view memory: …`, are what `npm run bench` collects.
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

const hooks = './_ts-sources.ts';
await import(hooks);
const { median, option, spread } = await import('./_stats.js');
const { nodeEntry, sdkDir } = await import('./_build.js');

const MEMORY_ONLY = process.argv.includes('--memory-only');
const ROUNDS = option('rounds', 15);
const LIVE_EVENTS = option('live-events', 2000);
const sdk = (await import(await nodeEntry())) as typeof import('../src/index.js');

const sizes = MEMORY_ONLY ? [20_000] : [200, 20_000, 200, 200];
const worker = new Worker(new URL('./_view-server.ts', import.meta.url), {
  workerData: { sdk: await sdkDir(), sizes },
});
const [info] = (await once(worker, 'message')) as [
  { url: string; conversations: { id: string; events: number; jsonBytes: number }[] },
];
const client = new sdk.AgentServerClient({ baseUrl: info.url, logLevel: 'off' });
const events = new sdk.EventsClient({ baseUrl: info.url, logLevel: 'off' });

/** Milliseconds the main thread's event loop was busy while `work` ran. */
async function busy(work: () => Promise<void>): Promise<number> {
  const start = performance.eventLoopUtilization();
  await work();
  return performance.eventLoopUtilization(start).active;
}

const publish = async (id: string, count: number) => {
  worker.postMessage({ publish: { id, count } });
  await once(worker, 'message');
};

if (MEMORY_ONLY) {
  const gc = (globalThis as { gc?: () => void }).gc as () => void;
  const conversation = info.conversations[0]!;
  const heap = () => {
    gc();
    gc();
    return process.memoryUsage().heapUsed;
  };
  // Warm: one view opened and closed, so that code and shared caches are not counted.
  const warm = client.conversation(conversation.id).view({ pageSize: 100 });
  await warm.ready;
  warm.close();
  const before = heap();
  const view = client.conversation(conversation.id).view({ pageSize: 100 });
  await view.ready;
  while (await view.loadOlder());
  const shown = view.getSnapshot().items.reduce((n, item) => n + item.events.length, 0);
  const after = heap();
  const ratio = (after - before) / conversation.jsonBytes;
  console.log(
    `memory: ${conversation.events} events (${shown} shown in items), JSON ${(conversation.jsonBytes / 1e6).toFixed(2)} MB, heap growth ${((after - before) / 1e6).toFixed(2)} MB`,
  );
  console.log(
    `view memory: ${ratio.toFixed(2)}x the events' JSON; target <= 3x: ${ratio <= 3 ? 'ok' : 'MISSED'}`,
  );
  view.close();
  await worker.terminate();
  process.exit(0);
}

const [small, large, liveA, liveB] = info.conversations as [
  (typeof info.conversations)[0],
  (typeof info.conversations)[0],
  (typeof info.conversations)[0],
  (typeof info.conversations)[0],
];

async function openOnce(id: string): Promise<number> {
  let view: ReturnType<ReturnType<typeof client.conversation>['view']> | undefined;
  const ms = await busy(async () => {
    view = client.conversation(id).view();
    await view.ready;
  });
  view?.close();
  return ms;
}

for (let i = 0; i < 5; i++) {
  await openOnce(small.id);
  await openOnce(large.id);
}
const openRatios: number[] = [];
const openSmall: number[] = [];
const openLarge: number[] = [];
// Twice the rounds (an open is short), the order alternating so that a drift of the machine's load between the
// two opens of a round favours neither; the figure is the ratio of the two medians.
for (let round = 0; round < 2 * ROUNDS; round++) {
  const first = round % 2 === 0 ? small : large;
  const second = first === small ? large : small;
  const x = await openOnce(first.id);
  const y = await openOnce(second.id);
  const [a, b] = first === small ? [x, y] : [y, x];
  openSmall.push(a);
  openLarge.push(b);
  openRatios.push(b / a);
}

/** The client's busy time to take `LIVE_EVENTS` published events: a bare subscription, or a view. */
async function followOnce(kind: 'subscription' | 'view', id: string): Promise<number> {
  if (kind === 'subscription') {
    const live = events.subscribe(id);
    let received = 0;
    let done: () => void = () => undefined;
    const all = new Promise<void>((resolve) => {
      done = resolve;
    });
    live.on('event', () => {
      if (++received === LIVE_EVENTS) done();
    });
    await live.ready;
    const ms = await busy(async () => {
      await publish(id, LIVE_EVENTS);
      await all;
    });
    live.close();
    return ms;
  }
  const view = client.conversation(id).view();
  await view.ready;
  const start = view.getSnapshot().items.length;
  const all = new Promise<void>((resolve) => {
    const off = view.subscribe(() => {
      if (view.getSnapshot().items.length >= start + LIVE_EVENTS) {
        off();
        resolve();
      }
    });
  });
  const ms = await busy(async () => {
    await publish(id, LIVE_EVENTS);
    await all;
  });
  view.close();
  return ms;
}

await followOnce('subscription', liveA.id);
await followOnce('view', liveB.id);
const liveRatios: number[] = [];
const subscriptionUs: number[] = [];
const viewUs: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const sub = await followOnce('subscription', liveA.id);
  const view = await followOnce('view', liveB.id);
  subscriptionUs.push((sub * 1000) / LIVE_EVENTS);
  viewUs.push((view * 1000) / LIVE_EVENTS);
  liveRatios.push((view - sub) / sub);
}
await worker.terminate();

const memory = execFileSync(
  process.execPath,
  ['--expose-gc', fileURLToPath(import.meta.url), '--memory-only'],
  {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  },
)
  .trimEnd()
  .split('\n');

const openRatio = median(openLarge) / median(openSmall);
const liveRatio = median(liveRatios);
console.log(
  `node ${process.version}; ${ROUNDS} rounds; client busy time (event-loop active), server in a worker`,
);
console.log(
  `  open ${small.events} events: ${median(openSmall).toFixed(2)} ms; ${large.events} events: ${median(openLarge).toFixed(2)} ms (median)`,
);
console.log(
  `  live, per event: subscription ${median(subscriptionUs).toFixed(1)} us, view (with its subscription) ${median(viewUs).toFixed(1)} us (median, ${LIVE_EVENTS} events a round)`,
);
console.log(`  ${memory[0]}`);
console.log(
  `view open: ${openRatio.toFixed(2)}x (20,000 over 200 events, medians; per-round spread ${spread(openRatios)}); target <= 1.3x: ${openRatio <= 1.3 ? 'ok' : 'MISSED'}`,
);
console.log(
  `view live: ${liveRatio.toFixed(2)}x the subscription's per-event time (view's own work, spread ${spread(liveRatios)}); target <= 2x: ${liveRatio <= 2 ? 'ok' : 'MISSED'}`,
);
console.log(memory.at(-1));
