import type { WebSocketConstructor } from '../agent-server/index.js';

/** A name, not a literal, so that the bundler leaves the optional peer out and `--help` never loads it. */
const WS_PACKAGE = 'ws';

/** `agent-platform follow` on a Node without a built-in WebSocket and without the `ws` package. */
export class NoWebSocketError extends Error {
  override readonly name = 'NoWebSocketError';
}

/**
 * The WebSocket `follow` subscribes with: `undefined` where the runtime has its own (the subscriber uses it),
 * else the `ws` package when it is installed (Node 20). A shell cannot pass a constructor, so without either
 * the error says what to install (docs/runtimes.md).
 */
export async function cliWebSocket(
  runtime: { WebSocket?: unknown } = globalThis,
  load: () => Promise<unknown> = () => import(WS_PACKAGE),
): Promise<WebSocketConstructor | undefined> {
  if (typeof runtime.WebSocket === 'function') return undefined;
  let loaded: unknown;
  try {
    loaded = await load();
  } catch {
    loaded = undefined;
  }
  const module = loaded as { default?: unknown; WebSocket?: unknown } | undefined;
  const WebSocket = module?.WebSocket ?? module?.default;
  if (typeof WebSocket === 'function') return WebSocket as WebSocketConstructor;
  const node = (globalThis as { process?: { version?: string } }).process?.version ?? 'this runtime';
  throw new NoWebSocketError(
    `follow needs a WebSocket, and Node ${node} has none built in: use Node 22 or newer, or install the ws package (npm i ws) next to agent-platform-sdk`,
  );
}
