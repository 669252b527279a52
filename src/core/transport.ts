import type { KyInstance, Options as KyOptions } from 'ky';
import { APIPromise } from './api-promise.js';
import { boundedFetch, DEFAULT_MAX_RESPONSE_BYTES } from './bounded-body.js';
import { checkClientOptions } from './check-options.js';
import { connectionFailure, describeConnectionFailure } from './connection-failure.js';
import { corsHint } from './cors-hint.js';
import { errorMessageFromBody } from './error-body.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  type APIError,
  APIUserAbortError,
  apiErrorClassFor,
  CredentialError,
  isAgentPlatformError,
  RequestValidationError,
  ResponseTooLargeError,
  ResponseValidationError,
  type ValidationIssue,
} from './errors.js';
import { SafeLogger } from './logger.js';
import type { ClientOptions } from './options.js';
import { redactHeaders, redactText, redactUrl, redactValue } from './redact.js';
import { guardRedirects } from './redirects.js';
import { RETRY_POLICY } from './retry-policy.js';

type Ky = typeof import('ky');
/**
 * ky, loaded on the first request rather than at import: importing the package costs less, and browser bundles
 * fetch it as a chunk of its own (docs/performance.md, "Import time").
 */
let kyModule: Ky | undefined;
let kyLoading: Promise<Ky> | undefined;
const loadKy = (): Promise<Ky> => {
  kyLoading ??= import('ky').then((module) => {
    kyModule = module;
    return module;
  });
  return kyLoading;
};
// ky's error tests; an error thrown before ky was loaded is none of ky's.
const isHTTPError = ((error: unknown) => kyModule?.isHTTPError(error) === true) as Ky['isHTTPError'];
const isNetworkError = ((error: unknown) => kyModule?.isNetworkError(error) === true) as Ky['isNetworkError'];
const isTimeoutError = ((error: unknown) => kyModule?.isTimeoutError(error) === true) as Ky['isTimeoutError'];

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';

/** What a schema check returns: zod's `safeParse` and the models' `safeParse…` functions both fit. */
export type Decoder<T> = (input: unknown) => DecodeResult<T>;
export type DecodeResult<T> =
  | { success: true; data: T }
  | { success: false; error: { issues: readonly RawIssue[] } };
/** A Decoder that may answer with a promise: the event decoders, while zod's parsers load (models/decode-event.ts). */
export type LazyDecoder<T> = (input: unknown) => DecodeResult<T> | Promise<DecodeResult<T>>;
interface RawIssue {
  path: readonly PropertyKey[];
  message: string;
  code?: string;
}

export type QueryValue = string | number | boolean | undefined | null | readonly (string | number)[];

export interface CallSpec<T> {
  method: HttpMethod;
  /** Path relative to the base URL; segments must already be checked and encoded (use `encodePath`). */
  path: string;
  query?: Record<string, QueryValue>;
  json?: unknown;
  /** A raw body (e.g. `FormData` for an upload), when `json` does not fit; never retried unless idempotent. */
  body?: BodyInit;
  headers?: Record<string, string>;
  signal?: AbortSignal | undefined;
  timeout?: number | undefined;
  /** Validates the JSON answer. Without it the answer is returned as parsed. */
  decode?: LazyDecoder<T>;
  /**
   * `text` returns the raw body; `bytes` its exact bytes (a `Uint8Array`, binary safe); `stream` the body as a
   * `ReadableStream<Uint8Array>`, not buffered (so neither `maxResponseBytes` nor `timeout` bound its reading
   * once the headers are in: cancel it or abort the signal); `none` ignores it. Default `json`.
   */
  responseType?: 'json' | 'text' | 'bytes' | 'stream' | 'none';
  /** Set false to never retry this call, even if idempotent. */
  retry?: boolean;
  /** Vetoes a retry of an error answer the service will give again (e.g. a 500 that means "missing"). */
  isPermanent?: (status: number, body: unknown) => boolean;
  /** Turns a service quirk into a better error (e.g. a 500 that means "not found"). */
  mapError?: (error: APIError) => APIError;
  /** This endpoint's body limit, when it differs from the client's `maxResponseBytes`. */
  maxResponseBytes?: number;
}

