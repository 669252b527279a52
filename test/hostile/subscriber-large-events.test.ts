/**
 * Issue 34 item 3, scaled down: a slow consumer of large events (several times `maxBufferedBytes`) on a socket
 * that cannot pause (the runtime's built-in WebSocket). The frames a connection holds back while its REST
 * catch-up runs used to be bounded by dropping the connection (`sync-overflow`): when the socket brought more
 * than the bound before the catch-up's first page, every reconnect overflowed again, until `giveUpAfter` ended
 * the subscription with a generic `SubscriptionConnectionError`. Now the held frames are dropped and read again
 * over REST by position on the same connection: every event once, in order, with no reconnect, and REST pages
 * sized to the byte bound (with `ws`, whose reading pauses, the same: frames it had received still come). Both sockets: `/sockets/events` (legacy) and `/sockets/session` (live only: its first
 * connection catches up over REST from `subscribe()`).
 *
 * Deterministic: the double answers the REST search only once it has sent every frame of the burst (the REST
 * read is slower than the socket, as a page of 2 MiB events is), and the consumer is held by a promise until
 * the catch-up has filled its buffer.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, WebSocket as WsClient } from 'ws';
import { EventsClient, type ReconnectInfo } from '../../src/agent-server/index.js';
import type { Event } from '../../src/models/index.js';
import { waitFor } from '../helpers/wait-for.js';

const ID = '6f1c2a4e-3b5d-4e7f-8a9b-0c1d2e3f4a5b';
const KiB = 1024;
const BOUND = 256 * KiB;
/** Events of about 64 KiB: 40 of them are ten times the bound. */
const PADDING = 'x'.repeat(64 * KiB);
const COUNT = 40;

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const stamp = (n: number) =>
  `2026-11-23T10:00:${String(Math.floor(n / 1000)).padStart(2, '0')}.${String(n % 1000).padStart(3, '0')}000`;
const event = (n: number) => ({
  id: `event-${n}`,
  timestamp: stamp(n + 1),
  source: 'user',
  llm_message: { role: 'user', content: [{ type: 'text', text: `message ${n}` }] },
  kind: 'MessageEvent',
  extra_padding: PADDING,
});
const fullState = () => ({
  id: `state-${Math.random()}`,
  timestamp: stamp(0),
  source: 'environment',
  kind: 'ConversationStateUpdateEvent',
  key: 'full_state',
  value: { execution_status: 'running' },
});

/** The ids of the first COUNT messages a `for await` loop takes, each only once `gate` settled (a slow loop). */
async function messageIds(sub: AsyncIterable<Event>, gate: Promise<unknown>) {
  const ids: string[] = [];
  for await (const item of sub) {
    if (item.kind !== 'MessageEvent') continue;
    await gate;
    ids.push(String(item.id));
    if (ids.length === COUNT) break;
  }
  return ids;
}
/** Every message of a run, in order. */
const ALL_IDS = Array.from({ length: COUNT }, (_, n) => `event-${n}`);

/** A promise the test opens: the loop waits on it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

interface Double {
  url: string;
  connections: number;
  /** The `limit` of every REST search. */
  limits: number[];
  /** Event frames sent, per connection (a resend's and live ones). */
  eventFrames: number[];
  /** `when: 'live'`: sends the burst on the current socket (the subscription is live). */
  publish(): void;
  /** Ends the current socket without a close frame (close 1006), as a server dropping a slow reader. */
  dropCurrent(): void;
}

/**
 * An agent server of `protocol` whose conversation gets `COUNT` large events, all sent on one socket: right
 * after the first socket's first state (`catch-up`; the REST search answers once they are sent), or when the
 * test calls `publish()` (`live`).
 */
