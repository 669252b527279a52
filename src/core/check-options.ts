import { RequestValidationError, type ValidationIssue } from './errors.js';
import { hasControlCharacters, isPlainObject } from './validate.js';

/** ky's (and `setTimeout`'s) largest delay; a larger timeout would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;
const LOG_LEVELS = new Set(['off', 'error', 'warn', 'info', 'debug']);

/**
 * Checks the options every client shares, before any request: a bad one is a `RequestValidationError`
 * naming it, never a connection error later or a bare `TypeError`. Messages never quote the base URL or a
 * header value (either may hold a credential).
 */
export function checkClientOptions(options: Record<string, unknown>): void {
  const issues: ValidationIssue[] = [];
  const bad = (field: string, message: string) => issues.push({ path: [field], message });
  const { baseUrl, timeout, totalTimeout, maxRetries, maxRetryDelay, maxResponseBytes } = options;
  const { fetch, headers, logger, logLevel } = options;
  if (typeof baseUrl !== 'string') bad('baseUrl', `must be a string, got ${typeof baseUrl}`);
  else baseUrlIssue(baseUrl, bad);
  positive(timeout, 'timeout', MAX_TIMER_MS, bad);
  positive(totalTimeout, 'totalTimeout', MAX_TIMER_MS, bad);
  positive(maxResponseBytes, 'maxResponseBytes', Number.MAX_SAFE_INTEGER, bad);
  if (maxRetries !== undefined && !(Number.isSafeInteger(maxRetries) && (maxRetries as number) >= 0)) {
    bad('maxRetries', 'must be an integer >= 0');
  }
  if (
    maxRetryDelay !== undefined &&
    !(typeof maxRetryDelay === 'number' && maxRetryDelay >= 0 && maxRetryDelay <= MAX_TIMER_MS)
  ) {
    bad('maxRetryDelay', `must be a number of milliseconds from 0 to ${MAX_TIMER_MS}`);
  }
  if (fetch !== undefined && typeof fetch !== 'function') bad('fetch', 'must be a function');
  if (headers !== undefined) {
    if (!isPlainObject(headers)) bad('headers', 'must be a plain object of header name to string');
    else
      for (const [name, value] of Object.entries(headers)) {
        if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
          issues.push({ path: ['headers', name], message: 'is not a valid header name' });
        } else if (typeof value !== 'string' || /[\r\n]/.test(value) || value.includes('\u0000')) {
          issues.push({ path: ['headers', name], message: 'must be a string without CR, LF or NUL' });
        }
      }
  }
  if (
    logger !== undefined &&
    (typeof logger !== 'object' ||
      logger === null ||
      !['error', 'warn', 'info', 'debug'].every(
        (level) => typeof (logger as Record<string, unknown>)[level] === 'function',
      ))
  ) {
    bad('logger', 'must have error, warn, info and debug methods');
  }
  if (logLevel !== undefined && !LOG_LEVELS.has(logLevel as string)) {
    bad('logLevel', 'must be one of off, error, warn, info, debug');
  }
  if (issues.length > 0) throw new RequestValidationError(issues);
}

function positive(
  value: unknown,
  field: string,
  max: number,
  bad: (field: string, message: string) => void,
): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > max) {
    bad(field, `must be a positive number up to ${max}`);
  }
}

function baseUrlIssue(value: string, bad: (field: string, message: string) => void): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    bad('baseUrl', 'must be an absolute http(s) URL');
    return;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') bad('baseUrl', 'must use http or https');
  // fetch refuses URLs with credentials, and they would show in every error and log line: pass them as
  // the client's credential options instead.
  else if (url.username || url.password) bad('baseUrl', 'must not carry a user name or password');
  else if (url.search || url.hash) bad('baseUrl', 'must not carry a query or a fragment');
  else if (hasControlCharacters(value)) bad('baseUrl', 'must not contain control characters');
}
