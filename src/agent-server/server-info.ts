import * as z from 'zod';
import { APIUserAbortError } from '../core/errors.js';

/**
 * `GET /server_info` (notes §6). The anchor sends `uptime, idle_time, title, version, docs, redoc`; newer
 * servers add build and capability fields, kept as they come.
 */
export const ServerInfoSchema = z.looseObject({
  uptime: z.number(),
  idle_time: z.number(),
  title: z.string().optional(),
  /** The installed agent-server package version, e.g. `1.11.4`. */
  version: z.string().optional(),
  docs: z.string().optional(),
  redoc: z.string().optional(),
  sdk_version: z.string().nullish(),
  capabilities: z.array(z.string()).nullish(),
});
export type ServerInfo = z.infer<typeof ServerInfoSchema>;

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