async function busyServer(
  protocol: 'session' | 'events',
  when: 'catch-up' | 'live',
  version = protocol === 'session' ? '1.58.2' : '1.25.0',
): Promise<Double> {
  let current: ((n: number, last: boolean) => void) | undefined;
  let published = 0;
  let sent!: () => void;
  const allSent = new Promise<void>((resolve) => {
    sent = resolve;
  });
  const burst = () => {
    while (published < COUNT) current?.(published++, published === COUNT);
  };
  let currentSocket: import('ws').WebSocket | undefined;
  const state: Double = {
    url: '',
    connections: 0,
    limits: [],
    eventFrames: [],
    publish: burst,
    dropCurrent: () => currentSocket?.terminate(),
  };
  if (when === 'live') sent();
  const json = (response: import('node:http').ServerResponse, body: unknown) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    if (url.pathname === '/server_info') return json(response, { uptime: 1, idle_time: 1, version });
    if (url.pathname === `/api/conversations/${ID}`)
      return json(response, { id: ID, execution_status: 'running' });
    if (url.pathname === `/api/conversations/${ID}/events/search`) {
      const limit = Number(url.searchParams.get('limit'));
      state.limits.push(limit);
      void allSent.then(() => {
        const since = url.searchParams.get('timestamp__gte');
        const pageId = url.searchParams.get('page_id');
        let first = 0;
        while (since !== null && first < published && stamp(first + 1) < since) first += 1;
        if (pageId !== null) first = Math.max(first, Number(pageId.slice('event-'.length)));
        const items = [];
        for (let n = first; n < Math.min(published, first + limit); n += 1) items.push(event(n));
        json(response, { items, next_page_id: first + limit < published ? `event-${first + limit}` : null });
      });
      return;
    }
    response.writeHead(404).end();
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (request, duplex, head) => {
    const url = new URL(request.url ?? '/', 'http://x');
    wss.handleUpgrade(request, duplex, head, (socket) => {
      state.connections += 1;
      const connection = state.eventFrames.push(0) - 1;
      socket.on('error', () => undefined);
      const frame = (n: number) => {
        state.eventFrames[connection]! += 1;
        return JSON.stringify(
          protocol === 'session' ? { type: 'durable', seq: n, event: event(n) } : event(n),
        );
      };
      if (protocol === 'session') {
        socket.send(JSON.stringify({ type: 'sync', through_seq: published - 1 }));
        const after = url.searchParams.get('after_seq');
        if (after !== null) for (let n = Number(after) + 1; n < published; n += 1) socket.send(frame(n));
        socket.send(JSON.stringify({ type: 'transient', event: fullState() }));
      } else {
        socket.send(JSON.stringify(fullState()));
        // `resend_mode=since&after_timestamp=T` (1.15.0 on): from T; `resend_all=true`: everything.
        const since =
          url.searchParams.get('after_timestamp') ?? (url.searchParams.has('resend_all') ? '' : null);
        if (since !== null)
          for (let n = 0; n < published; n += 1) if (stamp(n + 1) >= since) socket.send(frame(n));
      }
      current = (n, last) => socket.send(frame(n), last ? () => sent() : undefined);
      currentSocket = socket;
      // The burst, once: more than the bound before the catch-up's first page.
      if (when === 'catch-up' && published === 0) burst();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

/** The runtime's built-in WebSocket cannot pause reading; `ws`'s can (but still hands out what it received). */
const sockets = { 'built-in': globalThis.WebSocket, ws: WsClient } as const;

describe.each([
  ['events', 'built-in'],
  ['session', 'built-in'],
  ['events', 'ws'],
  ['session', 'ws'],
] as const)('large events, a slow consumer, /sockets/%s, the %s WebSocket', (protocol, socket) => {
  it("onOverflow 'pause', a burst during the catch-up: every event once, in order, on one connection, within the bound", async () => {
    const server = await busyServer(protocol, 'catch-up');
    const client = new EventsClient({ baseUrl: server.url, logLevel: 'off', maxRetries: 0 });
    const sub = client.subscribe(ID, {
      protocol,
      WebSocket: sockets[socket] as never,
      maxBufferedBytes: BOUND,
      reconnect: { initialDelay: 5, maxDelay: 20, giveUpAfter: 5_000 },
    });
    const reconnects: ReconnectInfo[] = [];
    sub.on('reconnecting', (info) => reconnects.push(info));
    let most = 0;
    sub.on('event', () => {
      most = Math.max(most, sub.bufferedBytes);
    });
    const errors: Error[] = [];
    sub.on('error', (error) => errors.push(error));
    // The consumer takes nothing until the catch-up has filled its buffer.
    const full = waitFor(() => sub.bufferedBytes >= BOUND - 70 * KiB, 'a full buffer', 8_000);
    const ids = await messageIds(sub, full);
    expect(ids).toEqual(ALL_IDS);
    expect(errors).toEqual([]);
    expect(reconnects).toEqual([]);
    expect(server.connections).toBe(1);
    // The buffer never held more than the bound and the one event that reached it.
    expect(most).toBeLessThan(BOUND + 70 * KiB);
    // REST pages of what fits in the bound (about 4 events of 64 KiB), not 100 of them; before any size was
    // known, a first page of 10.
    expect(server.limits.length).toBeGreaterThan(1);
    for (const limit of server.limits) expect(limit).toBeLessThanOrEqual(10);
    for (const limit of server.limits.slice(1)) expect(limit).toBeLessThanOrEqual(4);
  }, 20_000);

  it("onOverflow 'pause', a burst once live: every event once, in order, on one connection, within the bound", async () => {
    const server = await busyServer(protocol, 'live');
    const client = new EventsClient({ baseUrl: server.url, logLevel: 'off', maxRetries: 0 });
    const sub = client.subscribe(ID, {
      protocol,
      WebSocket: sockets[socket] as never,
      maxBufferedBytes: BOUND,
      reconnect: { initialDelay: 5, maxDelay: 20, giveUpAfter: 5_000 },
    });
    const reconnects: ReconnectInfo[] = [];
    sub.on('reconnecting', (info) => reconnects.push(info));
    let most = 0;
    sub.on('event', () => {
      most = Math.max(most, sub.bufferedBytes);
    });
    const errors: Error[] = [];
    sub.on('error', (error) => errors.push(error));
    await sub.ready;
    await waitFor(() => sub.phase === 'live', 'live');
    server.publish();
    // The consumer takes nothing until its buffer is full.
    const full = waitFor(() => sub.bufferedBytes >= BOUND - 70 * KiB, 'a full buffer', 8_000);
    const ids = await messageIds(sub, full);
    expect(ids).toEqual(ALL_IDS);
    expect(errors).toEqual([]);
    // Not closed and reopened for the server to replay: the connection caught up over REST (the built-in
    // WebSocket) or paused reading (`ws`).
    expect(reconnects).toEqual([]);
    expect(server.connections).toBe(1);
    expect(most).toBeLessThan(BOUND + 70 * KiB);
  }, 20_000);

  // A paused `ws` socket notices a dropped connection only once it reads again: for the built-in WebSocket.
  it.skipIf(socket === 'ws')(
    'a server that drops the slow reader (1006) connection after connection while the loop is full: not taken for a frame the WebSocket cannot take; every event once',
    async () => {
      const server = await busyServer(protocol, 'live');
      const debug: string[] = [];
      const logger = {
        debug: (line: string) => debug.push(line),
        info: () => undefined,
        warn: () => undefined,
        error: () => undefined,
      };
      const client = new EventsClient({ baseUrl: server.url, logger, logLevel: 'debug', maxRetries: 0 });
      const sub = client.subscribe(ID, {
        protocol,
        WebSocket: sockets[socket] as never,
        maxBufferedBytes: BOUND,
        reconnect: { initialDelay: 5, maxDelay: 20, giveUpAfter: 10_000 },
      });
      const reconnects: ReconnectInfo[] = [];
      sub.on('reconnecting', (info) => reconnects.push(info));
      await sub.ready;
      await waitFor(() => sub.phase === 'live', 'live');
      server.publish();
      const slow = gate();
      const loop = messageIds(sub, slow.opened);
      let ids: string[] = [];
      const waiting = () => debug.filter((line) => line.includes('delivery waits for room')).length;
      try {
        await waitFor(() => sub.bufferedBytes >= BOUND - 70 * KiB && waiting() > 0, 'a full buffer');
        // Four times: each connection, once it waits for the loop (it cannot deliver), is dropped.
        for (let drop = 0; drop < 4; drop += 1) {
          const connections = server.connections;
          server.dropCurrent();
          await waitFor(() => server.connections > connections, 'a new connection');
          const now = waiting();
          await waitFor(() => waiting() > now, 'the new connection waiting for room');
        }
        slow.open();
        ids = await loop;
      } finally {
        sub.close();
      }
      expect(ids).toEqual(ALL_IDS);
      expect(reconnects.length).toBeGreaterThanOrEqual(4);
      for (const info of reconnects) expect(info.closeCode).toBe(1006);
    },
    20_000,
  );
});

// The reconnect of a legacy subscription catches up over REST from where delivery stands; a resend on top
// (`resend_mode=since`, or `resend_all` before 1.15.0) brought the same events again, parsed and dropped: with
// 2 MiB events hundreds of MiB that starved the catch-up on a WebSocket that cannot pause, until `giveUpAfter`
// ended the subscription (issue 34 item 3). Counted on the server: each event crosses the socket once.
describe.each([
  ['1.25.0', 'resend_mode=since'],
  ['1.11.4', 'resend_all'],
])('/sockets/events %s (%s), the built-in WebSocket, a slow consumer', (version) => {
  it('a reconnect that catches up over REST asks for no resend: each event sent once, delivered once, in order', async () => {
    const server = await busyServer('events', 'live', version);
    const client = new EventsClient({ baseUrl: server.url, logLevel: 'off', maxRetries: 0 });
    const sub = client.subscribe(ID, {
      protocol: 'events',
      WebSocket: globalThis.WebSocket as never,
      maxBufferedBytes: BOUND,
      reconnect: { initialDelay: 5, maxDelay: 20, giveUpAfter: 10_000 },
    });
    const errors: Error[] = [];
    sub.on('error', (error) => errors.push(error));
    await sub.ready;
    await waitFor(() => sub.phase === 'live', 'live');
    server.publish();
    const slow = gate();
    const loop = messageIds(sub, slow.opened);
    let ids: string[] = [];
    try {
      await waitFor(() => sub.bufferedBytes >= BOUND - 70 * KiB, 'a full buffer');
      server.dropCurrent();
      // The double sends what it resends as the socket opens: counted once the connection is.
      await waitFor(() => server.connections === 2, 'a new connection');
      slow.open();
      ids = await loop;
    } finally {
      sub.close();
    }
    expect(ids).toEqual(ALL_IDS);
    expect(errors).toEqual([]);
    expect(server.connections).toBe(2);
    // All of them live on the first connection; nothing again on the second (REST read what was missing).
    expect(server.eventFrames).toEqual([COUNT, 0]);
  }, 20_000);
});
