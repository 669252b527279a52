import { RequestValidationError } from './errors.js';

const UUID_DASHED = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UUID_HEX = /^[0-9a-f]{32}$/i;

/** spec 4.1: `conversation_id` has format uuid; the real server accepts dashed or 32-hex forms. */
export function requireUuid(value: unknown, field: string): string {
  if (typeof value !== 'string' || !(UUID_DASHED.test(value) || UUID_HEX.test(value))) {
    throw new RequestValidationError(
      `must be a UUID (dashed or 32 hex digits), got ${describe(value)}`,
      field,
    );
  }
  return value;
}

export function requireNonEmptyString(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new RequestValidationError(`must be a non-empty string, got ${describe(value)}`, field);
  }
  return value;
}

/** A short, safe description of a bad value for an error message (never the whole value). */
export function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (typeof value === 'string')
    return value.length > 40 ? `a string of ${value.length} characters` : JSON.stringify(value);
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}
