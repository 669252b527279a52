/**
 * The SDK's error hierarchy (openai-node style) with brand checks.
 *
 * `instanceof` fails when two copies of the package are loaded (ESM and CJS side by side), so every class is
 * branded with a `Symbol.for` key and the exported `is…()` guards check the brand, not the class identity.
 */

import type { ConnectionFailureReason } from './connection-failure.js';
import { AgentPlatformError, brand, cutDeep, guard } from './error-base.js';

export { AgentPlatformError, isAgentPlatformError } from './error-base.js';

/** One problem found in input or in a server answer; `path` locates the bad field. */
export interface ValidationIssue {
  path: (string | number)[];
  message: string;
  code?: string;
}

/** Bad input caught before any request was sent. `issues` names every bad field. */
export class RequestValidationError extends AgentPlatformError {
  readonly issues: ValidationIssue[];
  constructor(issues: ValidationIssue[] | string, field?: string) {
    const list = typeof issues === 'string' ? [{ path: field ? [field] : [], message: issues }] : issues;
    super(list.map(formatIssue).join('; '));
    this.issues = list;
  }
}
brand(RequestValidationError, 'RequestValidationError');

/** The server's answer does not match the schema. Carries the issues with their paths and the raw body. */
export class ResponseValidationError extends AgentPlatformError {
  readonly issues: ValidationIssue[];
  /** The raw response text (secrets redacted), or the JSON text of the value that failed. */
  readonly rawBody: string | undefined;
  readonly method: string | undefined;
  readonly url: string | undefined;
  constructor(
    message: string,
    options: { issues: ValidationIssue[]; rawBody?: string; method?: string; url?: string },
  ) {
    const shown = options.issues.slice(0, 5).map(formatIssue).join('; ');
    const more = options.issues.length > 5 ? ` (+${options.issues.length - 5} more)` : '';
    super(shown ? `${message}: ${shown}${more}` : message);
    this.issues = options.issues;
    this.rawBody = options.rawBody;
    this.method = options.method;
    this.url = options.url;
  }
}
brand(ResponseValidationError, 'ResponseValidationError');

function formatIssue(issue: ValidationIssue): string {
  return issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message;
}

export interface APIErrorInit {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  method: string;
  url: string;
  message: string;
}

/** The server answered with a non-2xx status. */
export class APIError extends AgentPlatformError {
  readonly status: number;
  /** Response headers, credential values redacted. */
  readonly headers: Record<string, string>;
  /** The parsed error body (JSON when the server sent JSON, else text), secrets redacted. */
  readonly body: unknown;
  readonly method: string;
  /** The request URL with credential query parameters redacted. */
  readonly url: string;
  readonly requestId: string | undefined;
  constructor(init: APIErrorInit) {
    super(`${init.status} ${init.message} (${init.method} ${init.url})`);
    this.status = init.status;
    this.headers = init.headers;
    this.body = init.body;
    this.method = init.method;
    this.url = init.url;
    this.requestId = init.headers['x-request-id'];
  }

  /** The body cut at `MAX_SHOWN_DEPTH` (again: it may have been replaced): `JSON.stringify` never throws. */
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), body: cutDeep(this.body) };
  }
}
brand(APIError, 'APIError');

export class BadRequestError extends APIError {}
brand(BadRequestError, 'BadRequestError');
export class AuthenticationError extends APIError {}
brand(AuthenticationError, 'AuthenticationError');
export class PermissionDeniedError extends APIError {}
brand(PermissionDeniedError, 'PermissionDeniedError');
export class NotFoundError extends APIError {}
brand(NotFoundError, 'NotFoundError');
export class ConflictError extends APIError {}
brand(ConflictError, 'ConflictError');

