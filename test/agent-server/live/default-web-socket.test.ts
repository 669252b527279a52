// Issue 34, items 1 and 2: which WebSocket a subscription uses when the app passes none (on Node proper the ws
// package, which bounds a frame by maxFrameBytes before reading it), what counts as the same failure again,
// and how each runtime names a frame it refused (docs/runtimes.md, "Bounds").
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocket as WsWebSocket } from 'ws';
import { frameTooLargeText } from '../../../src/agent-server/live/close-classifier.js';
import { defaultWebSocket, wsPackage } from '../../../src/agent-server/live/default-web-socket.js';
import {
  RepeatedFailure,
  SAME_FAILURES_BEFORE_FRAME_ERROR,
} from '../../../src/agent-server/live/repeated-failure.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('defaultWebSocket', () => {
  it("on Node, with the runtime's own WebSocket in place: the ws package", () => {
    expect(wsPackage()).toBe(WsWebSocket);
    expect(defaultWebSocket()).toBe(WsWebSocket);
  });

  it('a global WebSocket replaced (a stub, a subclass of the built-in): that one', () => {
    class Stub {}
    vi.stubGlobal('WebSocket', Stub);
    expect(defaultWebSocket()).toBe(Stub);
    vi.unstubAllGlobals();
    class Own extends globalThis.WebSocket {}
    vi.stubGlobal('WebSocket', Own);
    expect(defaultWebSocket()).toBe(Own);
  });

  it("a Proxy of Node's own (msw's interceptor): that one", () => {
    const intercepted = new Proxy(globalThis.WebSocket, {});
    vi.stubGlobal('WebSocket', intercepted);
    expect(defaultWebSocket()).toBe(intercepted);
  });

  it('no WebSocket at all on Node 22+ (removed by the app): none (subscribe() then names the option)', () => {
    vi.stubGlobal('WebSocket', undefined);
    expect(defaultWebSocket()).toBeUndefined();
  });
});

describe('frameTooLargeText', () => {
  it.each([
    ['ws (maxPayload)', 'Max payload size exceeded'],
    ['Node 22', 'Max decompressed message size exceeded'],
    ['Bun', "WebSocket connection to 'ws://127.0.0.1:1/x' failed: Message too big"],
    ['Deno', 'Frame too large'],
    [
      'workerd',
      'Uncaught Error: WebSocket protocol error; protocolError.statusCode = 1009; protocolError.description = Message is too large: 100663296 > 33554432',
    ],
  ])('%s: names the refusal', (_, message) => {
    expect(frameTooLargeText({ message })).toBe(message);
    expect(frameTooLargeText({ error: { message } })).toBe(message);
  });

  it('any other error (Deno "Unexpected EOF", the bare error of a browser or Node 24): not a frame refusal', () => {
    expect(frameTooLargeText({ message: 'Unexpected EOF' })).toBeUndefined();
    expect(frameTooLargeText({})).toBeUndefined();
    expect(frameTooLargeText(undefined)).toBeUndefined();
  });
});

describe('RepeatedFailure', () => {
  const abnormal = (delivered: number, code = 1006) => ({
    code,
    opened: true,
    deliveredAtStart: delivered,
    delivered,
  });

  it(`the ${SAME_FAILURES_BEFORE_FRAME_ERROR}rd abnormal close in a row at one position ends it (1006, and Deno's 0)`, () => {
    const failures = new RepeatedFailure();
    expect(failures.closed(abnormal(4))).toBe(false);
    expect(failures.closed(abnormal(4, 0))).toBe(false);
    expect(failures.closed(abnormal(4))).toBe(true);
  });

  it('a new event delivered, a handshake that failed, another close: the count starts again', () => {
    const failures = new RepeatedFailure();
    failures.closed(abnormal(4));
    failures.closed(abnormal(4));
    expect(failures.closed({ code: 1006, opened: true, deliveredAtStart: 4, delivered: 5 })).toBe(false);
    expect(failures.count).toBe(0);
    failures.closed(abnormal(5));
    failures.closed(abnormal(5));
    expect(failures.closed({ code: 1006, opened: false, deliveredAtStart: 5, delivered: 5 })).toBe(false);
    failures.closed(abnormal(5));
    failures.closed(abnormal(5));
    expect(failures.closed(abnormal(5, 1011))).toBe(false);
    failures.closed(abnormal(5));
    failures.closed(abnormal(5));
    failures.reset();
    expect(failures.closed(abnormal(5))).toBe(false);
  });
});
