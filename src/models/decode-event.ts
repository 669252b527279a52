/**
 * Decoding of the events the SDK reads itself (REST pages, live frames) with zod loaded only when it is needed.
 * The predicates compiled at build time (compiled/checks.ts) accept events as servers send them, and an unknown
 * kind is kept (lenient) without them; anything else (a missing default, a known `null`, an invalid or malformed
 * value) goes to the zod parsers of parse.ts, imported on the first such value. The answer is the same either
 * way; it is a promise only while parse.ts is being loaded, so callers that keep an order (the live frame
 * reader, the page decoder) hold later values behind it. Keeping zod and the schemas out of what a client loads
 * up front took the browser bundle of `EventsClient` from 61.0 to 44.5 kB gzip (docs/performance.md).
 */
import { ResponseValidationError } from '../core/errors.js';
import { identityChecks } from './compiled/checks.js';
import { EVENT_KIND_SET } from './kind-lists.js';
import type { ParseOptions, SafeParseResult } from './parse.js';
import { safeEventJson } from './redact.js';
import type { Event } from './schemas.js';
import { isKinded, makeUnknown } from './unknown.js';

type EventResult = SafeParseResult<Event>;
type Parsers = typeof import('./parse.js');

/** parse.ts once loaded; `loading` while it is. */
let parsers: Parsers | undefined;
let loading: Promise<Parsers> | undefined;

/**
 * `safeParseOwnedEvent` (parse.ts) for a value the SDK decoded itself: the same answer, at once when the
 * predicates decide or the parsers are loaded, else as a promise.
 */
export function decodeOwnedEvent(value: unknown, options?: ParseOptions): EventResult | Promise<EventResult> {
  if (options?.mode === 'strict') {
    if (identityChecks.strictEvent?.(value) === true) return { success: true, data: value as Event };
  } else {
    // The predicate first: it accepts known kinds only, so an event it accepts needs no kind lookup.
    if (identityChecks.lenientEvent?.(value) === true) return { success: true, data: value as Event };
    if (isKinded(value) && !EVENT_KIND_SET.has(value.kind))
      return { success: true, data: makeUnknown(value, 'unknown-kind') as Event };
  }
  if (parsers) return parsers.safeParseOwnedEvent(value, options);
  return loadEventParsers().then(
    (loaded) => loaded.safeParseOwnedEvent(value, options),
    (error: unknown) => {
      // The parsers could not be loaded (a chunk the network lost): this value fails, a later one tries again.
      loading = undefined;
      return {
        success: false,
        error: new ResponseValidationError('Invalid event', {
          issues: [{ path: [], message: `could not be validated (${String(error)})`, code: 'unexpected' }],
          rawBody: safeEventJson(value),
        }),
      };
    },
  );
}

/** Loads parse.ts (once); from then on `decodeOwnedEvent` always answers at once. */
export function loadEventParsers(): Promise<Parsers> {
  loading ??= import('./parse.js').then((loaded) => (parsers = loaded));
  return loading;
}
