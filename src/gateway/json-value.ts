import type { ValidationIssue } from '../core/errors.js';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** Issues for anything `JSON.stringify` would drop, change or reject (undefined, NaN, Date, cycles…). */
export function jsonIssues(
  value: unknown,
  path: (string | number)[],
  seen = new Set<object>(),
): ValidationIssue[] {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return [];
  if (typeof value === 'number') {
    return Number.isFinite(value) ? [] : [{ path, message: `${value} is not a JSON number` }];
  }
  if (typeof value !== 'object') return [{ path, message: `a ${typeof value} is not a JSON value` }];
  if (seen.has(value)) return [{ path, message: 'contains a cycle' }];
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.flatMap((item, index) => jsonIssues(item, [...path, index], seen));
    if (!isPlainObject(value)) return [{ path, message: 'must be a plain object, array or scalar' }];
    return Object.entries(value).flatMap(([key, item]) => jsonIssues(item, [...path, key], seen));
  } finally {
    seen.delete(value);
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
