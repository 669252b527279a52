/**
 * `parseEvent` and `safeParseEvent` as the package root exports them: functions of their own calling parse.ts,
 * not re-exports of it. Bundlers that split code (esbuild) put in an app's up-front chunk every module reachable
 * over static imports from a module in use anywhere; parse.ts is in use as the chunk decode-event.ts loads when an
 * event fails the predicates, so a root re-export would bring zod and the schemas up front for every client
 * (docs/performance.md, bundle sizes). Through these, parse.ts is reached up front only by an app that calls them.
 */

import * as parse from './parse.js';
import type { Event } from './schemas.js';

/** Parses one event or throws ResponseValidationError (invalid JSON text included). */
export function parseEvent(input: unknown, options?: parse.ParseOptions): Event {
  return parse.parseEvent(input, options);
}

/** Parses one event. Lenient by default; see `agent-platform-sdk/models` for what each mode accepts. */
export function safeParseEvent(input: unknown, options?: parse.ParseOptions): parse.SafeParseResult<Event> {
  return parse.safeParseEvent(input, options);
}
