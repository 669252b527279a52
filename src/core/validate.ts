import { RequestValidationError } from './errors.js';

const UUID_DASHED = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UUID_HEX = /^[0-9a-f]{32}$/i;

/** `conversation_id` has format uuid; the real server accepts dashed or 32-hex forms. */
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
  if (typeof value === 'object') return isPlainObject(value) ? 'an object' : `a ${objectKind(value)}`;
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'symbol') return 'a symbol';
  return `${typeof value} ${String(value)}`;
}

/**
 * True for `{…}` literals, `JSON.parse` objects and `Object.create(null)`: never a `Map`, `Date`, class
 * instance or array, whose entries `JSON.stringify` would drop or mangle (a `Map` of tags is sent as `{}`).
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Keys that reach an object's prototype when assigned (`out[key] = value`) instead of being copied. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export function isPrototypeKey(key: string): boolean {
  return PROTOTYPE_KEYS.has(key);
}

/**
 * A plain object whose own keys include no `__proto__`, `constructor` or `prototype` (JSON input such as
 * `{"__proto__": {...}}` would otherwise change the copy's prototype and be sent as `{}`).
 */
export function requirePlainObject(value: unknown, field: string): Record<string, unknown> {
  if (!isPlainObject(value)) {
    throw new RequestValidationError(`must be a plain object, got ${describe(value)}`, field);
  }
  const issues = Object.keys(value)
    .filter(isPrototypeKey)
    .map((key) => ({
      path: [field, key],
      message: 'is not allowed as a key (it would reach the prototype)',
    }));
  if (issues.length > 0) throw new RequestValidationError(issues);
  return value;
}

/** C0 and C1 controls, DEL, and invisible format characters (zero-width, bidi overrides, BOM). */
export function hasControlCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (
      c <= 0x1f ||
      (c >= 0x7f && c <= 0x9f) ||
      c === 0xad ||
      (c >= 0x200b && c <= 0x200f) ||
      (c >= 0x202a && c <= 0x202e) ||
      (c >= 0x2060 && c <= 0x2064) ||
      c === 0xfeff
    ) {
      return true;
    }
  }
  return false;
}

function objectKind(value: object): string {
  const name = (Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null)?.constructor
    ?.name;
  return typeof name === 'string' && /^[A-Za-z_$][\w$]{0,40}$/.test(name) ? name : 'non-plain object';
}

/**
 * An optional object argument (a call's `{ signal, timeout, headers }`, a query), checked before anything reads it: `undefined`
 * is `{}`; `null`, a string or a signal that is not an `AbortSignal` are a `RequestValidationError` naming
 * `field` instead of a `TypeError` from deep inside the call.
 */
export function optionsObject<T extends object>(value: T | undefined | null, field = 'options'): T {
  if (value === undefined) return {} as T;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RequestValidationError(`must be an object, got ${describe(value)}`, field);
  }
  const { signal } = value as { signal?: unknown };
  if (signal !== undefined && !isAbortSignal(signal)) {
    throw new RequestValidationError(`must be an AbortSignal, got ${describe(signal)}`, `${field}.signal`);
  }
  return value;
}

function isAbortSignal(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as AbortSignal).aborted === 'boolean' &&
    typeof (value as AbortSignal).addEventListener === 'function'
  );
}
