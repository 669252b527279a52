/**
 * Issue 33, item 1: whether the socket can carry `X-Session-API-Key` is decided by what the WebSocket
 * constructor is, not by `process.versions.node`: workerd with `nodejs_compat` has that and no `document`, and
 * its WebSocket reads a second argument as subprotocols ("The protocol header token is invalid").
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocket as WsWebSocket } from 'ws';
import { EventsClient } from '../../../src/agent-server/index.js';
import { webSocketSendsHeaders } from '../../../src/agent-server/live/web-socket.js';
import { type AgentServerLoopback, serveAgentServer } from '../../../src/testing.js';

const NodeWebSocket = globalThis.WebSocket;

/** Node's WebSocket with the WHATWG signature only, as in workerd and browsers: no options object. */
class WhatwgOnlyWebSocket extends NodeWebSocket {
  constructor(url: string, protocols?: unknown) {
    if (protocols !== undefined && typeof protocols !== 'string' && !Array.isArray(protocols)) {
      throw new SyntaxError('WebSocket Constructor: The protocol header token is invalid.');
    }
    super(url, protocols as string | string[] | undefined);
  }
}

const servers: AgentServerLoopback[] = [];
afterEach(async () => {
  vi.unstubAllGlobals();
  for (const server of servers.splice(0)) await server.close();
});

/** A server with header auth and no first-message auth (1.12.0 to 1.18.0), secured by a key. */
async function headerEraServer(): Promise<{ server: AgentServerLoopback; id: string }> {
  const server = await serveAgentServer({ version: '1.15.0', sessionApiKey: 'the-key' });
  servers.push(server);
  return { server, id: server.store.addConversation().id };
}

describe('webSocketSendsHeaders', () => {
  it('the ws package and its subclasses: yes', () => {
    class Pausable extends WsWebSocket {}
    expect(webSocketSendsHeaders(WsWebSocket)).toBe(true);
    expect(webSocketSendsHeaders(Pausable)).toBe(true);
  });

  it("Node's own WebSocket: yes; the same constructor where the runtime is Workers: no", () => {
    expect(webSocketSendsHeaders(NodeWebSocket)).toBe(true);
    vi.stubGlobal('navigator', { userAgent: 'Cloudflare-Workers' });
    expect(typeof process.versions.node).toBe('string');
    expect(webSocketSendsHeaders(NodeWebSocket)).toBe(false);
  });

  it('a browser (a document, a browser user agent): no', () => {
    vi.stubGlobal('navigator', { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0.0.0' });
    vi.stubGlobal('document', {});
    expect(webSocketSendsHeaders(NodeWebSocket)).toBe(false);
  });

  it('any other constructor passed in: no (force auth: header to say otherwise)', () => {
    expect(webSocketSendsHeaders(WhatwgOnlyWebSocket)).toBe(false);
    expect(webSocketSendsHeaders(undefined)).toBe(false);
  });
});

describe('subscribe() on a 1.15.0 server (header auth exists, first-message does not)', () => {
  it('workerd with nodejs_compat (process.versions.node, no document): connects with query auth', async () => {
    const { server, id } = await headerEraServer();
    vi.stubGlobal('navigator', { userAgent: 'Cloudflare-Workers' });
    vi.stubGlobal('WebSocket', WhatwgOnlyWebSocket);
    const events = new EventsClient({ baseUrl: server.url, sessionApiKey: 'the-key', logLevel: 'off' });
    const sub = events.subscribe(id, { connectTimeout: 5_000 });
    try {
      await expect(sub.ready).resolves.toBeDefined();
    } finally {
      sub.close();
    }
  }, 10_000);

  it('a WHATWG-only constructor passed as the WebSocket option in Node: no options object, query auth', async () => {
    const { server, id } = await headerEraServer();
    const events = new EventsClient({ baseUrl: server.url, sessionApiKey: 'the-key', logLevel: 'off' });
    const sub = events.subscribe(id, { WebSocket: WhatwgOnlyWebSocket, connectTimeout: 5_000 });
    try {
      await expect(sub.ready).resolves.toBeDefined();
    } finally {
      sub.close();
    }
  }, 10_000);

  it('the ws package passed in: header auth, the key never in the URL', async () => {
    const { server, id } = await headerEraServer();
    const urls: string[] = [];
    class RecordingWs extends WsWebSocket {
      constructor(url: string, options?: ConstructorParameters<typeof WsWebSocket>[1]) {
        urls.push(url);
        super(url, options);
      }
    }
    const events = new EventsClient({ baseUrl: server.url, sessionApiKey: 'the-key', logLevel: 'off' });
    const sub = events.subscribe(id, { WebSocket: RecordingWs, connectTimeout: 5_000 });
    try {
      await sub.ready;
      expect(urls.length).toBeGreaterThan(0);
      expect(urls.some((url) => url.includes('the-key'))).toBe(false);
    } finally {
      sub.close();
    }
  }, 10_000);
});
