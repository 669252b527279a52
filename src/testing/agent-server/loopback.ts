import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type LoopbackServer, serveHandlers } from '../serve-http.js';
import { type AgentServerHandlersOptions, agentRunnerFor, agentServerHandlers } from './handlers.js';
import type { SocketSimulationOptions } from './socket-session.js';
import { upgradeEventSocket } from './socket-upgrade.js';
import { AgentServerStore } from './store.js';

export interface ServeAgentServerOptions extends Omit<AgentServerHandlersOptions, 'baseUrl'> {
  port?: number;
  host?: string;
  maxSubscribersPerConversation?: number;
  authTimeoutMs?: number;
}

/** A simulated agent server on loopback: REST and the event socket on one port. */
export interface AgentServerLoopback {
  /** e.g. `http://127.0.0.1:41234` */
  readonly url: string;
  readonly port: number;
  readonly store: AgentServerStore;
  /** Event sockets open right now. */
  connections(): number;
  /** Every event-socket connection accepted so far (reconnects included). */
  acceptedConnections(): number;
  /** Every websocket handshake asked for so far, refused ones included. */
  upgradeRequests(): number;
  /**
   * The server process dies: every connection is dropped without a close frame (clients see 1006) and the
   * port stops answering. The store (the conversation's persisted log) survives.
   */
  kill(): Promise<void>;
  /** Listens again on the same port, with the same store. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves the msw agent-server handlers and a `ws` event socket on a real loopback port (Node only; `ws` is
 * loaded on first use). For tests of reconnects, server restarts and network behaviour that an in-process
 * mock cannot show.
 */
export async function serveAgentServer(options: ServeAgentServerOptions = {}): Promise<AgentServerLoopback> {
  const { WebSocketServer } = await import('ws');
  const store = options.store ?? new AgentServerStore();
  const host = options.host ?? '127.0.0.1';
  const handlers = agentServerHandlers({ ...options, store });
  const simulation: SocketSimulationOptions = {
    store,
    runner: agentRunnerFor(store, options.agent),
    sessionApiKey: options.sessionApiKey,
    version: options.version,
    maxSubscribersPerConversation: options.maxSubscribersPerConversation,
    authTimeoutMs: options.authTimeoutMs,
  };
  const wss = new WebSocketServer({ noServer: true, clientTracking: false });
  const open = new Set<import('ws').WebSocket>();
  let accepted = 0;
  let upgrades = 0;

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    upgrades += 1;
    upgradeEventSocket(request, socket, head, host, simulation, wss, open, () => {
      accepted += 1;
    });
  };

  const listen = async (port: number | undefined): Promise<LoopbackServer> => {
    const server = await serveHandlers(handlers, { host, ...(port === undefined ? {} : { port }) });
    server.server.on('upgrade', onUpgrade);
    return server;
  };

  let current: LoopbackServer | undefined = await listen(options.port);
  const port = current.port;

  const kill = async () => {
    for (const client of open) client.terminate();
    open.clear();
    const server = current;
    current = undefined;
    await server?.close();
  };

  return {
    url: `http://${host}:${port}`,
    port,
    store,
    connections: () => open.size,
    acceptedConnections: () => accepted,
    upgradeRequests: () => upgrades,
    kill,
    restart: async () => {
      if (current) return;
      current = await listen(port);
    },
    close: async () => {
      await kill();
      agentRunnerFor(store).dispose();
      wss.close();
    },
  };
}