/** How much of a body an error's `rawBody` keeps (after redaction, so no secret is cut in two). */
const RAW_BODY_CHARS = 10_000;

export interface TransportInit extends ClientOptions {
  baseUrl: string;
  /** Credential headers for one call, resolved at call time. */
  authHeaders?: () => Promise<Record<string, string>>;
  /** Every secret value this client knows of, for redaction. */
  secrets: () => readonly string[];
}

/**
 * The HTTP core shared by every client: ky 2 underneath (timeouts, retries, Retry-After), our typed errors
 * on top. Nothing of ky's leaves this module.
 */
export class Transport {
  readonly baseUrl: string;
  readonly logger: SafeLogger;
  readonly #init: TransportInit;
  readonly #kyOptions: KyOptions;
  #ky: KyInstance | undefined;

  constructor(init: TransportInit) {
    checkClientOptions(init as unknown as Record<string, unknown>);
    this.#init = init;
    this.baseUrl = init.baseUrl.replace(/\/+$/, '');
    this.logger = new SafeLogger(init.logger, init.logLevel, init.secrets);
    this.#kyOptions = {
      timeout: init.timeout ?? 60_000,
      totalTimeout: init.totalTimeout ?? false,
      headers: init.headers,
      throwHttpErrors: true,
      hooks: {
        beforeRetry: [
          ({ request, retryCount, error }) => {
            this.logger.info(
              `retry ${retryCount} of ${request.method} ${redactUrl(request.url, init.secrets())}: ${error?.message ?? 'error'}`,
            );
          },
        ],
      },
    };
  }

  url(path: string, query?: Record<string, QueryValue>): string {
    const url = `${this.baseUrl}/${path.replace(/^\/+/, '')}`;
    const search = buildQuery(query);
    return search ? `${url}?${search}` : url;
  }

  /** One call: its decoded answer, and with `.withResponse()` / `.asResponse()` the HTTP response too. */
  request<T = unknown>(spec: CallSpec<T>): APIPromise<T> {
    return new APIPromise(this.#send(spec));
  }

  async #send<T>(spec: CallSpec<T>): Promise<readonly [T, () => Response]> {
    const url = this.url(spec.path, spec.query);
    const shownUrl = redactUrl(url, this.#init.secrets());
    if (spec.signal?.aborted) throw new APIUserAbortError('Request was aborted before it was sent');
    checkCallTimeout(spec.timeout);
    const started = Date.now();
    const auth = await this.#authHeaders();
    checkHeaderValues(auth, spec.headers);
    const maxBytes = spec.maxResponseBytes ?? this.#init.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    const fetchImpl = this.#init.fetch;
    let text: string;
    let bytes: Uint8Array | undefined;
    let stream: ReadableStream<Uint8Array> | undefined;
    let received: Response;
    const streaming = spec.responseType === 'stream';
    // ky calls fetch unbound; wrap so a user's fetch keeps its own `this`.
    const rawFetch: typeof fetch | undefined = fetchImpl
      ? (input, options) => fetchImpl(input, options)
      : undefined;
    // Redirects are judged here, never followed by fetch: credentials stay with the configured origin.
    const guarded = guardRedirects(rawFetch ?? ((input, options) => globalThis.fetch(input, options)), {
      method: spec.method,
      shownUrl,
      secrets: this.#init.secrets,
    });
    try {
      this.#ky ??= (await loadKy()).default.create(this.#kyOptions);
      const response = await this.#ky(url, {
        method: spec.method,
        headers: { accept: 'application/json', ...auth, ...spec.headers },
        ...(spec.json === undefined ? {} : { json: spec.json }),
        ...(spec.body === undefined ? {} : { body: spec.body }),
        ...(spec.signal ? { signal: spec.signal } : {}),
        ...(spec.timeout === undefined ? {} : { timeout: spec.timeout }),
        retry: this.#retryFor(spec),
        // The body is read inside the fetch that ky times, so `timeout` and `totalTimeout` bound it too.
        // A streamed body is handed over unread; the fetch is looked up at call time (msw, test doubles).
        fetch: streaming
          ? guarded
          : boundedFetch(guarded, {
              maxBytes,
              tooLarge: (received) =>
                new ResponseTooLargeError({ limit: maxBytes, received, method: spec.method, url: shownUrl }),
            }),
      });
      received = response;
      if (streaming) {
        stream = response.body ?? new Response(new Uint8Array(0)).body ?? undefined;
        text = '';
      } else if (spec.responseType === 'bytes') {
        bytes = new Uint8Array(await response.arrayBuffer());
        text = '';
      } else text = await response.text();
      this.logger.debug(`${spec.method} ${shownUrl} → ${response.status} in ${Date.now() - started} ms`);
    } catch (error) {
      const mapped = this.#toSdkError(
        error,
        spec,
        shownUrl,
        credentialSent(auth, this.#init.headers, spec.headers),
      );
      this.logger.debug(`${spec.method} ${shownUrl} failed in ${Date.now() - started} ms: ${mapped.message}`);
      throw mapped;
    }
    // Made only when asked for: the status and headers as received, the body as read (none when handed over).
    const { status, statusText, headers } = received;
    const response = () =>
      new Response(
        streaming || status === 204 || status === 205 ? null : ((bytes as BodyInit | undefined) ?? text),
        {
          status,
          statusText,
          headers,
        },
      );
    const data =
      spec.responseType === 'none'
        ? undefined
        : spec.responseType === 'bytes'
          ? bytes
          : streaming
            ? stream
            : spec.responseType === 'text'
              ? text
              : await this.#decode(text, spec, shownUrl);
    return [data as T, response];
  }

  /** The credential headers; a credential function that fails is a `CredentialError`, not a network error. */
  async #authHeaders(): Promise<Record<string, string>> {
    try {
      return (await this.#init.authHeaders?.()) ?? {};
    } catch (error) {
      if (isAgentPlatformError(error)) throw error;
      throw new CredentialError(
        'credential',
        'resolving the credential failed; the error is not shown, as it may quote the secret',
      );
    }
  }

  #retryFor<T>(spec: CallSpec<T>) {
    const limit = spec.retry === false ? 0 : (this.#init.maxRetries ?? 2);
    const maxDelay = this.#init.maxRetryDelay ?? RETRY_POLICY.maxRetryAfter;
    const policy = {
      ...RETRY_POLICY,
      limit,
      maxRetryAfter: maxDelay,
      backoffLimit: Math.min(RETRY_POLICY.backoffLimit, maxDelay),
    };
    const isPermanent = spec.isPermanent;
    if (!isPermanent) return policy;
    return {
      ...policy,
      shouldRetry: ({ error }: { error: Error }) =>
        isHTTPError(error) && isPermanent(error.response.status, error.data) ? false : undefined,
    };
  }

  async #decode<T>(text: string, spec: CallSpec<T>, shownUrl: string): Promise<T> {
    const secrets = this.#init.secrets();
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      throw new ResponseValidationError('The server answered with text that is not JSON', {
        issues: [{ path: [], message: 'invalid JSON' }],
        rawBody: rawBody(text, secrets),
        method: spec.method,
        url: shownUrl,
      });
    }
    if (!spec.decode) return json as T;
    const result = await spec.decode(json);
    if (result.success) return result.data;
    throw new ResponseValidationError(`The answer to ${spec.method} ${shownUrl} does not match the schema`, {
      issues: toIssues(result.error.issues),
      rawBody: rawBody(text, secrets),
      method: spec.method,
      url: shownUrl,
    });
  }

  #toSdkError<T>(error: unknown, spec: CallSpec<T>, shownUrl: string, sentCredential: boolean): Error {
    if (isAgentPlatformError(error)) return error;
    const secrets = this.#init.secrets();
    if (spec.signal?.aborted) {
      return new APIUserAbortError(`${spec.method} ${shownUrl} was aborted`, { cause: spec.signal.reason });
    }
    if (isHTTPError(error)) {
      const headers = redactHeaders(Object.fromEntries(error.response.headers), secrets);
      const body = redactValue(error.data, secrets);
      const status = error.response.status;
      const ErrorClass = apiErrorClassFor(status);
      const apiError = new ErrorClass({
        status,
        headers,
        body,
        method: spec.method,
        url: shownUrl,
        message:
          redactText(errorMessageFromBody(body, error.response.statusText || 'HTTP error'), secrets) +
          (status === 401
            ? sentCredential
              ? ' (a credential was sent and refused)'
              : ' (no credential was sent)'
            : ''),
      });
      return spec.mapError ? spec.mapError(apiError) : apiError;
    }
    if (isTimeoutError(error)) {
      return new APIConnectionTimeoutError(`${spec.method} ${shownUrl} timed out`);
    }
    // The request URL is named once, redacted; the runtime's own error (without the URL) is the cause.
    const failure = connectionFailure(isNetworkError(error) ? error.cause : error);
    const detail = redactText(describeConnectionFailure(failure), secrets);
    const hint = corsHint(shownUrl, failure.reason) ?? '';
    return new APIConnectionError(`${spec.method} ${shownUrl} failed: ${detail}${hint}`, {
      reason: failure.reason,
      code: failure.code,
      cause: redactedCause(failure.cause, failure.code, secrets),
    });
  }
}

