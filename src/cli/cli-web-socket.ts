import type { WebSocketConstructor } from '../agent-server/index.js';
import { wsPackage } from '../agent-server/live/default-web-socket.js';

/** `agent-platform follow` on a Node without a built-in WebSocket and without the `ws` package. */
export class NoWebSocketError extends Error {
  override readonly name = 'NoWebSocketError';
}

/**
 * The WebSocket `follow` subscribes with: the `ws` package (a dependency of the SDK; loaded only when a command
 * subscribes), which bounds a frame by `maxFrameBytes` before reading it and sends headers on every Node
 * (docs/runtimes.md, "Bounds"). Where it cannot be loaded, `undefined`: the runtime's own. A shell cannot pass
 * a constructor, so without either the error says what to install.
 */
export function cliWebSocket(
  runtime: { WebSocket?: unknown } = globalThis,
  load: () => WebSocketConstructor | undefined = wsPackage,
): WebSocketConstructor | undefined {
  const ws = load();
  if (ws !== undefined) return ws;
  if (typeof runtime.WebSocket === 'function') return undefined;
  const node = (globalThis as { process?: { version?: string } }).process?.version ?? 'this runtime';
  throw new NoWebSocketError(
    `follow needs a WebSocket, and Node ${node} has none built in and the ws package could not be loaded: use Node 22 or newer, or install the ws package (npm i ws) next to agent-platform-sdk`,
  );
}
