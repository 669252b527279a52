// The clients of bench/stream.ts and bench/memory.ts against the server of bench/_stream-server.ts: a bare
// WebSocket that only runs JSON.parse on each frame, `EventsClient.subscribe` (the `for await` iterator), and
// the floor of any validated iterator (`floor`: the bare client plus the event check, a queue and `for await`).
// The bare and floor clients use Node's built-in WebSocket; `subscribe` the package's default on Node (the `ws`
// package since 7b5c1b7), or the built-in too with BENCH_SUBSCRIBE_WEBSOCKET=builtin. Each run: connect, take
// the snapshot, then the server queues every frame of the run while this thread is blocked, and the clock starts
// (the client sets the pace from there).
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';

// The resolve hook for the TypeScript sources, first (a variable: tsc rejects `.ts` specifiers).
const hooks = './_ts-sources.ts';
await import(hooks);
const { nodeEntry, sdkDir } = await import('./_build.js');
const sdk = await sdkDir();
// The package's Node entry, as an app imports it (bench/_build.ts).
const { EventsClient } = (await import(await nodeEntry())) as typeof import('../src/index.js');
const { floorQueue } = await import('./_floor-queue.js');
// The floor client's event check: the same build's (internal) decoder, as the subscriber runs it on each frame.
const { decodeOwnedEvent } = (await import(
  `${sdk}/models/decode-event.js`
)) as typeof import('../src/models/decode-event.js');

export type Protocol = 'events' | 'session';
/** One run: wall-clock and main-thread CPU milliseconds (the server is another thread). */
export interface Run {
  wall: number;
  cpu: number;
}

/** What `subscribe` runs on: the package's default, or (`builtin`) the runtime's own `WebSocket`. */
export const subscribeWebSocket = process.env.BENCH_SUBSCRIBE_WEBSOCKET === 'builtin' ? 'builtin' : 'default';
const subscribeOptions = subscribeWebSocket === 'builtin' ? { WebSocket: globalThis.WebSocket } : {};

let sink = 0;
/** Keeps the delivered values observable, so no engine can drop the work. */
export const consumed = () => sink;

const cpuSince = (from: NodeJS.CpuUsage) => {
  const now = process.threadCpuUsage(from);
  return (now.user + now.system) / 1000;
};

export interface StreamServer {
  url: string;
  bare(events: number): Promise<Run>;
  subscribed(events: number): Promise<Run>;
  floor(events: number): Promise<Run>;
  /** A conversation whose `events` frames the server has prepared; `publish` sends them and returns when queued. */
  conversation(events: number): Promise<{ id: string; lastId: string; publish: () => void }>;
  stop(): Promise<void>;
}

export async function startStreamServer(protocol: Protocol): Promise<StreamServer> {
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(new URL('./_stream-server.ts', import.meta.url), {
    workerData: { protocol, signal, sdk },
  });
  const [{ url }] = (await once(worker, 'message')) as [{ url: string }];

  async function conversation(events: number) {
    const reply = once(worker, 'message');
    worker.postMessage({ create: events });
    const [{ conversationId: id, lastId }] = (await reply) as [{ conversationId: string; lastId: string }];
    // Blocks this thread until the server has written every frame: the client cannot read before that.
    const publish = () => {
      const before = Atomics.load(signal, 0);
      worker.postMessage({ publish: id });
      if (Atomics.wait(signal, 0, before, 30_000) === 'timed-out')
        throw new Error('the server did not publish');
    };
    return { id, lastId, publish };
  }

  /**
   * The frames of a run come after the session socket's `sync` envelope and the snapshot. The gate answers, for
   * each frame, whether it is one of the run's; at the last one before them it publishes the run's frames and
   * calls `start` (the clocks start there).
   */
  function runGate(publish: () => void, start: () => void): () => boolean {
    let before = protocol === 'session' ? 2 : 1;
    return () => {
      if (before === 0) return true;
      before -= 1;
      if (before === 0) {
        publish();
        start();
      }
      return false;
    };
  }

  /** Connect, wait for the snapshot, then JSON.parse every frame. */
  async function bare(events: number): Promise<Run> {
    const { id, publish } = await conversation(events);
    const socket = new WebSocket(`${url.replace('http', 'ws')}/sockets/${protocol}/${id}`);
    let count = 0;
    let started = 0;
    let cpu = process.threadCpuUsage();
    const inRun = runGate(publish, () => {
      started = performance.now();
      cpu = process.threadCpuUsage();
    });
    const run = await new Promise<Run>((resolve) => {
      socket.addEventListener('message', (message) => {
        const value = JSON.parse(message.data as string) as { kind?: string; type?: string };
        sink += (value.kind ?? value.type ?? '').length;
        if (inRun() && ++count === events) resolve({ wall: performance.now() - started, cpu: cpuSince(cpu) });
      });
    });
    socket.close();
    return run;
  }

  /** `subscribe`: validated, deduplicated, in order, through the async iterator, until the last event. */
  async function subscribed(events: number): Promise<Run> {
    const { id, lastId, publish } = await conversation(events);
    const client = new EventsClient({ baseUrl: url, logLevel: 'off' });
    const subscription = client.subscribe(id, subscribeOptions);
    let started = 0;
    let cpu = process.threadCpuUsage();
    subscription.once('open', () => {
      publish();
      started = performance.now();
      cpu = process.threadCpuUsage();
    });
    let count = 0;
    let run: Run | undefined;
    for await (const event of subscription) {
      sink += String(event.kind).length;
      count += 1;
      if (event.id === lastId) {
        // Timed at the last event, as the other clients are: leaving the loop closes the subscription (its
        // socket's close frame, timers), which is not part of delivering the events and which they do not time.
        run = { wall: performance.now() - started, cpu: cpuSince(cpu) };
        break;
      }
    }
    if (run === undefined || count < events)
      throw new Error(`subscribe delivered ${count} of ${events} events`);
    return run;
  }

  /**
   * The floor of any validated `for await` client: WebSocket, JSON.parse, the package's event check on each
   * event, a queue and an async iterator; nothing else (no order, no deduplication, no positions, no state).
   */
  async function floor(events: number): Promise<Run> {
    const { id, lastId, publish } = await conversation(events);
    const socket = new WebSocket(`${url.replace('http', 'ws')}/sockets/${protocol}/${id}`);
    const { push, iterable } = floorQueue<{ id: string; kind: string }>();
    let started = 0;
    let cpu = process.threadCpuUsage();
    const inRun = runGate(publish, () => {
      started = performance.now();
      cpu = process.threadCpuUsage();
    });
    socket.addEventListener('message', (message) => {
      const value = JSON.parse(message.data as string) as { event?: unknown };
      if (!inRun()) return;
      const parsed = decodeOwnedEvent(protocol === 'session' ? value.event : value, { mode: 'lenient' });
      if (parsed instanceof Promise || !parsed.success)
        throw new Error('the floor client takes valid events only');
      push(parsed.data as { id: string; kind: string });
    });
    let count = 0;
    for await (const event of iterable) {
      sink += String(event.kind).length;
      count += 1;
      if (event.id === lastId) break;
    }
    const run = { wall: performance.now() - started, cpu: cpuSince(cpu) };
    socket.close();
    if (count < events) throw new Error(`the floor client delivered ${count} of ${events} events`);
    return run;
  }

  async function stop() {
    worker.postMessage({ stop: true });
    await once(worker, 'exit');
  }
  return { url, bare, subscribed, floor, conversation, stop };
}
