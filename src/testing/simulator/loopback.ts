import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { RequestHandler } from 'msw';
import type { WebSocket as WsSocket } from 'ws';
import { agentRunnerFor } from '../agent-server/handlers.js';
import {
  decideHandshake,
  EventSocketSession,
  type SocketSimulationOptions,
} from '../agent-server/socket-session.js';
import { type LoopbackServer, serveHandlers } from '../serve-http.js';
import type { ComposedPlatform } from './compose.js';
import { SIMULATED_SERVICES, type SimulatedService } from './info.js';
import { importNodeOnly } from './node-only.js';

/** Every service of the platform on a loopback port of its own (Node only). */
export interface ServedPlatform {
  urls: Record<SimulatedService, string>;
  /** Starts answering with these handlers (the ports are bound before the handlers exist). */
  serve(platform: ComposedPlatform, socket: Omit<SocketSimulationOptions, 'store' | 'runner'>): Promise<void>;
  /** Event sockets open right now. */
  connections(): number;
  close(): Promise<void>;
}

/**
 * Binds one port per service on `host`: the given ones, or random free ones. Until `serve()` every request
 * is a 404 (the simulator calls it before handing the addresses out).
 */
export async function listenPlatform(
  host: string,
  ports: Partial<Record<SimulatedService, number>>,
): Promise<ServedPlatform> {
  let handlers: Record<SimulatedService, RequestHandler[]> | undefined;
  const servers = {} as Record<SimulatedService, LoopbackServer>;
  try {
    for (const service of SIMULATED_SERVICES) {
      const port = ports[service];
      servers[service] = await serveHandlers(() => handlers?.[service] ?? [], {
        host,
        ...(port === undefined ? {} : { port }),
      });
    }
  } catch (error) {
    await Promise.all(Object.values(servers).map((server) => server.close()));
    throw error;
  }
  const urls = Object.fromEntries(
    SIMULATED_SERVICES.map((service) => [service, servers[service].url]),
  ) as Record<SimulatedService, string>;
  const sockets = new Set<WsSocket>();
  let closeSocketServer: () => void = () => undefined;
  let agentStore: ComposedPlatform['stores']['agentServer'] | undefined;

  return {
    urls,
    async serve(platform, socket) {
      const { WebSocketServer } = await importNodeOnly<typeof import('ws')>('ws');
      const store = platform.stores.agentServer;
      agentStore = store;
      const simulation: SocketSimulationOptions = { ...socket, store, runner: agentRunnerFor(store) };
      const wss = new WebSocketServer({ noServer: true, clientTracking: false });
      closeSocketServer = () => wss.close();
      servers.agentServer.server.on('upgrade', (request: IncomingMessage, duplex: Duplex, head: Buffer) =>
        upgrade(request, duplex, head, host, simulation, wss, sockets),
      );
      handlers = platform.http;
    },
    connections: () => sockets.size,
    async close() {
      for (const client of sockets) client.terminate();
      sockets.clear();
      closeSocketServer();
      if (agentStore) agentRunnerFor(agentStore).dispose();
      await Promise.all(Object.values(servers).map((server) => server.close()));
    },
  };
}

/** The agent server's `/sockets/events/{id}`, as `serveAgentServer` runs it (notes §2.1). */
function upgrade(
  request: IncomingMessage,
  duplex: Duplex,
  head: Buffer,
  host: string,
  simulation: SocketSimulationOptions,
  wss: import('ws').WebSocketServer,
  sockets: Set<WsSocket>,
): void {
  const url = new URL(request.url ?? '/', `http://${host}`);
  if (!/^\/sockets\/events\/[^/]+$/.test(url.pathname)) {
    duplex.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    return;
  }
  const header = request.headers['x-session-api-key'];
  const headerKey = Array.isArray(header) ? header[0] : header;
  if (decideHandshake(url, headerKey, simulation) === 'refuse') {
    // notes §2.1: closing before accept is an HTTP 403 to the client.
    duplex.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    return;
  }
  wss.handleUpgrade(request, duplex, head, (client) => {
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
