import type { WebSocketConstructor } from './web-socket.js';

/**
 * The WebSocket a subscription uses when the app passes none (docs/runtimes.md, "Bounds").
 *
 * On Node proper it is the `ws` package (a dependency), which `openSocket` gives `maxPayload` = `maxFrameBytes`:
 * it refuses a frame by the length in its header, and a permessage-deflate frame once it inflates past the
 * limit. Node's own WebSocket (undici) reads a frame whole before anyone can measure it: a 96 MiB frame cost
 * +302 MiB RSS, a 0.19 MiB deflate bomb of 200 MiB +142 MiB and only a bare `error` (bench/hostile-frames.ts).
 *
 * Everywhere else, and on Node when the app or a test replaced `globalThis.WebSocket` (msw's interceptor, a
 * stub), it is `globalThis.WebSocket`, as before. Bun's and Deno's `ws` are their own shims over the
 * built-in, workerd and browsers have none; their own limits are in docs/runtimes.md.
 */
export function defaultWebSocket(): WebSocketConstructor | undefined {
  const current = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (current !== RUNTIME_OWN || nodeRequire === undefined || isProxy(current)) return current;
  return wsPackage() ?? current;
}

interface NodeProcess {
  versions?: { node?: unknown; bun?: unknown };
  getBuiltinModule?: (id: string) => unknown;
}

const nodeProcess = (globalThis as { process?: NodeProcess }).process;

/**
 * Node proper: `process.versions.node`, and a `navigator.userAgent` (Node 21+) that says Node. Bun and Deno
 * have `process.versions.node` too, and workerd with `nodejs_compat` as well (its agent is
 * "Cloudflare-Workers"). `process.getBuiltinModule` (Node 20.16+, 22.3+) loads `ws` synchronously, without
 * an `import` a bundler would follow into browser builds.
 */
function nodeProper(): boolean {
  if (typeof nodeProcess?.versions?.node !== 'string' || nodeProcess.versions.bun !== undefined) return false;
  if ((globalThis as { Deno?: unknown }).Deno !== undefined) return false;
  const agent = (globalThis as { navigator?: { userAgent?: unknown } }).navigator?.userAgent;
  return agent === undefined || (typeof agent === 'string' && agent.startsWith('Node.js/'));
}

type Require = (id: string) => unknown;

/** A `require` that resolves from this module (the SDK's own `node_modules`), on Node proper only. */
const nodeRequire: Require | undefined = (() => {
  if (!nodeProper() || typeof nodeProcess?.getBuiltinModule !== 'function') return undefined;
  const module = nodeProcess.getBuiltinModule('node:module') as
    | { createRequire?: (from: string) => Require }
    | undefined;
  // The CommonJS build has `__filename` and no `import.meta`; the ESM builds the reverse.
  const from = typeof __filename === 'string' ? __filename : import.meta.url;
  try {
    return module?.createRequire?.(from);
  } catch {
    return undefined;
  }
})();

/**
 * The runtime's own `globalThis.WebSocket` as it was when the SDK was loaded (read once, no side effect: on
 * Node 22 and 24 it is a plain value). Test interceptors are installed later and replace it.
 */
const RUNTIME_OWN = nodeRequire === undefined ? undefined : (globalThis as { WebSocket?: unknown }).WebSocket;

/** msw's interceptor wraps the built-in in a Proxy; one installed before the SDK loaded is not Node's own. */
function isProxy(value: unknown): boolean {
  const util = nodeProcess?.getBuiltinModule?.('node:util') as
    | { types?: { isProxy?: (value: unknown) => boolean } }
    | undefined;
  return value !== undefined && util?.types?.isProxy?.(value) === true;
}

/** A name, not a literal: bundlers then leave `ws` out of every build (scripts/check-size.mjs). */
const WS_PACKAGE = 'ws';
let loaded: WebSocketConstructor | null | undefined;

/** The `ws` package's class, loaded on first need; `undefined` when it cannot be loaded (a bundled app). */
export function wsPackage(): WebSocketConstructor | undefined {
  if (loaded === undefined) {
    loaded = null;
    try {
      const exported = nodeRequire?.(WS_PACKAGE) as { WebSocket?: unknown } | undefined;
      const WebSocket = exported?.WebSocket ?? exported;
      if (typeof WebSocket === 'function') loaded = WebSocket as WebSocketConstructor;
    } catch {
      // Not installed next to the SDK (an app bundled into one file, say): the runtime's own is used.
    }
  }
  return loaded ?? undefined;
}
