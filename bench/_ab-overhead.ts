// In-process A/B of two builds on the subscriber's own cost per event, without a network (docs/performance.md,
// "Where the stream's time goes"): a stand-in WebSocket (installed as the global one) hands `subscribe` the
// same prepared frames in batches of 64 per macrotask, as undici hands over the frames of a 64 KiB chunk. Each
// round times JSON.parse of those frames alone, the floor client (JSON.parse, the event check, a queue and
// `for await`), build A and build B (their order reversed every round), by wall clock (nothing else runs in
// the process) and by the main thread's CPU time (which a preemption by another process does not inflate: on
// a machine others share, the figure to read). Prints the cost per event beyond JSON.parse of the floor, A and
// B, and the medians of the per-round ratios A/B (B's speed over A's), and A and B over the floor. Not run by
// `npm run bench` (a helper, like the other `_` files).
//   node bench/_ab-overhead.ts --a <source> --b <source> [--protocol session|events] [--rounds 15] [--events 20000]
// <source> is what BENCH_SOURCE takes: a commit, HEAD, or `worktree`.
const hooks = './_ts-sources.ts';
await import(hooks);
const { abBuilds, argument } = await import('./_ab-builds.js');
const { entryA, entryB } = await abBuilds(import.meta.url);
const PROTOCOL = argument('protocol') === 'events' ? 'events' : 'session';
const ROUNDS = Number(argument('rounds') ?? 15);
const EVENTS = Number(argument('events') ?? 20_000);
const BATCH = 64;

// The server answers the subscriptions' HTTP requests (server info, REST catch-up); the frames come from the
// stand-in socket below.
const { startStreamServer } = await import('./_stream-clients.js');
const { conversationMix } = await import('./_corpus.js');
const { floorQueue } = await import('./_floor-queue.js');
const { median, spread } = await import('./_stats.js');
type Client = typeof import('../src/index.js').EventsClient;
const A = ((await import(entryA)) as { EventsClient: Client }).EventsClient;
const B = ((await import(entryB)) as { EventsClient: Client }).EventsClient;
const { decodeOwnedEvent } = (await import(
  `${process.env.BENCH_SDK_DIR}/models/decode-event.js`
)) as typeof import('../src/models/decode-event.js');
const server = await startStreamServer(PROTOCOL);

// The frames of one run; every subscription is new, so the same ids serve every run.
const mix = conversationMix({ snapshots: false, deltas: false }).texts.map(
  (text) => JSON.parse(text) as Record<string, unknown>,
);
const frames: string[] = [];
let lastId = '';
for (let seq = 0; seq < EVENTS; seq += 1) {
  lastId = crypto.randomUUID();
  const timestamp = new Date(Date.now() - 60_000 + seq / 10).toISOString().replace('Z', '000');
  const event = { ...mix[seq % mix.length], id: lastId, timestamp };
  frames.push(JSON.stringify(PROTOCOL === 'session' ? { type: 'durable', seq, event } : event));
}

/** Hands `frames` to `deliver` in batches of BATCH, one batch per macrotask; resolves after the last. */
function feed(deliver: (text: string) => void): Promise<void> {
  return new Promise((resolve) => {
    let next = 0;
    const batch = () => {
      const end = Math.min(frames.length, next + BATCH);
      for (; next < end; next += 1) deliver(frames[next]!);
      if (next < frames.length) setImmediate(batch);
      else resolve();
    };
    setImmediate(batch);
  });
}

type Listener = (event: { data: unknown }) => void;
let socket: StandInSocket | undefined;
/** The part of a WebSocket the subscriber uses: opens, sends the snapshot, then what `feed` hands it. */
class StandInSocket {
  readyState = 0;
  readonly #listeners = new Map<string, Listener[]>();
  constructor(url: string) {
    socket = this;
    const conversationId = url.split('?')[0]!.split('/').pop();
    setImmediate(() => {
      this.readyState = 1;
      this.emit('open', { data: undefined });
      const state = {
        kind: 'ConversationStateUpdateEvent',
        id: crypto.randomUUID(),
        timestamp: new Date(Date.now() - 120_000).toISOString(),
        source: 'environment',
        key: 'full_state',
        value: { id: conversationId },
      };
      if (PROTOCOL === 'session') {
        this.emit('message', { data: JSON.stringify({ type: 'sync', through_seq: -1 }) });
        this.emit('message', { data: JSON.stringify({ type: 'transient', event: state }) });
      } else this.emit('message', { data: JSON.stringify(state) });
    });
  }
  send(): void {}
  close(): void {
    this.readyState = 3;
  }
  addEventListener(type: string, listener: Listener): void {
    this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener]);
  }
  emit(type: string, event: { data: unknown }): void {
    for (const listener of this.#listeners.get(type) ?? []) listener(event);
  }
}
(globalThis as { WebSocket?: unknown }).WebSocket = StandInSocket;

