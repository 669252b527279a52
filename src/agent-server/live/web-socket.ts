/**
 * The part of the WHATWG `WebSocket` the subscriber uses. The built-in one (browsers, Node 22+, Bun, Deno,
 * Workers), the `ws` package's and msw's interceptor all fit. One overload per event it listens to: the
 * DOM's and `ws`'s typings both fit those, where a single `(type: string, listener)` signature fits neither
 * under `strictFunctionTypes` (test/agent-server/live/ws-option-types.test.ts).
 */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: MessageEventLike) => void): void;
  addEventListener(type: 'close', listener: (event: CloseEventLike) => void): void;
  addEventListener(type: 'error', listener: (event: ErrorEventLike) => void): void;
}

/**
 * A `WebSocket` constructor. Called as `new WebSocket(url)`, or `new WebSocket(url, { headers })` for header
 * authentication, which Node's, Bun's and Deno's built-in WebSocket and the `ws` package accept.
 */
export type WebSocketConstructor = new (url: string, ...rest: never[]) => WebSocketLike;

export interface MessageEventLike {
  data: unknown;
}
export interface CloseEventLike {
  code: number;
  reason: string;
}
/** `ws` reports `message` (and `error`); the DOM's `error` event has neither. */
export interface ErrorEventLike {
  message?: unknown;
  error?: { message?: unknown };
}

export const WS_CONNECTING = 0;
export const WS_OPEN = 1;

const decoder = new TextDecoder();

/** A frame's text: a string, or bytes (some implementations hand text frames over as buffers). */
export function frameText(data: unknown): string | undefined {
  if (typeof data === 'string') return data;
  if (data instanceof ArrayBuffer) return decoder.decode(data);
  if (ArrayBuffer.isView(data)) return decoder.decode(data);
  return undefined;
}

/** The runtime's own `WebSocket`, looked up at connect time (so test interceptors installed later apply). */
export function builtInWebSocket(): WebSocketConstructor | undefined {
  return (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
}

/**
 * The `ws` package's class (or a subclass): it alone has `ping`, `pong` and `terminate`. It takes
 * `{ headers, maxPayload }` as its second argument.
 */
export function isWsPackage(WebSocketImpl: WebSocketConstructor): boolean {
  const proto = (WebSocketImpl as { prototype?: Record<string, unknown> }).prototype;
  return (
    typeof proto?.ping === 'function' &&
    typeof proto.pong === 'function' &&
    typeof proto.terminate === 'function'
  );
}

/** Runtimes whose own `WebSocket` takes `new WebSocket(url, { headers })` (measured in docs/runtimes.md). */
const HEADER_RUNTIMES = ['Node.js/', 'Bun/', 'Deno/'];

/**
 * Whether this constructor can send handshake headers, decided by what it is: the `ws` package's, or the
 * runtime's own in Node (undici), Bun or Deno. Workers' and browsers' cannot, and workerd with
 * `nodejs_compat` has `process.versions.node` too, so the runtime is read from `navigator.userAgent`
 * ("Cloudflare-Workers" there). Any other constructor passed in is assumed not to (force `auth: 'header'`
 * to say otherwise).
 */
export function webSocketSendsHeaders(WebSocketImpl: WebSocketConstructor | undefined): boolean {
  if (WebSocketImpl === undefined) return false;
  if (isWsPackage(WebSocketImpl)) return true;
  if (WebSocketImpl !== builtInWebSocket()) return false;
  const agent = (globalThis as { navigator?: { userAgent?: unknown } }).navigator?.userAgent;
  return typeof agent === 'string' && HEADER_RUNTIMES.some((prefix) => agent.startsWith(prefix));
}
