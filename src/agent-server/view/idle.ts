import type { ConversationStateMirror, Event } from '../../models/index.js';
import { isTerminalExecutionStatus } from '../../models/index.js';

/**
 * When a conversation counts as idle for `whenIdle()` (docs/conversation-view.md, "Waiting for the end of a
 * run"): the status is terminal, the run a `send()` asked for has shown (a status that is not terminal came
 * after the send, so the previous run's `finished` does not count), every sent message is persisted (the view
 * checks that), and the `stats` update the server persists right after the terminal status is in (the real
 * 1.58.2 stores it a few milliseconds after `execution_status: finished`). From a server that sends none, the
 * view settles for `idleQuiet` ms without a new persisted event instead.
 *
 * The `stats` update is seen as a change of the state mirror's `stats` after it turned terminal: live updates
 * are followed through the mirror only (on 1.58.2 the update reached the mirror without an event; on 1.44.1 the
 * event came a task before the mirror had it, so settling on the event would resolve with a snapshot whose
 * `state` lacks it). What happened before the view opened is read from the newest page's events, in server
 * order (a terminal status, then `stats`).
 */
export class IdleRule {
  /** From the state mirror, in the order the live layer applies updates. */
  #terminal = false;
  #terminalStats: unknown;
  #statsChanged = false;
  #runPending = false;
  /** From persisted events, in server order. */
  #eventTerminal = false;
  #eventStatsAfter = false;

  /** `send()` with `run`: the run must show before idle. */
  sent(): void {
    this.#runPending = true;
  }

  /** Every state the live layer gives, in order. */
  state(state: ConversationStateMirror): void {
    const status = state.execution_status;
    if (isTerminalExecutionStatus(status)) {
      if (!this.#terminal) {
        this.#terminal = true;
        this.#terminalStats = state.stats;
        this.#statsChanged = false;
      } else if (state.stats !== this.#terminalStats) this.#statsChanged = true;
      return;
    }
    this.#terminal = false;
    this.#statsChanged = false;
    // A run started since the page was read: what the page said about the end of the last one is over.
    this.#eventTerminal = false;
    this.#eventStatsAfter = false;
    if (status !== undefined) this.#runPending = false;
  }

  /** A persisted event of the newest page, in server order. */
  observe(event: Event): void {
    if (event.kind !== 'ConversationStateUpdateEvent') return;
    const { key, value } = event as { key?: unknown; value?: unknown };
    if (key === 'execution_status') {
      this.#eventTerminal = isTerminalExecutionStatus(value);
      this.#eventStatsAfter = false;
    } else if (key === 'stats' && this.#eventTerminal) this.#eventStatsAfter = true;
  }

  /** True while a run `send()` asked for has not shown yet. */
  get runPending(): boolean {
    return this.#runPending;
  }

  /** True when the `stats` update after the terminal status is in (no quiet period needed). */
  get settled(): boolean {
    return !this.#runPending && (this.#statsChanged || (this.#eventTerminal && this.#eventStatsAfter));
  }
}
