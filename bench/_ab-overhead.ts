// In-process A/B of two builds on the subscriber's own cost per event, without a network (docs/performance.md,
// "Where the stream's time goes"): a stand-in WebSocket (installed as the global one) hands `subscribe` the
// same prepared frames in batches of 64 per macrotask, as undici hands over the frames of a 64 KiB chunk. Each
// round times JSON.parse of those frames alone, the floor client (JSON.parse, the event check, a queue and
// `for await`), build A and build B (their order reversed every round), by wall clock (nothing else runs in
// the process). Prints the cost per event beyond JSON.parse of the floor, A and B, and the median of the
// per-round ratios A/B (B's speed over A's). Not run by `npm run bench` (a helper, like the other `_` files).
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

async function parseOnly(): Promise<number> {
  const started = performance.now();
  await feed((text) => {
    const value = JSON.parse(text) as { kind?: string; type?: string };
    sink += (value.kind ?? value.type ?? '').length;
  });
  return performance.now() - started;
}

/** The floor of a validated `for await` client (as bench/_stream-clients.ts's `floor`). */
async function floor(): Promise<number> {
  const { push, iterable } = floorQueue<{ id: string; kind: string }>();
  const started = performance.now();
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
  return performance.now() - started;
}

async function subscribed(EventsClient: Client): Promise<number> {
  const { id } = await server.conversation(1);
  const subscription = new EventsClient({ baseUrl: server.url, logLevel: 'off' }).subscribe(id);
  let started = 0;
  subscription.once('open', () => {
    started = performance.now();
    void feed((text) => socket!.emit('message', { data: text }));
  });
  let count = 0;
  let time = 0;
  for await (const event of subscription) {
    sink += String(event.kind).length;
    count += 1;
    if (event.id === lastId) {
      time = performance.now() - started;
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
const times = { parse: [] as number[], floor: [] as number[], a: [] as number[], b: [] as number[] };
const ratios: number[] = [];
for (let round = 0; round < ROUNDS; round += 1) {
  times.parse.push(await parseOnly());
  times.floor.push(await floor());
  const aFirst = round % 2 === 0;
  const first = await subscribed(aFirst ? A : B);
  const second = await subscribed(aFirst ? B : A);
  const [a, b] = aFirst ? [first, second] : [second, first];
  times.a.push(a);
  times.b.push(b);
  ratios.push(a / b);
}
await server.stop();
const parse = median(times.parse);
const beyond = (series: number[]) => `${(((median(series) - parse) * 1000) / EVENTS).toFixed(3)} µs`;
console.log(
  `protocol ${PROTOCOL}; ${EVENTS} events per run, ${ROUNDS} rounds; JSON.parse alone ${((parse * 1000) / EVENTS).toFixed(3)} µs per event`,
);
console.log(
  `  per event beyond JSON.parse: floor ${beyond(times.floor)}, A ${beyond(times.a)}, B ${beyond(times.b)}`,
);
console.log(`  B's speed over A's: ${median(ratios).toFixed(3)}× (rounds ${spread(ratios)})`);
if (sink === 0) console.log('(no output)');
