/**
 * The subscriber against a hostile `/sockets/session` server of our own on loopback: a real HTTP server
 * (`/server_info` as the real 1.58.0 answered it, `GET /api/conversations/{id}`) and a `ws` socket server
 * whose behaviour each test scripts: dropped sockets, duplicate and out-of-order envelopes, unknown envelope
 * types and fields, `error` envelopes, every close code, a server that accepts and never sends, an
 * unreachable host, a handshake answered 404.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket as WsSocket } from 'ws';
import type { ReconnectInfo, StreamDelta } from '../../../src/agent-server/index.js';
import {
  EventsClient,
  isSubscriptionAuthenticationError,
  isSubscriptionConnectionError,
  isSubscriptionCredentialBindingError,
  isSubscriptionEndpointNotFoundError,
  isSubscriptionFrameTooLargeError,
  isSubscriptionNotFoundError,
  isSubscriptionServerError,
  type SubscriptionError,
  type SubscriptionServerError,
} from '../../../src/agent-server/index.js';
import type { Event } from '../../../src/models/index.js';
import { sleep, until } from '../simulated.js';

const SERVER_INFO = (
  JSON.parse(readFileSync(new URL('../../fixtures/real/1.58.0/exchanges.json', import.meta.url), 'utf8')) as {
    exchanges: { path: string; response: unknown }[];
  }
).exchanges.find((exchange) => exchange.path === '/server_info')?.response;

const ID = '6f1c2a4e-3b5d-4e7f-8a9b-0c1d2e3f4a5b';

interface Hostile {
  url: string;
  /** `after_seq` of every handshake (`null`: omitted). */
  afterSeqs: (string | null)[];
  /** Paths of every handshake. */
  paths: string[];
  server: Server;
  /** REST answers for the conversation: 200 with this body, or 404. */
  rest: { status: number; body: Record<string, unknown> };
}

