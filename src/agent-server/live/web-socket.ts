/**
 * The part of the WHATWG `WebSocket` the subscriber uses. The built-in one (browsers, Node 22+), the `ws`
 * package's and msw's interceptor all fit.
 */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: string, listener: (event: never) => void): void;
}

/**
 * A `WebSocket` constructor. Called as `new WebSocket(url)`, or `new WebSocket(url, { headers })` for header
 * authentication, which Node's built-in WebSocket (undici) and the `ws` package accept.
 */
export type WebSocketConstructor = new (url: string, ...rest: never[]) => WebSocketLike;

export interface MessageEventLike {
  data: unknown;
}
export interface CloseEventLike {
  code: number;
  reason: string;
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

/** Node's (and Bun's) WebSocket accept `{ headers }`; browsers' do not. */
export function runtimeSendsHeaders(): boolean {
  const versions = (globalThis as { process?: { versions?: Record<string, string> } }).process?.versions;
  return typeof versions?.node === 'string' && !('document' in globalThis);
}
