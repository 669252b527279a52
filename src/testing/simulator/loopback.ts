import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { RequestHandler } from 'msw';
import type { WebSocket as WsSocket } from 'ws';
import { agentRunnerFor } from '../agent-server/handlers.js';
import type { SocketSimulationOptions } from '../agent-server/socket-session.js';
import { upgradeEventSocket } from '../agent-server/socket-upgrade.js';
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
        upgradeEventSocket(request, duplex, head, host, simulation, wss, sockets),
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
