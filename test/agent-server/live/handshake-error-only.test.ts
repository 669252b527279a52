/**
 * Node 22's built-in WebSocket (22.23) reports a failed handshake (refused, 404) with `error` and no `close`, and
 * stays CONNECTING: a subscriber that waits for `close` hangs until its ready timeout (30 s by default). Found
 * by the runtime smoke suite (scripts/test-runtimes.mjs); here that WebSocket is imitated over Node 24's, whose
 * `close` it swallows after an error, and every case must end with its typed error well before that timeout.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { EventsClient, isSubscriptionEndpointNotFoundError } from '../../../src/agent-server/index.js';
import { type AgentServerLoopback, serveAgentServer } from '../../../src/testing.js';

const NodeWebSocket = globalThis.WebSocket;

const failed = new WeakSet<WebSocket>();

/** Node 22's behaviour: after `error`, no `close`, and readyState stays CONNECTING. */
class ErrorOnlyWebSocket extends NodeWebSocket {
  constructor(url: string, protocols?: string | string[]) {
    super(url, protocols);
    super.addEventListener('error', () => failed.add(this));
    const readyState = Object.getOwnPropertyDescriptor(NodeWebSocket.prototype, 'readyState')?.get;
    Object.defineProperty(this, 'readyState', {
      get: () => (failed.has(this) ? NodeWebSocket.CONNECTING : readyState?.call(this)),
    });
  }
  override addEventListener<K extends keyof WebSocketEventMap>(
    type: K,
    listener: (this: WebSocket, event: WebSocketEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void {
    super.addEventListener(
      type,
      function (this: WebSocket, event: WebSocketEventMap[K]) {
        if (type === 'close' && failed.has(this)) return;
        listener.call(this, event);
      },
      options,
    );
  }
}

const servers: AgentServerLoopback[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

describe('a WebSocket that sends error and never close for a failed handshake', () => {
  it('a socket path the server lacks (404): SubscriptionEndpointNotFoundError, not a wait for the ready timeout', async () => {
    const server = await serveAgentServer({ version: '1.15.0' });
    servers.push(server);
    const id = server.store.addConversation().id;
    const events = new EventsClient({ baseUrl: server.url, logLevel: 'off' });
    const sub = events.subscribe(id, { protocol: 'session', WebSocket: ErrorOnlyWebSocket });
    const error = await sub.ready.catch((e: unknown) => e);
    expect(isSubscriptionEndpointNotFoundError(error)).toBe(true);
  }, 10_000);
});
