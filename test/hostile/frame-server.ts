/**
 * A hostile `/sockets/events` server (1.25.0: the legacy socket, REST catch-up) that writes raw WebSocket frames
 * on its `ws` sockets: a frame whose header declares more than it sends, or a permessage-deflate bomb (a small
 * compressed frame that inflates to many MiB). The socket server offers permessage-deflate, so that a client
 * that asks for it (ws, undici) gets compressed frames. Each server ends with its test.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { constants, deflateRawSync } from 'node:zlib';
import { afterEach } from 'vitest';
import { WebSocketServer, type WebSocket as WsSocket } from 'ws';

export const ID = '6f1c2a4e-3b5d-4e7f-8a9b-0c1d2e3f4a5b';

export interface FrameServer {
  url: string;
  /** Sockets accepted so far. */
  connections: number;
  /** Connections whose client went away (TCP closed), by connection number. */
  gone: Set<number>;
}

const servers: Server[] = [];
/** Upgraded sockets leave the HTTP server's bookkeeping: one left open would keep `close` waiting. */
const upgraded: Socket[] = [];
afterEach(async () => {
  for (const raw of upgraded.splice(0)) raw.destroy();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

export async function frameServer(
  onSocket: (socket: WsSocket, raw: Socket, connection: number) => void,
): Promise<FrameServer> {
  const state: FrameServer = { url: '', connections: 0, gone: new Set() };
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const json = (body: unknown) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (path === '/server_info')
      return json({ uptime: 1, idle_time: 1, title: 'hostile', version: '1.25.0' });
    if (path === `/api/conversations/${ID}`) return json({ id: ID, execution_status: 'running' });
    if (path === `/api/conversations/${ID}/events/search`) return json({ items: [], next_page_id: null });
    response.writeHead(404).end();
  });
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: { threshold: 0 } });
  server.on('upgrade', (request, duplex, head) => {
    wss.handleUpgrade(request, duplex, head, (socket) => {
      const number = ++state.connections;
      const raw = duplex as Socket;
      upgraded.push(raw);
      raw.on('close', () => state.gone.add(number));
      socket.on('error', () => undefined);
      onSocket(socket, raw, number);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

/** The header of one unmasked final text frame of `length` bytes; `compressed` sets RSV1 (RFC 7692). */
export function textFrameHeader(length: number, compressed = false): Buffer {
  const header = Buffer.alloc(10);
  header[0] = 0x81 | (compressed ? 0x40 : 0);
  header[1] = 127;
  header.writeBigUInt64BE(BigInt(length), 2);
  return header;
}

/**
 * One compressed text frame that inflates to `bytes` bytes of "A": its payload is the raw DEFLATE stream
 * without the 00 00 ff ff the extension strips (RFC 7692, 7.2.1). It must be the connection's first compressed
 * frame (earlier ones sent uncompressed), since the client's inflater keeps its window between messages.
 */
export function deflateBomb(bytes: number): Buffer {
  const deflated = deflateRawSync(Buffer.alloc(bytes, 'A'), { finishFlush: constants.Z_SYNC_FLUSH });
  const payload = deflated.subarray(0, deflated.length - 4);
  return Buffer.concat([textFrameHeader(payload.length, true), payload]);
}

/** The legacy socket's first state: the connection is ready (sent uncompressed, see deflateBomb). */
export function sendFullState(socket: WsSocket): void {
  socket.send(
    JSON.stringify({
      id: `state-${Math.random()}`,
      timestamp: '2026-11-23T10:00:00.000001',
      source: 'environment',
      kind: 'ConversationStateUpdateEvent',
      key: 'full_state',
      value: { execution_status: 'running' },
    }),
    { compress: false },
  );
}

/** A persisted MessageEvent as the legacy socket sends it (uncompressed). */
export function sendMessage(socket: WsSocket, n: number): void {
  socket.send(
    JSON.stringify({
      id: `event-${n}`,
      timestamp: `2026-11-23T10:00:01.${String(n).padStart(6, '0')}`,
      source: 'user',
      llm_message: { role: 'user', content: [{ type: 'text', text: `message ${n}` }] },
      kind: 'MessageEvent',
    }),
    { compress: false },
  );
}
