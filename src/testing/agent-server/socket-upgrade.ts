import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocketServer, WebSocket as WsSocket } from 'ws';
import {
  decideHandshake,
  EventSocketSession,
  isSessionSocketPath,
  type SocketSimulationOptions,
} from './socket-session.js';
import { versionAtLeast } from './versions.js';

/**
 * The agent server's `/sockets/events/{id}` (and `/sockets/session/{id}` on servers ≥ 1.45.0) on a real `ws`
 * server: 404 for other paths, the
 * handshake refused with HTTP 403 where the server would close before accept, else an `EventSocketSession`.
 * Shared by `serveAgentServer` and the simulator. `sockets` tracks the open connections.
 */
export function upgradeEventSocket(
  request: IncomingMessage,
  duplex: Duplex,
  head: Buffer,
  host: string,
  simulation: SocketSimulationOptions,
  wss: WebSocketServer,
  sockets: Set<WsSocket>,
  onAccept: () => void = () => undefined,
): void {
  const url = new URL(request.url ?? '/', `http://${host}`);
  const session = isSessionSocketPath(url) && versionAtLeast(simulation.version, [1, 45, 0]);
  if (!session && !/^\/sockets\/events\/[^/]+$/.test(url.pathname)) {
    duplex.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    return;
  }
  const header = request.headers['x-session-api-key'];
  const headerKey = Array.isArray(header) ? header[0] : header;
  if (decideHandshake(url, headerKey, simulation) === 'refuse') {
    // Closing before accept is an HTTP 403 to the client.
    duplex.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    return;
  }
  wss.handleUpgrade(request, duplex, head, (client) => {
    onAccept();
    sockets.add(client);
    const session = new EventSocketSession(
      { send: (text) => client.send(text), close: (code, reason) => client.close(code, reason) },
      url,
      headerKey,
      simulation,
    );
    client.on('message', (data) => session.onMessage(String(data)));
    client.on('close', () => {
      sockets.delete(client);
      session.onClose();
    });
    client.on('error', () => undefined);
    session.start();
  });
}