const CREDENTIAL_HEADERS = new Set(['authorization', 'x-session-api-key', 'x-api-key', 'api-key']);

/** Whether the request carried a credential, so that a 401 can say which of the two cases it is. */
function credentialSent(
  auth: Record<string, string>,
  ...others: (Record<string, string> | undefined)[]
): boolean {
  if (Object.keys(auth).length > 0) return true;
  return others.some((headers) =>
    Object.keys(headers ?? {}).some((name) => CREDENTIAL_HEADERS.has(name.toLowerCase())),
  );
}

/** A copy of the runtime's error whose message is redacted: its text can echo what the request carried. */
function redactedCause(
  cause: unknown,
  code: string | undefined,
  secrets: readonly string[],
): Error | undefined {
  if (!(cause instanceof Error)) return undefined;
  const copy = new Error(redactText(cause.message, secrets));
  copy.name = cause.name;
  if (code !== undefined) Object.assign(copy, { code });
  return copy;
}

/** Redacted first, then cut: cutting first could leave the first half of a secret to be shown. */
function rawBody(text: string, secrets: readonly string[]): string {
  const redacted = redactText(text, secrets);
  return redacted.length > RAW_BODY_CHARS ? `${redacted.slice(0, RAW_BODY_CHARS)}…` : redacted;
}

