import { APIUserAbortError } from '../core/errors.js';
import type { Decoder } from '../core/transport.js';
import { checkFields, type FieldCheck } from './field-checks.js';

/**
 * `GET /server_info`. The anchor sends `uptime, idle_time, title, version, docs, redoc`; newer
 * servers add build and capability fields (kept as they come).
 */
export interface ServerInfo {
  uptime: number;
  idle_time: number;
  title?: string;
  /** The installed agent-server package version, e.g. `1.11.4`. */
  version?: string;
  docs?: string;
  redoc?: string;
  sdk_version?: string | null;
  capabilities?: string[] | null;
  [field: string]: unknown;
}

const SERVER_INFO_FIELDS: Record<string, FieldCheck> = {
  uptime: 'number',
  idle_time: 'number',
  title: 'string?',
  version: 'string?',
  docs: 'string?',
  redoc: 'string?',
  sdk_version: 'string?',
  capabilities: 'string[]?',
};

/** Checked by hand: zod (the classic API) would cost the bundle more than this whole client. */
export const decodeServerInfo: Decoder<ServerInfo> = (input) =>
  checkFields<ServerInfo>(input, SERVER_INFO_FIELDS);

/** One shared `/server_info` request and how many callers still wait for it. */
interface Shared {
  promise: Promise<ServerInfo>;
  controller: AbortController;
  /** Callers waiting with a signal that has not fired; `Infinity` once one waits without a signal. */
  waiting: number;
  settled: boolean;
}

/**
 * One `/server_info` answer per client, shared by concurrent callers (the platform's clients
 * cache it once per HTTP client). A failed fetch is not cached.
 *
 * One caller's abort rejects only that caller; when every caller of a request still pending has aborted
 * (e.g. the subscription that asked was closed), the request itself is aborted, so nothing keeps running or
 * keeps the process alive for an answer nobody waits for.
 */
export class ServerInfoCache {
  readonly #fetch: (signal: AbortSignal) => Promise<ServerInfo>;
  #shared: Shared | undefined;

  constructor(fetch: (signal: AbortSignal) => Promise<ServerInfo>) {
    this.#fetch = fetch;
  }

  get(
    options: { signal?: AbortSignal | undefined; refresh?: boolean | undefined } = {},
  ): Promise<ServerInfo> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(abortError(signal));
    if (options.refresh || !this.#shared) this.#shared = this.#start();
    const shared = this.#shared;
    if (!signal) {
      shared.waiting = Number.POSITIVE_INFINITY;
      return shared.promise;
    }
    shared.waiting += 1;
    return new Promise<ServerInfo>((resolve, reject) => {
      const onAbort = () => {
        reject(abortError(signal));
        shared.waiting -= 1;
        if (shared.waiting <= 0 && !shared.settled) {
          if (this.#shared === shared) this.#shared = undefined;
          shared.controller.abort();
        }
      };
      signal.addEventListener('abort', onAbort, { once: true });
      shared.promise.then(
        (value) => {
          signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  }

  clear(): void {
    this.#shared = undefined;
  }

  #start(): Shared {
    const controller = new AbortController();
    const shared: Shared = {
      promise: this.#fetch(controller.signal),
      controller,
      waiting: 0,
      settled: false,
    };
    shared.promise.then(
      () => {
        shared.settled = true;
      },
      () => {
        shared.settled = true;
        if (this.#shared === shared) this.#shared = undefined;
      },
    );
    return shared;
  }
}

function abortError(signal: AbortSignal): APIUserAbortError {
  return new APIUserAbortError('GET /server_info was aborted', { cause: signal.reason });
}
