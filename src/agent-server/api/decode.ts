import type { Decoder } from '../../core/transport.js';

/**
 * The type a top-level field must have. `?` also allows absent and `null` (newer servers omit nulls).
 * Answers are checked at their top level only: enough to catch a proxy's page or another service answering,
 * without a schema library whose inferred types would weigh on every app's type-check.
 */
export type Field =
  | 'string'
  | 'number'
  | 'boolean'
  | 'object'
  | 'array'
  | 'string?'
  | 'number?'
  | 'boolean?'
  | 'object?'
  | 'array?';

type Result<T> = ReturnType<Decoder<T>>;

function fail<T>(path: (string | number)[], message: string): Result<T> {
  return { success: false, error: { issues: [{ path, message }] } };
}

function typeOk(value: unknown, type: string): boolean {
  if (type === 'array') return Array.isArray(value);
  if (type === 'object') return typeof value === 'object' && value !== null && !Array.isArray(value);
  return typeof value === type;
}

/** An object whose listed fields have the listed types; other fields are kept as they come. */
export function shape<T>(fields: Record<string, Field> = {}): Decoder<T> {
  return (input) => {
    if (!typeOk(input, 'object')) return fail([], 'expected an object');
    const record = input as Record<string, unknown>;
    const issues: { path: string[]; message: string }[] = [];
    for (const [field, check] of Object.entries(fields)) {
      const value = record[field];
      const optional = check.endsWith('?');
      if (optional && (value === undefined || value === null)) continue;
      const type = optional ? check.slice(0, -1) : check;
      if (!typeOk(value, type)) issues.push({ path: [field], message: `expected ${type}` });
    }
    return issues.length > 0 ? { success: false, error: { issues } } : { success: true, data: record as T };
  };
}

/** A JSON array whose items each pass `item` (issues carry the item's index). */
export function arrayOf<T>(item: Decoder<T>): Decoder<T[]> {
  return (input) => {
    if (!Array.isArray(input)) return fail([], 'expected an array');
    const out: T[] = [];
    for (const [index, value] of input.entries()) {
      const result = item(value);
      if (!result.success) {
        return {
          success: false,
          error: { issues: result.error.issues.map((i) => ({ ...i, path: [index, ...i.path] })) },
        };
      }
      out.push(result.data);
    }
    return { success: true, data: out };
  };
}

/** `null` or what `inner` accepts. */
export function nullable<T>(inner: Decoder<T>): Decoder<T | null> {
  return (input) => (input === null ? { success: true, data: null } : inner(input));
}

export const aString: Decoder<string> = (input) =>
  typeof input === 'string' ? { success: true, data: input } : fail([], 'expected a string');

/** Any JSON value (for answers the document declares as `{}`). */
export const anyJson: Decoder<unknown> = (input) => ({ success: true, data: input });

/** OpenAPI `Success {success: boolean = true}`; `{success: false}` is kept for the caller to judge. */
export const successAnswer = shape<{ success: boolean }>({ success: 'boolean?' });
