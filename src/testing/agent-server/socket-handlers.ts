import { ws } from 'msw/ws';
import { agentRunnerFor } from './handlers.js';
import { decideHandshake, EventSocketSession, type SocketSimulationOptions } from './socket-session.js';
import { AgentServerStore } from './store.js';
import { versionAtLeast } from './versions.js';

export interface AgentServerSocketHandlersOptions extends Partial<Omit<SocketSimulationOptions, 'runner'>> {
  /** `{base_url}` of the agent server (`http://…` or `ws://…`), e.g. `http://localhost:8000`. */
  baseUrl: string;
}

/**
 * msw `ws` handlers for `/sockets/events/{conversation_id}` and (servers ≥ 1.45.0) `/sockets/session/{…}`, speaking the protocol of the chosen server
 * version (see `EventSocketSession`). Pair it with `agentServerHandlers` on the same store. A refused
 * handshake is simulated the way a browser sees one: close 1006 without `open`.
 */
export function agentServerSocketHandlers(options: AgentServerSocketHandlersOptions) {
  const store = options.store ?? new AgentServerStore();
  const simulation: SocketSimulationOptions = { ...options, store, runner: agentRunnerFor(store) };
  const base = options.baseUrl.replace(/\/+$/, '').replace(/^http/, 'ws');
  const onConnection: Parameters<ReturnType<typeof ws.link>['addEventListener']>[1] = ({ client, info }) => {
    // msw hands over the constructor's second argument as `protocols`: `{ headers }` for header auth.
    const protocols = info.protocols as unknown as { headers?: Record<string, string> } | undefined;
    const headers = protocols?.headers ?? {};
    const headerKey = Object.entries(headers).find(
      ([name]) => name.toLowerCase() === 'x-session-api-key',
    )?.[1];
    if (decideHandshake(client.url, headerKey, simulation) === 'refuse') {
      client.close(1006, '');
      return;
    }
    const session = new EventSocketSession(
      { send: (text) => client.send(text), close: (code, reason) => client.close(code, reason) },
      client.url,
      headerKey,
      simulation,
    );
    client.addEventListener('message', (event) => session.onMessage(String(event.data)));
    client.addEventListener('close', () => session.onClose());
    session.start();
  };
  const links = [ws.link(`${base}/sockets/events/:conversationId`)];
  // The session socket exists from 1.45.0 (a handshake elsewhere finds no handler, as a 404 would).
  if (versionAtLeast(simulation.version, [1, 45, 0]))
    links.push(ws.link(`${base}/sockets/session/:conversationId`));
  return links.map((link) => link.addEventListener('connection', onConnection));
}
