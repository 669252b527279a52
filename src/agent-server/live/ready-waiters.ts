import { APIUserAbortError } from '../../core/errors.js';

/** Callers waiting for a ready connection (`Subscription.send`), released or failed all at once. */
export class ReadyWaiters {
  #waiters: { resolve: () => void; reject: (error: unknown) => void }[] = [];

  /** Resolves at the next `release`, rejects at `fail` or when `signal` aborts. */
  wait(signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => reject(new APIUserAbortError('send() was aborted'));
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiters.push({
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      });
    });
  }

  release(): void {
    for (const waiter of this.#waiters.splice(0)) waiter.resolve();
  }

  fail(error: unknown): void {
    for (const waiter of this.#waiters.splice(0)) waiter.reject(error);
  }
}