/**
 * A header value (a credential most of all) holding CR, LF or NUL cannot be sent: `fetch` would throw a
 * `TypeError` that reads as a network error. It is bad input, named by its header and never quoted.
 */
function checkHeaderValues(...sets: (Record<string, string> | undefined)[]): void {
  for (const headers of sets) {
    for (const [name, value] of Object.entries(headers ?? {})) {
      if (typeof value === 'string' && /[\r\n\0]/.test(value)) {
        throw new RequestValidationError([
          { path: ['headers', name], message: 'must not contain CR, LF or NUL; nothing was sent' },
        ]);
      }
    }
  }
}

function checkCallTimeout(timeout: unknown): void {
  if (timeout === undefined) return;
  if (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout <= 0 || timeout > 2_147_483_647) {
    throw new RequestValidationError('must be a positive number of milliseconds', 'timeout');
  }
}

function toIssues(issues: readonly RawIssue[]): ValidationIssue[] {
  return issues.map((issue) => ({
    path: issue.path.map((p) => (typeof p === 'number' ? p : String(p))),
    message: issue.message,
    ...(issue.code ? { code: issue.code } : {}),
  }));
}

function buildQuery(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) params.append(key, String(item));
    else params.append(key, String(value));
  }
  return params.toString();
}

// Path segments are checked and encoded in one place for every client.
export { encodePath } from './path-segment.js';
