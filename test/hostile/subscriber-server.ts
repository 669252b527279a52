/**
 * A hostile `/sockets/events` agent server of our own on loopback (the legacy protocol, servers < 1.45.0) for
 * the subscriber's hostile tests: `/server_info` with a version the test sets (and changes, or never answers),
 * `GET /api/conversations/{id}`, the REST event search over the server's log (filtered by `timestamp__gte`
 * as the real server does, paged in log order; or failing, or hanging), and a `ws` socket server whose frames
 * each test scripts. Every server ends with its test.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { afterEach } from 'vitest';
import { WebSocketServer, type WebSocket as WsSocket } from 'ws';
import { EventsClient } from '../../src/agent-server/index.js';

export const ID = '6f1c2a4e-3b5d-4e7f-8a9b-0c1d2e3f4a5b';
export const KEY = 'sk-hostile-subscriber-key';

export interface LegacyServer {
  url: string;
  /** What `/server_info` says; `hang`: never answers. */
  version: string | 'hang';
  /** The persisted log the REST search reads (raw events, in log order). */
  log: Record<string, unknown>[];
  /** REST search: `ok`, `fail` (500) or `hang` (never answers). */
  search: 'ok' | 'fail' | 'hang';
  /** Handshakes: `accept`, `hang` (never answered), or `require-query-key` (403 unless `session_api_key`). */
  handshake: 'accept' | 'hang' | 'require-query-key';
  /** Query strings of every handshake. */
  handshakes: URLSearchParams[];
  /** `/server_info` and search requests the client hung up on before an answer. */
  abandoned: { serverInfo: number; search: number };
  serverInfoRequests: number;
  searchRequests: number;
}

export type OnSocket = (socket: WsSocket, connection: number, server: LegacyServer) => void;

const servers: Server[] = [];
/** Upgraded sockets leave the HTTP server's bookkeeping: a handshake left hanging would keep `close` waiting. */
const upgrades: Duplex[] = [];
afterEach(async () => {
  for (const duplex of upgrades.splice(0)) duplex.destroy();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

export async function legacyServer(onSocket: OnSocket, version = '1.25.0'): Promise<LegacyServer> {
  const state: LegacyServer = {
    url: '',
    version,
    log: [],
    search: 'ok',
    handshake: 'accept',
    handshakes: [],
    abandoned: { serverInfo: 0, search: 0 },
    serverInfoRequests: 0,
    searchRequests: 0,
  };
  const hang = (response: ServerResponse, kind: 'serverInfo' | 'search') => {
    response.on('close', () => {
      state.abandoned[kind] += 1;
    });
  };
  const json = (response: ServerResponse, status: number, body: unknown) =>
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://x');
    const path = url.pathname;
    if (path === '/server_info') {
      state.serverInfoRequests += 1;
      if (state.version === 'hang') return hang(response, 'serverInfo');
      return json(response, 200, { uptime: 1, idle_time: 1, title: 'hostile', version: state.version });
    }
    if (path === `/api/conversations/${ID}`) return json(response, 200, { id: ID, execution_status: 'idle' });
    if (path === `/api/conversations/${ID}/events/search`) {
      state.searchRequests += 1;
      if (state.search === 'hang') return hang(response, 'search');
      if (state.search === 'fail') return json(response, 500, { detail: 'Internal Server Error' });
      const since = url.searchParams.get('timestamp__gte');
      const items = state.log.filter(
        (event) => since === null || (typeof event.timestamp === 'string' && event.timestamp >= since),
      );
      // As the real server: the page id is the id of the page's first event.
      const pageId = url.searchParams.get('page_id');
      const start =
        pageId === null
          ? 0
          : Math.max(
              0,
              items.findIndex((event) => event.id === pageId),
            );
      const limit = Number(url.searchParams.get('limit') ?? 100);
      const page = items.slice(start, start + limit);
      const next = start + limit < items.length ? String(items[start + limit]?.id) : null;
      return json(response, 200, { items: page, next_page_id: next });
    }
    json(response, 404, { detail: 'Not Found' });
  });
  const wss = new WebSocketServer({ noServer: true });
  let connections = 0;
  server.on('upgrade', (request, duplex, head) => {
    const query = new URL(request.url ?? '/', 'http://x').searchParams;
    state.handshakes.push(query);
    upgrades.push(duplex);
    if (state.handshake === 'hang') return;
    if (state.handshake === 'require-query-key' && query.get('session_api_key') !== KEY) {
      duplex.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(request, duplex, head, (socket) => {
      connections += 1;
      socket.on('error', () => undefined);
      onSocket(socket, connections, state);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

/** A persisted MessageEvent as the server sends it; `fields` may replace or remove (`undefined`) any field. */
export function message(n: number, timestamp: unknown, fields: Record<string, unknown> = {}) {
  const event: Record<string, unknown> = {
    id: `event-${n}`,
    timestamp,
    source: 'user',
    llm_message: { role: 'user', content: [{ type: 'text', text: `message ${n}` }] },
    kind: 'MessageEvent',
    ...fields,
  };
  for (const [key, value] of Object.entries(event)) if (value === undefined) delete event[key];
  return event;
}

/** The connect-time `full_state` snapshot (the first state: the connection is ready). */
export function fullState(timestamp = '2026-11-23T10:00:00.000001') {
  return JSON.stringify({
    id: `state-${Math.random()}`,
    timestamp,
    source: 'environment',
    kind: 'ConversationStateUpdateEvent',
    key: 'full_state',
    value: { execution_status: 'running' },
  });
}

/** `2026-11-23T{hour}:00:00.{n}`: naive ISO text as the server writes it. */
export const at = (hour: number, n: number) =>
  `2026-11-23T${String(hour).padStart(2, '0')}:00:00.${String(n).padStart(6, '0')}`;

export function clientFor(server: LegacyServer, logs: string[] = [], sessionApiKey?: string) {
  const logger = {
    debug: () => undefined,
    info: (line: string) => logs.push(`info ${line}`),
    warn: (line: string) => logs.push(`warn ${line}`),
    error: (line: string) => logs.push(`error ${line}`),
  };
  return new EventsClient({
    baseUrl: server.url,
    logger,
    maxRetries: 0,
    ...(sessionApiKey === undefined ? {} : { sessionApiKey }),
  });
}

export const fast = { initialDelay: 5, maxDelay: 20, overloadedDelay: 10 };

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until a condition holds: the shared helper (test/helpers/wait-for.ts). */
export { waitFor as until } from '../helpers/wait-for.js';
