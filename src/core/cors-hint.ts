import type { ConnectionFailureReason } from './connection-failure.js';

/**
 * The page's origin where the SDK runs in a browser (a page or a web worker), else undefined. Deno throws on
 * `location` without `--location`; Node, Bun and Workers have none.
 */
export function pageOrigin(): string | undefined {
  try {
    const scope = globalThis as { location?: { origin?: unknown }; document?: unknown };
    const browserLike = 'document' in scope || 'WorkerGlobalScope' in scope;
    const origin = scope.location?.origin;
    return browserLike && typeof origin === 'string' && origin !== 'null' ? origin : undefined;
  } catch {
    return undefined;
  }
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * A browser reports a cross-origin request its CORS check refused as a bare network error ("Failed to fetch",
 * "NetworkError when attempting to fetch resource", "Load failed"), with no response to read. Where that is
 * possible (a page, a URL on another origin, no reason the runtime could name), say so and what to configure
 * (docs/runtimes.md, "Browsers and CORS").
 */
export function corsHint(url: string, reason: ConnectionFailureReason): string | undefined {
  if (reason !== 'unknown') return undefined;
  const page = pageOrigin();
  const target = originOf(url);
  if (page === undefined || target === undefined || page === target) return undefined;
  return (
    `; this may be CORS: the page's origin ${page} is not ${target}, and a browser shows a cross-origin request ` +
    `it refused as a network error. Allow ${page} on the server (the agent server: allow_cors_origins or ` +
    'allow_cors_origin_regex) or serve the API from the same origin through a proxy (docs/runtimes.md)'
  );
}