let sink = 0;

/** Wall-clock and main-thread CPU milliseconds of one run. */
interface Run {
  wall: number;
  cpu: number;
}
const clock = () => ({ wall: performance.now(), cpu: process.threadCpuUsage() });
function since(start: ReturnType<typeof clock>): Run {
  const cpu = process.threadCpuUsage(start.cpu);
  return { wall: performance.now() - start.wall, cpu: (cpu.user + cpu.system) / 1000 };
}

async function parseOnly(): Promise<Run> {
  const started = clock();
  await feed((text) => {
    const value = JSON.parse(text) as { kind?: string; type?: string };
    sink += (value.kind ?? value.type ?? '').length;
  });
  return since(started);
}

/** The floor of a validated `for await` client (as bench/_stream-clients.ts's `floor`). */
async function floor(): Promise<Run> {
  const { push, iterable } = floorQueue<{ id: string; kind: string }>();
  const started = clock();
  void feed((text) => {
    const value = JSON.parse(text) as { event?: unknown };
    const parsed = decodeOwnedEvent(PROTOCOL === 'session' ? value.event : value, { mode: 'lenient' });
    if (parsed instanceof Promise || !parsed.success)
      throw new Error('the floor client takes valid events only');
    push(parsed.data as { id: string; kind: string });
  });
  for await (const event of iterable) {
    sink += event.kind.length;
    if (event.id === lastId) break;
  }
  return since(started);
}

async function subscribed(EventsClient: Client): Promise<Run> {
  const { id } = await server.conversation(1);
  const subscription = new EventsClient({ baseUrl: server.url, logLevel: 'off' }).subscribe(id);
  let started = clock();
  subscription.once('open', () => {
    started = clock();
    void feed((text) => socket!.emit('message', { data: text }));
  });
  let count = 0;
  let time: Run = { wall: 0, cpu: 0 };
  for await (const event of subscription) {
    sink += String(event.kind).length;
    count += 1;
    if (event.id === lastId) {
      time = since(started);
      break;
    }
  }
  if (count < EVENTS) throw new Error(`subscribe delivered ${count} of ${EVENTS} events`);
  return time;
}

for (let round = 0; round < 6; round += 1) {
  await parseOnly();
  await floor();
  await subscribed(A);
  await subscribed(B);
}
const runs = { parse: [] as Run[], floor: [] as Run[], a: [] as Run[], b: [] as Run[] };
for (let round = 0; round < ROUNDS; round += 1) {
  runs.parse.push(await parseOnly());
  runs.floor.push(await floor());
  const aFirst = round % 2 === 0;
  const first = await subscribed(aFirst ? A : B);
  const second = await subscribed(aFirst ? B : A);
  const [a, b] = aFirst ? [first, second] : [second, first];
  runs.a.push(a);
  runs.b.push(b);
}
await server.stop();
console.log(
  `protocol ${PROTOCOL}; ${EVENTS} events per run, ${ROUNDS} rounds; load average ${(await import('node:os'))
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')}`,
);
for (const key of ['wall', 'cpu'] as const) {
  const of = (series: Run[]) => series.map((run) => run[key]);
  const parse = median(of(runs.parse));
  const beyond = (series: Run[]) => `${(((median(of(series)) - parse) * 1000) / EVENTS).toFixed(3)} µs`;
  const ratio = (x: Run[], y: Run[]) => of(x).map((value, i) => value / of(y)[i]!);
  const ab = ratio(runs.a, runs.b);
  console.log(
    `${key === 'wall' ? 'wall clock' : 'main-thread CPU'}: JSON.parse alone ${((parse * 1000) / EVENTS).toFixed(3)} µs per event; beyond it: floor ${beyond(runs.floor)}, A ${beyond(runs.a)}, B ${beyond(runs.b)}`,
  );
  console.log(`  B's speed over A's: ${median(ab).toFixed(3)}× (rounds ${spread(ab)})`);
  const floorA = ratio(runs.floor, runs.a);
  const floorB = ratio(runs.floor, runs.b);
  console.log(
    `  speed over the floor's: A ${median(floorA).toFixed(3)}× (${spread(floorA)}), B ${median(floorB).toFixed(3)}× (${spread(floorB)})`,
  );
}
if (sink === 0) console.log('(no output)');
