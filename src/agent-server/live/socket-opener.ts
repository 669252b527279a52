import { redactText } from '../../core/redact.js';
import { SubscriptionError } from '../errors.js';
import type { ResolvedAuth } from './socket-auth.js';
import { isWsPackage, type WebSocketConstructor, type WebSocketLike } from './web-socket.js';

/**
 * Creates the socket. Header auth passes `{ headers }` (resolveAuth picks it only for a constructor that takes
 * it, or when the app forced `auth: 'header'`). The `ws` package also gets `maxPayload`, so a frame is bounded
 * before it is inflated: a deflate bomb never reaches memory (docs/events-and-streaming.md, "Bounds"). Any
 * other constructor gets no second argument: a WHATWG WebSocket reads it as subprotocols, and an object there
 * is "an invalid protocol token".
 */
export function openSocket(
  WebSocketImpl: WebSocketConstructor,
  url: string,
  options: { auth: ResolvedAuth; key: string | undefined; maxFrameBytes: number },
  secrets: () => readonly string[],
): WebSocketLike {
  const construct = WebSocketImpl as unknown as new (url: string, options?: unknown) => WebSocketLike;
  const headers =
    options.auth === 'header' && options.key !== undefined ? { 'X-Session-API-Key': options.key } : undefined;
  try {
    if (isWsPackage(WebSocketImpl)) {
      const maxPayload = Number.isFinite(options.maxFrameBytes) ? options.maxFrameBytes : 0;
      return new construct(url, { ...(headers ? { headers } : {}), maxPayload });
    }
    return headers ? new construct(url, { headers }) : new construct(url);
  } catch (error) {
    // The message may quote the URL, which carries the key in `query` mode.
    const detail = redactText(error instanceof Error ? error.message : String(error), secrets());
    throw new SubscriptionError(`Could not create the WebSocket: ${detail}`);
  }
}
