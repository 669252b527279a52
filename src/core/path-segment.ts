/**
 * Caller values put into URL paths, checked and encoded in one place for every client.
 *
 * `encodeURIComponent` alone is not enough: `.` and `..` survive it and the URL parser resolves them as dot
 * segments (`settings.patchMcpServer('..')` would PATCH `/api/settings`), and the services decode `%2F`
 * back to `/` before routing. So a segment is refused, with a `RequestValidationError` naming the field and
 * before any request, when it is empty, `.`, `..`, or contains `/` (docs/errors-and-retries.md).
 */

import { RequestValidationError } from './errors.js';
import { describe } from './validate.js';

/**
 * Whether the URL parser would resolve this raw segment as a dot segment: `.` or `..`, with any dot written
 * as `%2e` in either case (the WHATWG URL standard treats both alike).
 */
export function isDotSegment(raw: string): boolean {
  const decoded = raw.replace(/%2e/gi, '.');
  return decoded === '.' || decoded === '..';
}

/** The value, checked to be one path segment that cannot change the route. */
export function checkPathSegment(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new RequestValidationError(`must be a non-empty string, got ${describe(value)}`, field);
  }
  if (value === '.' || value === '..') {
    throw new RequestValidationError(`${JSON.stringify(value)} cannot be sent as a path segment`, field);
  }
  if (value.includes('/')) {
    throw new RequestValidationError('must not contain "/" (it would change the path)', field);
  }
  return value;
}

/** One caller value as an encoded path segment: `pathSegment(name, 'name')`. */
export function pathSegment(value: unknown, field: string): string {
  return encodeURIComponent(checkPathSegment(value, field));
}

/**
 * A path from segments, each checked and encoded: `encodePath('api', 'conversations', { conversationId })`.
 * A caller's value is best passed as `{ field: value }`, so an error names the field; a bare string is
 * checked too (named `path`).
 */
export function encodePath(...segments: (string | Record<string, string>)[]): string {
  return segments
    .map((segment) => {
      if (typeof segment === 'string') return pathSegment(segment, 'path');
      const [field, value] = Object.entries(segment)[0] ?? ['path', undefined];
      return pathSegment(value, field);
    })
    .join('/');
}
