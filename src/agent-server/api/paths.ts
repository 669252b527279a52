import { requireNonEmptyString } from '../../core/validate.js';
import { invalid } from '../invalid.js';

/** The server resolves no relative path (a 400 "Path must be absolute"): caught here, before any request. */
export function requireAbsolutePath(value: unknown, field: string): string {
  const path = requireNonEmptyString(value, field);
  if (!path.startsWith('/')) throw invalid(field, `must be an absolute path, got ${JSON.stringify(path)}`);
  return path;
}

/** An optional integer within bounds, or a RequestValidationError naming `field`. */
export function optionalInt(value: unknown, field: string, min = 1, max = Number.MAX_SAFE_INTEGER) {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalid(field, `must be an integer from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}

export function requireObject(value: unknown, field: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid(field, 'must be an object');
  }
  return value as Record<string, unknown>;
}

export function optionalString(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalid(field, 'must be a string');
  return value;
}

export function optionalBoolean(value: unknown, field: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw invalid(field, 'must be a boolean');
  return value;
}
