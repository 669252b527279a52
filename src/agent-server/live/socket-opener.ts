import { redactText } from '../../core/redact.js';
import { SubscriptionError } from '../errors.js';
import type { ResolvedAuth } from './socket-auth.js';
import type { WebSocketConstructor, WebSocketLike } from './web-socket.js';

/**
 * Creates the socket. Header auth passes `{ headers }` (Node's built-in WebSocket and `ws` take it). A
 * constructor passed as the `WebSocket` option (typically `ws`) also gets `maxPayload`, so a frame is bounded
 * before it is inflated: a deflate bomb never reaches memory (docs/events-and-streaming.md, "Bounds").
 */
export function openSocket(
  WebSocketImpl: WebSocketConstructor,
  url: string,
  options: { auth: ResolvedAuth; key: string | undefined; passedIn: boolean; maxFrameBytes: number },
  secrets: () => readonly string[],
): WebSocketLike {
  const construct = WebSocketImpl as unknown as new (url: string, options?: unknown) => WebSocketLike;
  const headers =
    options.auth === 'header' && options.key !== undefined ? { 'X-Session-API-Key': options.key } : undefined;
  try {
    if (options.passedIn) {
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
