/**
 * A hostile `/sockets/session` server of our own on loopback, for the subscriber's fault tests: a real HTTP
 * server (`/server_info` as the real 1.58.0 answered it, `GET /api/conversations/{id}`, an empty event search)
 * and a `ws` socket server whose behaviour each test scripts.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { WebSocketServer, type WebSocket as WsSocket } from 'ws';
import { EventsClient } from '../../../src/agent-server/index.js';
import type { Event } from '../../../src/models/index.js';

const SERVER_INFO = (
  JSON.parse(readFileSync(new URL('../../fixtures/real/1.58.0/exchanges.json', import.meta.url), 'utf8')) as {
    exchanges: { path: string; response: unknown }[];
  }
).exchanges.find((exchange) => exchange.path === '/server_info')?.response;

export const ID = '6f1c2a4e-3b5d-4e7f-8a9b-0c1d2e3f4a5b';

export interface Hostile {
  url: string;
  /** `after_seq` of every handshake (`null`: omitted). */
  afterSeqs: (string | null)[];
  /** Paths of every handshake. */
  paths: string[];
  server: Server;
  /** What the REST event search answers (all of them, whatever the filter; the subscriber dedupes by id). */
  restEvents: Record<string, unknown>[];
  /** REST answers for the conversation: 200 with this body, or 404. */
  rest: { status: number; body: Record<string, unknown> };
}

export type OnSocket = (socket: WsSocket, request: IncomingMessage, connection: number) => void;

export const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

export async function hostile(onSocket: OnSocket, options: { upgrade404?: boolean } = {}): Promise<Hostile> {
  const state: Hostile = {
    url: '',
    afterSeqs: [],
    paths: [],
    server: undefined as unknown as Server,
    restEvents: [],
    rest: { status: 200, body: { id: ID, execution_status: 'idle' } },
  };
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    if (path === '/server_info') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(SERVER_INFO));
    } else if (path === `/api/conversations/${ID}/events/search`) {
      // A live-only subscription's first connection reads what was persisted since subscribe() returned.
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ items: state.restEvents, next_page_id: null }));
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
export function event(n: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
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
export const durable = (seq: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: 'durable', seq, event: event(seq), ...extra });
export const fullState = () =>
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

export function client(server: Hostile, logs: string[] = []) {
  const logger = {
    debug: () => undefined,
    info: (line: string) => logs.push(`info ${line}`),
    warn: (line: string) => logs.push(`warn ${line}`),
    error: (line: string) => logs.push(`error ${line}`),
  };
  return new EventsClient({ baseUrl: server.url, logger, maxRetries: 0 });
}

export const fast = { initialDelay: 5, maxDelay: 20, overloadedDelay: 10 };

export async function take(sub: AsyncIterable<Event>, count: number): Promise<string[]> {
  const ids: string[] = [];
  for await (const item of sub) {
    ids.push(String(item.id));
    if (ids.length >= count) break;
  }
  return ids;
}

export const range = (n: number) => Array.from({ length: n }, (_, i) => `event-${i}`);
