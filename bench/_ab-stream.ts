// In-process A/B of two builds of the package on the stream benchmark's server (docs/performance.md, "Where the
// stream's time goes"): both builds are loaded into ONE process and take turns (bare client, A, B; the order
// reversed every round), so that the machine's load, which moves figures of separate processes by ±10% here,
// touches both alike. Prints main-thread CPU per run (medians) and the median of the per-round ratios A/B
// (B's speed over A's). Not run by `npm run bench` (a helper, like the other `_` files).
//   node bench/_ab-stream.ts --a <source> --b <source> [--protocol session|events] [--rounds 30] [--events 5000]
//                            [--b-listener]   (B consumes with on('event') instead of for await)
// <source> is what BENCH_SOURCE takes: a commit, HEAD, or `worktree`.
const hooks = './_ts-sources.ts';
await import(hooks);
const { abBuilds, argument } = await import('./_ab-builds.js');
const { entryA, entryB } = await abBuilds(import.meta.url);
const PROTOCOL = argument('protocol') === 'events' ? 'events' : 'session';
const ROUNDS = Number(argument('rounds') ?? 30);
const EVENTS = Number(argument('events') ?? 5000);
const B_LISTENER = process.argv.includes('--b-listener');

// The server and the bare client of bench/_stream-clients.ts, with A's build for the server's store.
const { startStreamServer } = await import('./_stream-clients.js');
type Client = typeof import('../src/index.js').EventsClient;
const A = ((await import(entryA)) as { EventsClient: Client }).EventsClient;
const B = ((await import(entryB)) as { EventsClient: Client }).EventsClient;
const server = await startStreamServer(PROTOCOL);
let sink = 0;

/** One run of `EventsClient.subscribe` as bench/_stream-clients.ts times it: main-thread CPU from `open`. */
async function subscribed(EventsClient: Client, listener: boolean): Promise<number> {
  const { id, lastId, publish } = await server.conversation(EVENTS);
  const subscription = new EventsClient({ baseUrl: server.url, logLevel: 'off' }).subscribe(id);
  let cpu = process.threadCpuUsage();
  subscription.once('open', () => {
    publish();
    cpu = process.threadCpuUsage();
  });
  if (listener) {
    await new Promise<void>((resolve) =>
      subscription.on('event', (event) => {
        sink += String(event.kind).length;
        if (event.id === lastId) {
          subscription.close();
          resolve();
        }
      }),
    );
  } else {
    for await (const event of subscription) {
      sink += String(event.kind).length;
      if (event.id === lastId) break;
    }
  }
  const used = process.threadCpuUsage(cpu);
  return (used.user + used.system) / 1000;
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[values.length >> 1]!;
for (let i = 0; i < 4; i += 1) {
  await server.bare(EVENTS);
  await subscribed(A, false);
  await subscribed(B, B_LISTENER);
}
const runs = { bare: [] as number[], A: [] as number[], B: [] as number[], ratio: [] as number[] };
for (let round = 0; round < ROUNDS; round += 1) {
  const order = round % 2 ? (['B', 'A', 'bare'] as const) : (['bare', 'A', 'B'] as const);
  const got = { bare: 0, A: 0, B: 0 };
  for (const who of order)
    got[who] =
      who === 'bare'
        ? (await server.bare(EVENTS)).cpu
        : await subscribed(who === 'A' ? A : B, who === 'B' && B_LISTENER);
  runs.bare.push(got.bare);
  runs.A.push(got.A);
  runs.B.push(got.B);
  runs.ratio.push(got.A / got.B);
}
await server.stop();
const bare = median(runs.bare);
console.log(
  `${PROTOCOL}, ${EVENTS} events per run, ${ROUNDS} rounds, main-thread CPU medians: bare ${bare.toFixed(1)} ms; A ${median(runs.A).toFixed(1)} ms (${(bare / median(runs.A)).toFixed(3)}× bare); B ${median(runs.B).toFixed(1)} ms (${(bare / median(runs.B)).toFixed(3)}× bare)`,
);
console.log(
  `B's speed over A: ${median(runs.ratio).toFixed(3)}× (rounds ${Math.min(...runs.ratio).toFixed(2)}–${Math.max(...runs.ratio).toFixed(2)})${sink > 0 ? '' : ' (no output)'}`,
);
process.exit(0);