/** One entry of a 422 `HTTPValidationError.detail`. */
export interface HTTPValidationErrorDetail {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** 422: the server rejected a path, query or body parameter; `detail` is FastAPI's HTTPValidationError. */
export class UnprocessableEntityError extends APIError {
  readonly detail: HTTPValidationErrorDetail[];
  constructor(init: APIErrorInit) {
    super(init);
    this.detail = readValidationDetail(init.body);
  }
}
brand(UnprocessableEntityError, 'UnprocessableEntityError');

function readValidationDetail(body: unknown): HTTPValidationErrorDetail[] {
  const detail = (body as { detail?: unknown } | null)?.detail;
  if (!Array.isArray(detail)) return [];
  return detail.flatMap((entry) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const { loc, msg, type } = entry as Record<string, unknown>;
    return [
      {
        loc: Array.isArray(loc) ? loc.filter((p) => typeof p === 'string' || typeof p === 'number') : [],
        msg: typeof msg === 'string' ? msg : String(msg),
        type: typeof type === 'string' ? type : 'unknown',
      },
    ];
  });
}

/** 429. `retryAfter` is the server's requested wait in milliseconds, when it sent one. */
export class RateLimitError extends APIError {
  readonly retryAfter: number | undefined;
  constructor(init: APIErrorInit) {
    super(init);
    this.retryAfter = parseRetryAfter(init.headers['retry-after']);
  }
}
brand(RateLimitError, 'RateLimitError');

/** Why a redirect was not followed (docs/errors-and-retries.md, "Redirects"). */
export type RedirectRefusal =
  | 'cross-origin'
  | 'downgrade'
  | 'method-change'
  | 'too-many'
  | 'invalid-location'
  | 'hidden';

/**
 * The server answered with a redirect the SDK does not follow: to another origin (credentials and bodies
 * stay with the configured one), from https to http, one that would turn a write into a GET, one too many,
 * or one a browser hides (`status` 0). Nothing was sent to the new location.
 */
export class RedirectError extends APIError {
  /** Where the server pointed (credentials redacted); undefined when a browser hides it. */
  readonly location: string | undefined;
  readonly reason: RedirectRefusal;
  constructor(init: APIErrorInit & { location: string | undefined; reason: RedirectRefusal }) {
    super(init);
    this.location = init.location;
    this.reason = init.reason;
  }
}
brand(RedirectError, 'RedirectError');

/** Any status of 500 or more. */
export class InternalServerError extends APIError {}
brand(InternalServerError, 'InternalServerError');

/** No answer: DNS failure, connection refused or reset. */
export class APIConnectionError extends AgentPlatformError {
  /** What went wrong: `refused`, `dns`, `tls`, `reset`, `timeout` or `unknown`. */
  readonly reason: ConnectionFailureReason;
  constructor(
    message: string,
    options: { reason?: ConnectionFailureReason; code?: string | undefined; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.reason = options.reason ?? 'unknown';
    // The system error code (`ECONNREFUSED`, `ENOTFOUND`, …) when the runtime gave one.
    if (options.code !== undefined) this.code = options.code;
  }
}
brand(APIConnectionError, 'APIConnectionError');
/** A per-attempt `timeout` or the `totalTimeout` ran out. */
export class APIConnectionTimeoutError extends APIConnectionError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { ...options, reason: 'timeout' });
  }
}
brand(APIConnectionTimeoutError, 'APIConnectionTimeoutError');
/** The caller's `AbortSignal` fired. */
export class APIUserAbortError extends AgentPlatformError {}
brand(APIUserAbortError, 'APIUserAbortError');

/**
 * A successful answer's body passed the call's size limit (`maxResponseBytes`, default 16 MiB), declared by
 * `Content-Length` or counted while reading; the read stopped there. Never retried: the same request gets
 * the same body.
 */
export class ResponseTooLargeError extends AgentPlatformError {
  /** The limit, in bytes. */
  readonly limit: number;
  /** Bytes declared or received when the read stopped (at least `limit + 1`). */
  readonly received: number;
  readonly method: string;
  /** The request URL with credentials redacted. */
  readonly url: string;
  constructor(init: { limit: number; received: number; method: string; url: string }) {
    super(
      `The answer to ${init.method} ${init.url} is larger than the limit of ${init.limit} bytes (maxResponseBytes); reading stopped at ${init.received} bytes`,
    );
    this.limit = init.limit;
    this.received = init.received;
    this.method = init.method;
    this.url = init.url;
  }
}
brand(ResponseTooLargeError, 'ResponseTooLargeError');

