// Issue 33, item 3: the `ws` package, as the docs say to pass it, is a `WebSocketConstructor` without a cast
// (`npm run typecheck` compiles this file with @types/ws; the assertions below run too).
import { describe, expect, expectTypeOf, it } from 'vitest';
import WebSocket, { WebSocket as NamedWebSocket } from 'ws';
import {
  EventsClient,
  type SubscribeOptions,
  type WebSocketConstructor,
} from '../../../src/agent-server/index.js';

describe('the WebSocket option', () => {
  it('takes the ws package (default and named export) and a subclass, uncast', () => {
    class Pausable extends WebSocket {}
    expectTypeOf(WebSocket).toExtend<WebSocketConstructor>();
    expectTypeOf(NamedWebSocket).toExtend<WebSocketConstructor>();
    expectTypeOf(Pausable).toExtend<WebSocketConstructor>();
    expectTypeOf(globalThis.WebSocket).toExtend<WebSocketConstructor>();
    const options: SubscribeOptions = { WebSocket };
    const events = new EventsClient({ baseUrl: 'http://127.0.0.1:9', logLevel: 'off' });
    const sub = events.subscribe('6f1c2a4e-3b5d-4e7f-8a9b-0c1d2e3f4a5b', { WebSocket, connectTimeout: 1 });
    sub.close();
    expect(options.WebSocket).toBe(WebSocket);
  });

  it('refuses what is not a WebSocket constructor', () => {
    expectTypeOf<typeof Date>().not.toExtend<WebSocketConstructor>();
    expectTypeOf<new (url: string) => { send(data: string): void }>().not.toExtend<WebSocketConstructor>();
  });
});