type OnSocket = (socket: WsSocket, request: IncomingMessage, connection: number) => void;

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function hostile(onSocket: OnSocket, options: { upgrade404?: boolean } = {}): Promise<Hostile> {
  const state: Hostile = {
    url: '',
    afterSeqs: [],
    paths: [],
    server: undefined as unknown as Server,
    rest: { status: 200, body: { id: ID, execution_status: 'idle' } },
  };
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    if (path === '/server_info') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(SERVER_INFO));
    } else if (path === `/api/conversations/${ID}/events/search`) {
      // A live-only subscription's first connection reads what was persisted since subscribe() returned.
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[],"next_page_id":null}');
    } else if (path === `/api/conversations/${ID}`) {
      response
        .writeHead(state.rest.status, { 'content-type': 'application/json' })
        .end(JSON.stringify(state.rest.status === 200 ? state.rest.body : { detail: 'Not Found' }));
    } else {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Not Found"}');
    }
  });
  const wss = new WebSocketServer({ noServer: true });
  let connections = 0;
  server.on('upgrade', (request, duplex, head) => {
    const url = new URL(request.url ?? '/', 'http://x');
    state.paths.push(url.pathname);
    state.afterSeqs.push(url.searchParams.get('after_seq'));
    if (options.upgrade404) {
      duplex.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(request, duplex, head, (socket) => {
      connections += 1;
      socket.on('error', () => undefined);
      onSocket(socket, request, connections);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  state.server = server;
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

let clock = 0;
function event(n: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  clock += 1;
  return {
    id: `event-${n}`,
    timestamp: `2026-11-23T10:00:${String(Math.floor(clock / 1000)).padStart(2, '0')}.${String(clock % 1000).padStart(3, '0')}000`,
    source: 'user',
    llm_message: { role: 'user', content: [{ type: 'text', text: `message ${n}` }] },
    kind: 'MessageEvent',
    ...extra,
  };
}
const durable = (seq: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: 'durable', seq, event: event(seq), ...extra });
const fullState = () =>
  JSON.stringify({
    type: 'transient',
    event: {
      id: `state-${clock}`,
      timestamp: '2026-11-23T10:00:00.000001',
      source: 'environment',
      kind: 'ConversationStateUpdateEvent',
      key: 'full_state',
      value: { execution_status: 'running' },
    },
  });

function client(server: Hostile, logs: string[] = []) {
  const logger = {
    debug: () => undefined,
    info: (line: string) => logs.push(`info ${line}`),
    warn: (line: string) => logs.push(`warn ${line}`),
    error: (line: string) => logs.push(`error ${line}`),
  };
  return new EventsClient({ baseUrl: server.url, logger, maxRetries: 0 });
}

const fast = { initialDelay: 5, maxDelay: 20, overloadedDelay: 10 };

async function take(sub: AsyncIterable<Event>, count: number): Promise<string[]> {
  const ids: string[] = [];
  for await (const item of sub) {
    ids.push(String(item.id));
    if (ids.length >= count) break;
  }
  return ids;
}

const range = (n: number) => Array.from({ length: n }, (_, i) => `event-${i}`);

describe('/sockets/session against a hostile server', () => {
  it('duplicate and out-of-order envelopes, unknown envelope types and fields: every event once, in seq order', async () => {
    const server = await hostile((socket) => {
      socket.send(JSON.stringify({ type: 'sync', from_seq: -1, through_seq: 5, novel: true }));
      socket.send(durable(0));
      socket.send(durable(2));
      socket.send(durable(1, { extra_field: 'ignored' }));
      socket.send(durable(1));
      socket.send(JSON.stringify({ type: 'mystery', payload: [1, 2, 3] }));
      socket.send(durable(0));
      socket.send(fullState());
      socket.send(durable(4));
      socket.send(durable(3));
      socket.send(durable(5));
      socket.send(durable(4));
    });
    const sub = client(server).subscribe(ID, { history: true, reconnect: fast });
    expect(await take(sub, 6)).toEqual(range(6));
    expect(server.paths[0]).toBe(`/sockets/session/${ID}`);
    expect(server.afterSeqs[0]).toBe('-1');
  });

  it('an error envelope and a ServerErrorEvent go to the error channel as typed errors, not into the stream', async () => {
    const server = await hostile((socket) => {
      socket.send(fullState());
      socket.send(
        JSON.stringify({ type: 'error', code: 'ValidationError', detail: 'Invalid message frame' }),
      );
      socket.send(
        JSON.stringify({
          type: 'transient',
          event: {
            id: 'se',
            timestamp: 't',
            source: 'environment',
            code: 'Boom',
            detail: 'bad',
            kind: 'ServerErrorEvent',
          },
        }),
      );
      socket.send(durable(0));
    });
    const sub = client(server).subscribe(ID, { reconnect: fast });
    const errors: SubscriptionServerError[] = [];
    sub.on('error', (error) => errors.push(error as SubscriptionServerError));
    expect(await take(sub, 1)).toEqual(['event-0']);
    expect(errors.map((e) => [isSubscriptionServerError(e), e.serverCode, e.detail])).toEqual([
      [true, 'ValidationError', 'Invalid message frame'],
      [true, 'Boom', 'bad'],
    ]);
  });

  it('deltas are their own typed emitter events, never in the event stream', async () => {
    const server = await hostile((socket) => {
      socket.send(fullState());
      const item = { item_id: 'i1' };
      socket.send(JSON.stringify({ type: 'item_started', ...item, attempt: 1, anchor_seq: -1 }));
      socket.send(
        JSON.stringify({ type: 'delta', ...item, attempt: 1, order: 0, kind: 'text', content: 'Hel' }),
      );
      socket.send(JSON.stringify({ type: 'item_aborted', ...item, attempt: 1, reason: 'retry' }));
      socket.send(
        JSON.stringify({ type: 'delta', ...item, attempt: 2, order: 0, kind: 'reasoning', content: 'hm' }),
      );
      socket.send(
        JSON.stringify({ type: 'delta', ...item, attempt: 2, order: 1, kind: 'text', content: 'Hello' }),
      );
      socket.send(durable(0));
    });
    const sub = client(server).subscribe(ID, { reconnect: fast });
    const deltas: StreamDelta[] = [];
    sub.on('delta', (delta) => deltas.push(delta));
    expect(await take(sub, 1)).toEqual(['event-0']);
    expect(
      deltas.map((d) => `${d.type}:${d.attempt}:${d.type === 'delta' ? `${d.kind}:${d.content}` : ''}`),
    ).toEqual([
      'item_started:1:',
      'delta:1:text:Hel',
      'item_aborted:1:',
      'delta:2:reasoning:hm',
      'delta:2:text:Hello',
    ]);
  });

  it('deltas() iterates the same deltas and ends with the subscription', async () => {
    const server = await hostile((socket) => {
      socket.send(fullState());
      socket.send(JSON.stringify({ type: 'item_started', item_id: 'i', attempt: 1 }));
      socket.send(
        JSON.stringify({ type: 'delta', item_id: 'i', attempt: 1, order: 0, kind: 'text', content: 'a' }),
      );
      socket.send(
        JSON.stringify({ type: 'delta', item_id: 'i', attempt: 1, order: 1, kind: 'text', content: 'b' }),
      );
      socket.send(durable(0));
    });
    const sub = client(server).subscribe(ID, { reconnect: fast });
    const seen: string[] = [];
    const loop = (async () => {
      for await (const delta of sub.deltas()) seen.push(delta.type === 'delta' ? delta.content : delta.type);
    })();
    expect(await take(sub, 1)).toEqual(['event-0']);
    await loop;
    expect(seen).toEqual(['item_started', 'a', 'b']);
  });

  it('sockets dropped at random points: every persisted event exactly once and in order, resumed by after_seq', async () => {
    const total = 400;
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const server = await hostile((socket, request) => {
      const after = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('after_seq') ?? '-1');
      socket.send(JSON.stringify({ type: 'sync', from_seq: after, through_seq: total - 1 }));
      socket.send(fullState());
      const stopAfter = 1 + Math.floor(next() * 60);
      let sent = 0;
      for (let seq = after + 1; seq < total; seq += 1) {
        if (sent === stopAfter) {
          // Half of the time a clean close, half a dropped TCP connection.
          if (next() < 0.5) socket.close(1011, 'subscribe_failed');
          else socket.terminate();
          return;
        }
        // Now and then a duplicate of an earlier envelope.
        if (seq > 0 && next() < 0.1) socket.send(durable(seq - 1));
        socket.send(durable(seq));
        sent += 1;
      }
    });
    const sub = client(server).subscribe(ID, { history: true, reconnect: fast });
    const reconnects: ReconnectInfo[] = [];
    sub.on('reconnecting', (info) => reconnects.push(info));
    expect(await take(sub, total)).toEqual(range(total));
    expect(reconnects.length).toBeGreaterThan(3);
    const seqs = server.afterSeqs.map(Number);
    expect(seqs[0]).toBe(-1);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
  });

  it('a server that accepts and never sends: ready from a REST read of the conversation', async () => {
    const server = await hostile(() => undefined);
    server.rest.body = { id: ID, execution_status: 'paused' };
    const sub = client(server).subscribe(ID, { readyFallback: 50, reconnect: fast });
    const state = await sub.ready;
    expect(state.execution_status).toBe('paused');
    sub.close();
  });

  it('a per-key update without any full_state makes the subscription ready', async () => {
    const server = await hostile((socket) => {
      socket.send(
        JSON.stringify({
          type: 'durable',
          seq: 0,
          event: {
            id: 'status',
            timestamp: '2026-11-23T10:00:00.5',
            source: 'environment',
            kind: 'ConversationStateUpdateEvent',
            key: 'execution_status',
            value: 'finished',
          },
        }),
      );
    });
    const sub = client(server).subscribe(ID, { readyFallback: 60_000, reconnect: fast });
    expect((await sub.ready).execution_status).toBe('finished');
    sub.close();
  });

  describe('close codes', () => {
    const closing = (code: number, reason: string) =>
      hostile((socket) => {
        socket.send(fullState());
        socket.close(code, reason);
      });

    it('4001: SubscriptionAuthenticationError, no reconnect', async () => {
      const server = await closing(4001, 'Authentication failed');
      const error = (await take(client(server).subscribe(ID, { reconnect: fast }), 1).catch(
        (e) => e,
      )) as SubscriptionError;
      expect(isSubscriptionAuthenticationError(error)).toBe(true);
      expect(server.paths.length).toBe(1);
    });

    it('4004 with REST 404: SubscriptionNotFoundError', async () => {
      const server = await closing(4004, 'Conversation not found');
      server.rest.status = 404;
      const error = (await take(client(server).subscribe(ID, { reconnect: fast }), 1).catch(
        (e) => e,
      )) as SubscriptionError;
      expect(isSubscriptionNotFoundError(error)).toBe(true);
      expect(error.closeCode).toBe(4004);
    });

    it('4004 while REST finds the conversation (a restarted server, lease): retried until it answers, nothing lost', async () => {
      let leaseLeft = 5;
      const server = await hostile((socket, request) => {
        if (leaseLeft-- > 0) {
          socket.close(4004, 'Conversation not found');
          return;
        }
        const after = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('after_seq') ?? '-1');
        socket.send(fullState());
        for (let seq = after + 1; seq < 10; seq += 1) socket.send(durable(seq));
      });
      const sub = client(server).subscribe(ID, { history: true, reconnect: fast });
      const reasons: string[] = [];
      sub.on('reconnecting', (info) => reasons.push(info.reason));
      expect(await take(sub, 10)).toEqual(range(10));
      expect(reasons).toEqual(Array(5).fill('conversation-lease'));
    });

    it('4004 while REST finds the conversation gives up after reconnect.leaseTimeout', async () => {
      // As the real server does: the close comes at accept, before any state.
      const server = await hostile((socket) => socket.close(4004, 'Conversation not found'));
      const sub = client(server).subscribe(ID, {
        reconnect: { ...fast, giveUpAfter: 50, leaseTimeout: 150 },
      });
      const error = (await take(sub, 1).catch((e) => e)) as SubscriptionError;
      expect(isSubscriptionConnectionError(error)).toBe(true);
      expect(server.paths.length).toBeGreaterThan(2);
    });

    it('1013 credential_binding_activation_required: a typed error that says what to do, no reconnect', async () => {
      const server = await closing(1013, 'credential_binding_activation_required');
      const error = (await take(client(server).subscribe(ID, { reconnect: fast }), 1).catch(
        (e) => e,
      )) as SubscriptionError;
      expect(isSubscriptionCredentialBindingError(error)).toBe(true);
      expect(error.message).toMatch(/activate/);
      await sleep(50);
      expect(server.paths.length).toBe(1);
    });

    it.each([
      // The server's byte budget dropped us: we read too slowly, not a failure of the server.
      [1013, 'slow_consumer', 'slow-consumer'],
      [1013, 'Too many connections for this conversation', 'overloaded'],
      [1011, 'subscribe_failed', 'closed'],
      [1000, '', 'closed'],
      [1001, 'going away', 'closed'],
    ])('%i %s: reconnects and resumes after the last seq', async (code, reason, expected) => {
      const server = await hostile((socket, _request, connection) => {
        socket.send(fullState());
        if (connection === 1) {
          for (let seq = 0; seq < 3; seq += 1) socket.send(durable(seq));
          setTimeout(() => socket.close(code, reason), 20);
        } else {
          for (let seq = 3; seq < 6; seq += 1) socket.send(durable(seq));
        }
      });
      const sub = client(server).subscribe(ID, { history: true, reconnect: fast });
      const reasons: string[] = [];
      sub.on('reconnecting', (info) => reasons.push(info.reason));
      expect(await take(sub, 6)).toEqual(range(6));
      expect(reasons[0]).toBe(expected);
      expect(server.afterSeqs.slice(0, 2)).toEqual(['-1', '2']);
    });
  });

  it('1013 frame_too_large: SubscriptionFrameTooLargeError, no reconnect loop on a frame that can never come', async () => {
    const server = await hostile((socket) => {
      socket.send(fullState());
      setTimeout(() => socket.close(1013, 'frame_too_large'), 20);
    });
    const sub = client(server).subscribe(ID, { history: true, reconnect: fast });
    const error = await take(sub, 1).catch((e) => e);
    expect(isSubscriptionFrameTooLargeError(error)).toBe(true);
    expect(server.afterSeqs).toHaveLength(1);
  });

  it('a handshake answered 404 while REST answers: SubscriptionEndpointNotFoundError, not endless retry', async () => {
    const server = await hostile(() => undefined, { upgrade404: true });
    const error = (await take(client(server).subscribe(ID, { reconnect: fast }), 1).catch(
      (e) => e,
    )) as SubscriptionError;
    expect(isSubscriptionEndpointNotFoundError(error)).toBe(true);
    expect(error.message).toContain("protocol: 'events'");
    expect(server.paths.length).toBe(3);
  });

  it('an unreachable host: SubscriptionConnectionError after reconnect.giveUpAfter, each retry logged at warn', async () => {
    const server = await hostile(() => undefined);
    const url = server.url;
    server.server.closeAllConnections();
    await new Promise((resolve) => server.server.close(resolve));
    servers.splice(servers.indexOf(server.server), 1);
    const logs: string[] = [];
    const sub = client({ ...server, url }, logs).subscribe(ID, {
      protocol: 'session',
      reconnect: { ...fast, giveUpAfter: 200 },
    });
    let retries = 0;
    sub.on('reconnecting', () => {
      retries += 1;
    });
    const error = (await take(sub, 1).catch((e) => e)) as SubscriptionError;
    expect(isSubscriptionConnectionError(error)).toBe(true);
    expect(error.message).toContain('giveUpAfter');
    // The cause is named, not only "error; reconnecting".
    expect(error.message).toContain('connection refused');
    expect(retries).toBeGreaterThan(0);
    expect(logs.filter((line) => line.startsWith('warn') && line.includes('reconnecting in')).length).toBe(
      retries,
    );
  });

  it('protocol: events on a 1.58.0 server uses /sockets/events', async () => {
    const server = await hostile((socket) => {
      socket.send(JSON.stringify(JSON.parse(fullState()).event));
    });
    const sub = client(server).subscribe(ID, { protocol: 'events', reconnect: fast });
    await sub.ready;
    await until(() => server.paths.length > 0, 1000, 'a handshake');
    expect(server.paths[0]).toBe(`/sockets/events/${ID}`);
    sub.close();
  });
});

describe('errors built from error events', () => {
  it('carry the classification and surface retryable', async () => {
    const { conversationEventError, isConversationEventError } = await import(
      '../../../src/agent-server/errors.js'
    );
    const { parseEvent } = await import('../../../src/models/index.js');
    const failed = parseEvent({
      id: 'e1',
      timestamp: '2026-11-23T10:00:00',
      source: 'environment',
      code: 'RateLimitError',
      detail: 'slow down',
      classification: { kind: 'rate_limit', retryable: true, user_action: 'retry' },
      kind: 'ConversationErrorEvent',
    }) as import('../../../src/models/index.js').ConversationErrorEvent;
    const error = conversationEventError(failed);
    expect(isConversationEventError(error)).toBe(true);
    expect(error).toMatchObject({ retryable: true, eventId: 'e1', classification: { kind: 'rate_limit' } });
    expect(error.message).toContain('RateLimitError');
    const bare = conversationEventError({ ...failed, classification: undefined });
    expect(bare.retryable).toBeUndefined();
  });
});
