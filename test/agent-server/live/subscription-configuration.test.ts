import { afterEach, describe, expect, it } from 'vitest';
import {
  EventsClient,
  isSubscriptionConfigurationError,
  isSubscriptionError,
} from '../../../src/agent-server/index.js';

// Node 20 has no built-in WebSocket: subscribe() must say so itself, before the app sends its first message
// (issue 26, item 2).
const ID = '6f1c2a4e-3b5d-4e7f-8a9b-0c1d2e3f4a5b';
const builtIn = globalThis.WebSocket;

afterEach(() => {
  globalThis.WebSocket = builtIn;
});

describe('subscribe() without a WebSocket', () => {
  it('throws SubscriptionConfigurationError at subscribe(), naming the WebSocket option and the ws package', () => {
    // As on Node 20: no global WebSocket.
    delete (globalThis as { WebSocket?: unknown }).WebSocket;
    let requests = 0;
    const client = new EventsClient({
      baseUrl: 'http://127.0.0.1:9',
      fetch: async () => {
        requests += 1;
        return new Response('{}');
      },
    });
    let thrown: unknown;
    try {
      client.subscribe(ID);
    } catch (error) {
      thrown = error;
    }
    expect(isSubscriptionConfigurationError(thrown)).toBe(true);
    expect(isSubscriptionError(thrown)).toBe(true);
    expect((thrown as Error).message).toContain('WebSocket option');
    expect((thrown as Error).message).toContain('ws package');
    expect(requests).toBe(0);
  });

  it('works with a constructor passed as the WebSocket option', () => {
    delete (globalThis as { WebSocket?: unknown }).WebSocket;
    const client = new EventsClient({ baseUrl: 'http://127.0.0.1:9', logLevel: 'off' });
    const sub = client.subscribe(ID, { WebSocket: builtIn });
    expect(sub.closed).toBe(false);
    sub.close();
  });
});