/**
 * A credential function threw or returned something that is not a string. Nothing was sent. The message
 * names the credential, never its value; the function's own error is not attached (it may quote a secret).
 */
export class CredentialError extends AgentPlatformError {
  readonly credential: string;
  constructor(credential: string, message: string) {
    super(`${credential}: ${message}`);
    this.credential = credential;
  }
}
brand(CredentialError, 'CredentialError');

/**
 * A method that gathers every page (`bash.output()`, the event scan behind `finalResponse` on old servers)
 * passed its cap: the server kept sending pages. What was gathered is dropped; raise the cap (the option
 * named in the message) if the amount is expected.
 */
export class CollectionLimitError extends AgentPlatformError {
  /** The cap that was passed, in `unit`s. */
  readonly limit: number;
  readonly unit: 'items' | 'characters';
  constructor(what: string, limit: number, unit: 'items' | 'characters', option: string) {
    super(`${what} passed the limit of ${limit} ${unit} (${option}); the server kept sending pages`);
    this.limit = limit;
    this.unit = unit;
  }
}
brand(CollectionLimitError, 'CollectionLimitError');

/** Milliseconds from a `Retry-After` header value (delta-seconds or HTTP date). */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The class for a status code, openai-node's mapping. */
export function apiErrorClassFor(status: number): new (init: APIErrorInit) => APIError {
  switch (status) {
    case 400:
      return BadRequestError;
    case 401:
      return AuthenticationError;
    case 403:
      return PermissionDeniedError;
    case 404:
      return NotFoundError;
    case 409:
      return ConflictError;
    case 422:
      return UnprocessableEntityError;
    case 429:
      return RateLimitError;
    default:
      return status >= 500 ? InternalServerError : APIError;
  }
}

export const isRequestValidationError = guard<RequestValidationError>('RequestValidationError');
export const isResponseValidationError = guard<ResponseValidationError>('ResponseValidationError');
export const isAPIError = guard<APIError>('APIError');
export const isBadRequestError = guard<BadRequestError>('BadRequestError');
export const isAuthenticationError = guard<AuthenticationError>('AuthenticationError');
export const isPermissionDeniedError = guard<PermissionDeniedError>('PermissionDeniedError');
export const isNotFoundError = guard<NotFoundError>('NotFoundError');
export const isConflictError = guard<ConflictError>('ConflictError');
export const isUnprocessableEntityError = guard<UnprocessableEntityError>('UnprocessableEntityError');
export const isRateLimitError = guard<RateLimitError>('RateLimitError');
export const isInternalServerError = guard<InternalServerError>('InternalServerError');
export const isAPIConnectionError = guard<APIConnectionError>('APIConnectionError');
export const isAPIConnectionTimeoutError = guard<APIConnectionTimeoutError>('APIConnectionTimeoutError');
export const isAPIUserAbortError = guard<APIUserAbortError>('APIUserAbortError');
export const isResponseTooLargeError = guard<ResponseTooLargeError>('ResponseTooLargeError');
export const isCredentialError = guard<CredentialError>('CredentialError');
export const isRedirectError = guard<RedirectError>('RedirectError');
export const isCollectionLimitError = guard<CollectionLimitError>('CollectionLimitError');

/** For service folders that define their own error classes (e.g. `AdminDisabledError`). */
export { brand as brandErrorClass, guard as errorGuard };

/**
 * The same answer as a `NotFoundError`, for services that say "not found" with another status (the agent
 * server's 500 "Unknown event_id" and 400 on pause/delete, the gateway's 400 for a missing model).
 */
export function asNotFoundError(error: APIError, message: string): NotFoundError {
  return new NotFoundError(apiErrorInit(error, message));
}

/** The fields of `error` with another message: for an error of a more precise class built from it. */
export function apiErrorInit(error: APIError, message: string): APIErrorInit {
  const { status, headers, body, method, url } = error;
  return { status, headers, body, method, url, message };
}

/** The same error class (by status) and fields, with a message that says more. */
export function withMessage(error: APIError, message: string): APIError {
  const ErrorClass = apiErrorClassFor(error.status);
  return new ErrorClass(apiErrorInit(error, message));
}
