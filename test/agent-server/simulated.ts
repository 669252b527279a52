import { observeSocketConnections } from '../../src/testing/agent-server/socket-handlers.js';
import { AgentServerStore, agentServerHandlers, agentServerSocketHandlers } from '../../src/testing.js';

/** What the mock server saw of one websocket connection. */
export interface SeenConnection {
  url: URL;
  headers: Record<string, string>;
  /** Frames the client sent. */
  frames: string[];
  closed: boolean;
  /** Server-side handle: send a raw frame or close with a code. */
  client: { send(data: string): void; close(code?: number, reason?: string): void };
}

/**
 * A simulated agent server of one version on its own host (msw ws handlers of one host do not see another
 * host's connections), plus a recorder of every socket connection.
 */
export function simulatedServer(
  host: string,
  options: {
    version: string;
    sessionApiKey?: string;
    maxSubscribersPerConversation?: number;
    authTimeoutMs?: number;
  },
) {
  const store = new AgentServerStore();
  const baseUrl = `http://${host}`;
  const connections: SeenConnection[] = [];
  // Seen from the double's own handler, before the double answers (observeSocketConnections).
  observeSocketConnections(baseUrl, ({ client, info, params }) => {
    if (params.socket !== 'events') return;
    const protocols = info.protocols as unknown as { headers?: Record<string, string> } | undefined;
    const seen: SeenConnection = {
      url: client.url,
      headers: protocols?.headers ?? {},
      frames: [],
      closed: false,
      client,
    };
    connections.push(seen);
    client.addEventListener('message', (event) => seen.frames.push(String(event.data)));
    client.addEventListener('close', () => {
      seen.closed = true;
    });
  });
  // The REST API alone, for a test that puts sockets of its own beside it.
  const restHandlers = agentServerHandlers({
    baseUrl,
    store,
    version: options.version,
    sessionApiKey: options.sessionApiKey,
    agent: { stepDelayMs: 1 },
  });
  const handlers = [...restHandlers, ...agentServerSocketHandlers({ baseUrl, store, ...options })];
  return { baseUrl, store, connections, handlers, restHandlers };
}

/** Waits until a condition holds: the shared helper (test/helpers/wait-for.ts). */
export { waitFor as until } from '../helpers/wait-for.js';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The text of a MessageEvent, else its kind. */
export function label(event: { kind: unknown; llm_message?: unknown }): string {
  const content = (event.llm_message as { content?: { text?: string }[] } | undefined)?.content;
  return content?.[0]?.text ?? String(event.kind);
}
