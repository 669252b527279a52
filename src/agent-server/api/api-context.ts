import { APIPromise } from '../../core/api-promise.js';
import { type APIError, isAPIError } from '../../core/errors.js';
import type { RequestOptions } from '../../core/options.js';
import { pathSegment } from '../../core/path-segment.js';
import type { CallSpec, Decoder, QueryValue, Transport } from '../../core/transport.js';
import { optionsObject, requireNonEmptyString, requireUuid } from '../../core/validate.js';
import type { ServerInfo } from '../server-info.js';
import { assertFeatureSupported } from '../version-gate.js';
import type { Operation } from './operation.js';

/** A path parameter: one segment, or several (a `{file_path}` holding slashes) each encoded on its own. */
export type PathValue = string | readonly string[];

/** Path parameters that are conversation ids: checked as UUIDs before any request. */
const UUID_PARAMS = new Set(['conversation_id', 'runtime_conversation_id']);

export interface OperationCall<T> {
  params?: Record<string, PathValue>;
  query?: Record<string, QueryValue>;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
  decode?: Decoder<T>;
  responseType?: CallSpec<T>['responseType'];
  retry?: boolean;
  mapError?: (error: APIError) => Error;
  isPermanent?: (status: number, body: unknown) => boolean;
  maxResponseBytes?: number;
  options?: RequestOptions | undefined;
}

/**
 * What every namespace of `AgentServerClient` calls through: one transport (auth, base URL, retries, abort,
 * redaction) and one `/server_info` cache. An operation that the server does not know (404 or 405) and that
 * is newer than the server's version fails with `AgentServerVersionError` instead, so an old server says
 * "too old" and not "not found"; no version request is made on the happy path.
 */
export class ApiContext {
  constructor(
    readonly transport: Transport,
    readonly serverInfo: (options?: { signal?: AbortSignal }) => Promise<ServerInfo>,
    /** Registers a value (an API key, a secret) for redaction in every namespace's errors and logs. */
    readonly addSecret: (value: string | undefined) => void,
  ) {}

  /** Never shows the transport's settings (they may hold credentials in headers). */
  toJSON(): Record<string, unknown> {
    return { baseUrl: this.transport.baseUrl };
  }

  call<T = unknown>(operation: Operation, call: OperationCall<T> = {}): APIPromise<T> {
    return new APIPromise(this.#call(operation, call));
  }

  async #call<T>(operation: Operation, call: OperationCall<T>): Promise<readonly [T, () => Response]> {
    const path = fillPath(operation.path, call.params ?? {});
    const options = optionsObject(call.options);
    try {
      const sent = this.transport.request<T>({
        method: operation.method,
        path,
        ...(call.query ? { query: call.query } : {}),
        ...(call.json === undefined ? {} : { json: call.json }),
        ...(call.body === undefined ? {} : { body: call.body }),
        ...(call.responseType ? { responseType: call.responseType } : {}),
        ...(call.retry === undefined ? {} : { retry: call.retry }),
        ...(call.mapError ? { mapError: call.mapError as (error: APIError) => APIError } : {}),
        ...(call.isPermanent ? { isPermanent: call.isPermanent } : {}),
        ...(call.maxResponseBytes ? { maxResponseBytes: call.maxResponseBytes } : {}),
        ...(call.decode ? { decode: call.decode } : {}),
        signal: options.signal,
        timeout: options.timeout,
        headers: { ...call.headers, ...options.headers },
      });
      return await APIPromise.answerOf(sent);
    } catch (error) {
      if (operation.since && isAPIError(error) && (error.status === 404 || error.status === 405)) {
        await this.#gate(operation, options.signal);
      }
      throw error;
    }
  }

  async #gate(operation: Operation, signal: AbortSignal | undefined): Promise<void> {
    let version: string | undefined;
    try {
      version = (await this.serverInfo(signal ? { signal } : {})).version;
    } catch {
      return; // no version to judge by: the original error stands
    }
    assertFeatureSupported(version, {
      feature: `${operation.method} ${operation.path}`,
      displayName: `${operation.method} ${operation.path}`,
      minVersion: operation.since as string,
    });
  }
}

/**
 * `/api/x/{name}` with each parameter checked (no `''`, `.`, `..` or `/`) and encoded by the shared
 * `pathSegment`; conversation ids must be UUIDs.
 */
export function fillPath(template: string, params: Record<string, PathValue>): string {
  return template.replace(/^\//, '').replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (Array.isArray(value)) {
      if (value.length === 0) requireNonEmptyString('', name);
      return value.map((part) => pathSegment(part, name)).join('/');
    }
    return pathSegment(UUID_PARAMS.has(name) ? requireUuid(value, name) : value, name);
  });
}
