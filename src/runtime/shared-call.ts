import { APIConnectionTimeoutError, APIUserAbortError } from '../core/errors.js';

export interface WaitOptions {
  signal?: AbortSignal | undefined;
  /** How long this caller waits for the shared work, in milliseconds. */
  timeout?: number | undefined;
}

/**
 * One piece of work (a login, a key lookup) shared by concurrent callers, each waiting on its own terms:
 * a caller's `signal` or `timeout` ends that caller's wait only. The work itself runs with none of the
 * callers' signals, and is aborted only once every caller has stopped waiting.
 */
export class SharedCall<T> {
  #current: { promise: Promise<T>; controller: AbortController; waiting: number } | undefined;

  run(start: (signal: AbortSignal) => Promise<T>, options: WaitOptions, what: string): Promise<T> {
    if (options.signal?.aborted) return Promise.reject(new APIUserAbortError(`${what} was aborted`));
    let current = this.#current;
    if (!current) {
      const controller = new AbortController();
      const entry = { controller, waiting: 0, promise: undefined as unknown as Promise<T> };
      entry.promise = start(controller.signal).finally(() => {
        if (this.#current === entry) this.#current = undefined;
      });
      // Nobody may be waiting when it fails (every caller gave up): that is not an unhandled rejection.
      entry.promise.catch(() => undefined);
      this.#current = entry;
      current = entry;
    }
    return this.#wait(current, options, what);
  }

  #wait(
    current: { promise: Promise<T>; controller: AbortController; waiting: number },
    options: WaitOptions,
    what: string,
  ): Promise<T> {
    current.waiting++;
    return new Promise<T>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let left = false;
      /** False when this caller already left (gave up, or the work settled). */
      const leave = () => {
        if (left) return false;
        left = true;
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        current.waiting--;
        return true;
      };
      const giveUp = (error: Error) => {
        if (!leave()) return;
        // The last caller gone: stop the work (its requests end with an abort nobody sees).
        if (current.waiting === 0 && this.#current === current) {
          this.#current = undefined;
          current.controller.abort();
        }
        reject(error);
      };
      const onAbort = () =>
        giveUp(new APIUserAbortError(`${what} was aborted`, { cause: options.signal?.reason }));
      options.signal?.addEventListener('abort', onAbort, { once: true });
      if (options.timeout !== undefined) {
        timer = setTimeout(() => giveUp(new APIConnectionTimeoutError(`${what} timed out`)), options.timeout);
      }
      current.promise.then(
        (value) => {
          if (leave()) resolve(value);
        },
        (error: unknown) => {
          if (leave()) reject(error);
        },
      );
    });
  }
}
