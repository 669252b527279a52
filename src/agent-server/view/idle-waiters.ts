import { APIUserAbortError } from '../../core/errors.js';
import type { ConversationSnapshot } from './types.js';

interface IdleWaiter {
  resolve: (snapshot: ConversationSnapshot) => void;
  reject: (error: Error) => void;
}

/** What the view knows when it asks whether its `whenIdle()` callers may go (see `IdleRule`). */
export interface IdleCheck {
  /** Ready, with a terminal status. */
  terminal: boolean;
  /** A send, a run it asked for, or live events are still on their way. */
  waiting: boolean;
  /** The `stats` update after the terminal status is in (`IdleRule.settled`). */
  settled: boolean;
}

/**
 * The callers of `whenIdle()` and the `idleQuiet` timer: the callers resolve once the view is idle, settled or
 * quiet for `idleQuiet` ms with nothing new (docs/conversation-view.md, "Waiting for the end of a run").
 */
export class IdleWaiters {
  readonly #waiters = new Set<IdleWaiter>();
  readonly #quietMs: number;
  readonly #recheck: () => void;
  #quietTimer: ReturnType<typeof setTimeout> | undefined;
  #quietElapsed = false;

  /** `recheck` is called when the quiet period ended: the view checks again with what it knows then. */
  constructor(quietMs: number, recheck: () => void) {
    this.#quietMs = quietMs;
    this.#recheck = recheck;
  }

  /** A new caller; rejects with `APIUserAbortError` when `signal` aborts first. */
  wait(signal: AbortSignal | undefined): Promise<ConversationSnapshot> {
    if (signal?.aborted) return Promise.reject(new APIUserAbortError('whenIdle() was aborted'));
    return new Promise<ConversationSnapshot>((resolve, reject) => {
      const onAbort = () => {
        this.#waiters.delete(waiter);
        reject(new APIUserAbortError('whenIdle() was aborted'));
      };
      const waiter: IdleWaiter = {
        resolve: (snapshot) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(snapshot);
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiters.add(waiter);
    });
  }

  /** Resolves every caller with `snapshot` when idle; else starts (or stops) the quiet period. */
  check(snapshot: ConversationSnapshot, { terminal, waiting, settled }: IdleCheck): void {
    if (this.#waiters.size === 0) return;
    if (!terminal || waiting) {
      this.#clearTimer();
      return;
    }
    if (settled || this.#quietElapsed) {
      for (const waiter of [...this.#waiters]) waiter.resolve(snapshot);
      this.#waiters.clear();
      this.#clearTimer();
      return;
    }
    if (this.#quietTimer === undefined) {
      this.#quietTimer = setTimeout(() => {
        this.#quietTimer = undefined;
        this.#quietElapsed = true;
        this.#recheck();
      }, this.#quietMs);
    }
  }

  /** A new persisted event: the quiet period starts again. */
  activity(): void {
    this.#quietElapsed = false;
    this.#clearTimer();
  }

  /** The view closed: every caller rejects with `error`. */
  rejectAll(error: Error): void {
    this.#clearTimer();
    for (const waiter of [...this.#waiters]) waiter.reject(error);
    this.#waiters.clear();
  }

  #clearTimer(): void {
    if (this.#quietTimer !== undefined) clearTimeout(this.#quietTimer);
    this.#quietTimer = undefined;
  }
}
