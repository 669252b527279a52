import type { ReconnectOptions } from './reconnect-options.js';
import type { ReconnectReason } from './types.js';

/**
 * Exponential backoff with jitter for attempt `attempt` (1-based): a random delay between half and all of
 * `min(cap, start × 2^(attempt-1))`, so many clients dropped together do not come back together, and a delay
 * is never near zero. After a 1013 the start is `overloadedDelay` and the cap at least that.
 */
export function backoffDelay(
  attempt: number,
  options: Required<ReconnectOptions>,
  overloaded: boolean,
  random: () => number = Math.random,
): number {
  const start = overloaded ? options.overloadedDelay : options.initialDelay;
  const cap = overloaded ? Math.max(options.maxDelay, options.overloadedDelay) : options.maxDelay;
  const base = Math.min(cap, start * 2 ** Math.max(0, attempt - 1));
  return Math.round(base / 2 + (random() * base) / 2);
}

/** What the policy decided after a failed connection. */
export type RetryDecision = { giveUp: string } | { delay: number };

/**
 * The reconnect policy of one subscription: counts failed attempts, measures the outage and says when to try
 * again or give up. Two budgets:
 * - while the host never answered at all, `connectTimeout` (default 10 s) from `subscribe()`: a host that is
 *   refused, unknown or fails TLS is reported within it instead of being retried for the long budget;
 * - once a connection worked, `reconnect.giveUpAfter` (default 45 s) per outage, or `leaseTimeout` while the
 *   server waits for a conversation lease.
 * Progress is success: a connection that delivered new events (or got live) ends the outage and resets the
 * backoff, so a server dropped again and again while it replays never runs the subscription out of budget.
 */
export class ReconnectPolicy {
  readonly #options: Required<ReconnectOptions>;
  readonly #connectTimeout: number;
  readonly #started = Date.now();
  #attempt = 0;
  #outageSince: number | undefined;
  #worked = false;
  #answered = false;

  constructor(options: Required<ReconnectOptions>, connectTimeout: number) {
    this.#options = options;
    this.#connectTimeout = connectTimeout;
  }

  /** Consecutive failed attempts so far. */
  get attempt(): number {
    return this.#attempt;
  }

  /** True once a connection delivered events or got live. */
  get worked(): boolean {
    return this.#worked;
  }

  /** The host answered (its `/server_info`): it is reachable, whatever fails after that. */
  answered(): void {
    this.#answered = true;
  }

  /** Milliseconds left of the first-connection budget (`Infinity` once the host answered or a connection worked). */
  connectBudgetLeft(now = Date.now()): number {
    if (this.#worked || this.#answered) return Number.POSITIVE_INFINITY;
    return Math.max(0, this.#started + Math.min(this.#connectTimeout, this.#options.giveUpAfter) - now);
  }

  progress(): void {
    this.#worked = true;
    this.#attempt = 0;
    this.#outageSince = undefined;
  }

  /**
   * A connection failed: when to try again, or why not. `unreachable`: the host did not answer at all
   * (refused, DNS, TLS, no route), the failure the first-connection budget is for.
   */
  failed(reason: ReconnectReason, unreachable: boolean, now = Date.now()): RetryDecision {
    this.#attempt += 1;
    this.#outageSince ??= now;
    if (this.#attempt > this.#options.maxAttempts)
      return { giveUp: `${this.#options.maxAttempts} failed connection attempts` };
    if (unreachable && !this.#worked && !this.#answered) {
      const budget = Math.min(this.#connectTimeout, this.#options.giveUpAfter);
      const left = Math.max(0, this.#started + budget - now);
      if (left <= 0)
        return {
          giveUp: `no connection within ${budget} ms of subscribe() (connectTimeout ${this.#connectTimeout} ms, at most reconnect.giveUpAfter ${this.#options.giveUpAfter} ms)`,
        };
      // The last try fits in the budget: the error comes when the budget says, not a backoff later.
      return { delay: Math.min(this.#delay(reason), left) };
    }
    const limit =
      reason === 'conversation-lease'
        ? Math.max(this.#options.giveUpAfter, this.#options.leaseTimeout)
        : this.#options.giveUpAfter;
    const outage = now - this.#outageSince;
    if (outage >= limit)
      return { giveUp: `no working connection for ${outage} ms (reconnect.giveUpAfter ${limit} ms)` };
    return { delay: this.#delay(reason) };
  }

  #delay(reason: ReconnectReason): number {
    return backoffDelay(this.#attempt, this.#options, reason === 'overloaded');
  }
}
