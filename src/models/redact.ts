/**
 * `encrypted_content` of a ReasoningItemModel must never be logged or rendered. Every path of this
 * module that turns an event into text (rendering, error bodies) goes through these helpers.
 */

/** The field that is never logged or rendered. */
export const SECRET_EVENT_FIELDS: ReadonlySet<string> = new Set(['encrypted_content']);

const REDACTED = '[redacted]';

/**
 * A deep copy of a JSON-like value in which every `encrypted_content` field holds `"[redacted]"` instead of its
 * value (`null` stays `null`). Safe for logs. Cycles are replaced by `"[circular]"`.
 */
export function redactEvent<T>(value: T): T {
  return redactValue(value, new WeakSet()) as T;
}

function redactValue(value: unknown, seen: WeakSet<object>): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  let out: unknown;
  if (Array.isArray(value)) out = value.map((item) => redactValue(item, seen));
  else {
    const copy: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) {
      const next =
        SECRET_EVENT_FIELDS.has(key) && field !== null && field !== undefined
          ? REDACTED
          : redactValue(field, seen);
      Object.defineProperty(copy, key, { value: next, enumerable: true, writable: true, configurable: true });
    }
    out = copy;
  }
  seen.delete(value);
  return out;
}

const SECRET_IN_JSON = /("encrypted_content"\s*:\s*)"(?:[^"\\]|\\.)*"/g;

/** JSON text with every `"encrypted_content": "…"` string value replaced by `"[redacted]"`. */
export function redactEventJson(text: string): string {
  return text.replace(SECRET_IN_JSON, `$1"${REDACTED}"`);
}

/** JSON text of any value, redacted, or `undefined` when it cannot be serialised. */
export function safeEventJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(redactEvent(value));
  } catch {
    return undefined;
  }
}
