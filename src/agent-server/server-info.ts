import { APIUserAbortError } from '../core/errors.js';
import type { Decoder } from '../core/transport.js';
import { checkFields, type FieldCheck } from './field-checks.js';

/**
 * `GET /server_info` (notes §6). The anchor sends `uptime, idle_time, title, version, docs, redoc`; newer
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

/**
 * One `/server_info` answer per client, shared by concurrent callers (notes §6: the platform's clients
 * cache it once per HTTP client). A failed fetch is not cached.
 */
export class ServerInfoCache {
  readonly #fetch: () => Promise<ServerInfo>;
  #pending: Promise<ServerInfo> | undefined;

  /** `fetch` gets no signal: the request is shared, so one caller's abort must not cancel it for others. */
  constructor(fetch: () => Promise<ServerInfo>) {
    this.#fetch = fetch;
  }

  get(
    options: { signal?: AbortSignal | undefined; refresh?: boolean | undefined } = {},
  ): Promise<ServerInfo> {
    if (options.refresh || !this.#pending) {
      const pending = this.#fetch();
      this.#pending = pending;
      pending.catch(() => {
        if (this.#pending === pending) this.#pending = undefined;
      });
    }
    const shared = this.#pending;
    // An abort of one caller must not reject the others: race the shared answer with this caller's signal.
    return options.signal ? raceAbort(shared, options.signal) : shared;
  }

  clear(): void {
    this.#pending = undefined;
  }
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  const aborted = () => new APIUserAbortError('GET /server_info was aborted', { cause: signal.reason });
  if (signal.aborted) return Promise.reject(aborted());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(aborted());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
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
