import type { WebSocketConstructor } from './web-socket.js';

/**
 * The WebSocket a subscription uses when the app passes none (docs/runtimes.md, "Bounds").
 *
 * On Node proper it is the `ws` package (a dependency), which `openSocket` gives `maxPayload` = `maxFrameBytes`:
 * it refuses a frame by the length in its header, and a permessage-deflate frame once it inflates past the
 * limit. Node's own WebSocket (undici) reads a frame whole before anyone can measure it: a 96 MiB frame cost
 * +302 MiB RSS, a 0.19 MiB deflate bomb of 200 MiB +142 MiB and only a bare `error` (bench/hostile-frames.ts).
 *
 * Everywhere else, and on Node when the app or a test replaced or removed `globalThis.WebSocket` (msw's
 * interceptor, a stub), it is `globalThis.WebSocket`, as before: `ws` is not loaded on Bun, Deno or workerd
 * (Bun's `ws` is a shim of its own); what each runtime's WebSocket bounds is in docs/runtimes.md.
 */
export function defaultWebSocket(): WebSocketConstructor | undefined {
  const current = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (nodeRequire() === undefined) return current;
  // None at all: Node 20 has none of its own; on Node 22+ the app or a test removed it.
  if (current === undefined ? nodeMajor() >= 22 : !isNodeOwn(current)) return current;
  return wsPackage() ?? current;
}

interface NodeProcess {
  versions?: { node?: unknown; bun?: unknown };
  getBuiltinModule?: (id: string) => unknown;
}

const nodeProcess = (globalThis as { process?: NodeProcess }).process;

const nodeMajor = () => Number.parseInt(String(nodeProcess?.versions?.node), 10);

/**
 * Node proper: `process.versions.node`, and a `navigator.userAgent` (Node 21+) that says Node. Bun and Deno
 * have `process.versions.node` too, and workerd with `nodejs_compat` as well (its agent is
 * "Cloudflare-Workers").
 */
function nodeProper(): boolean {
  if (typeof nodeProcess?.versions?.node !== 'string' || nodeProcess.versions.bun !== undefined) return false;
  if ((globalThis as { Deno?: unknown }).Deno !== undefined) return false;
  const agent = (globalThis as { navigator?: { userAgent?: unknown } }).navigator?.userAgent;
  return agent === undefined || (typeof agent === 'string' && agent.startsWith('Node.js/'));
}

type Require = (id: string) => unknown;
let required: Require | null | undefined;

/**
 * A `require` that resolves from this module (the SDK's own `node_modules`), on Node proper only, made on first
 * need. `process.getBuiltinModule` (Node 20.16+, 22.3+) gets it synchronously, without an `import` a bundler
 * would follow into browser builds.
 */
function nodeRequire(): Require | undefined {
  if (required === undefined) {
    required = null;
    if (nodeProper() && typeof nodeProcess?.getBuiltinModule === 'function') {
      const module = nodeProcess.getBuiltinModule('node:module') as
        | { createRequire?: (from: string) => Require }
        | undefined;
      // The CommonJS build has `__filename` (and a shimmed `import.meta.url`); the ESM builds `import.meta`.
      const from = typeof __filename === 'string' ? __filename : import.meta.url;
      try {
        required = module?.createRequire?.(from) ?? null;
      } catch {
        required = null;
      }
    }
  }
  return required ?? undefined;
}

/**
 * Whether `globalThis.WebSocket` is Node's own (undici's class, `class _WebSocket extends EventTarget` on Node
 * 22 and 24), told by its source text: nothing of it can be kept from load time, since even reading the global's
 * descriptor makes Node load undici's WebSocket (+37 ms on every import: bench/import.ts). A stub, a subclass
 * (`class X extends WebSocket`) or msw's interceptor (a Proxy, whose source text is `[native code]`) is the
 * app's, and used as it is.
 */
function isNodeOwn(value: unknown): boolean {
  if (typeof value !== 'function') return false;
  const util = nodeProcess?.getBuiltinModule?.('node:util') as
    | { types?: { isProxy?: (value: unknown) => boolean } }
    | undefined;
  if (util?.types?.isProxy?.(value) === true) return false;
  return /^class _?WebSocket extends EventTarget\b/.test(Function.prototype.toString.call(value));
}

/** A name, not a literal: bundlers then leave `ws` out of every build (scripts/check-size.mjs). */
const WS_PACKAGE = 'ws';
let loaded: WebSocketConstructor | null | undefined;

/** The `ws` package's class, loaded on first need; `undefined` when it cannot be loaded (a bundled app). */
export function wsPackage(): WebSocketConstructor | undefined {
  if (loaded === undefined) {
    loaded = null;
    try {
      const exported = nodeRequire()?.(WS_PACKAGE) as { WebSocket?: unknown } | undefined;
      const WebSocket = exported?.WebSocket ?? exported;
      if (typeof WebSocket === 'function') loaded = WebSocket as WebSocketConstructor;
    } catch {
      // Not installed next to the SDK (an app bundled into one file, say): the runtime's own is used.
    }
  }
  return loaded ?? undefined;
}
