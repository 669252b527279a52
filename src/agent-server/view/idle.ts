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
 * The `stats` update is seen either way it can come: as a change of the state mirror's `stats` after it turned
 * terminal (the live layer may apply an update to the mirror without delivering it as an event, e.g. a
 * transient copy on `/sockets/session`), or as persisted events in server order (the history read at open).
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
    if (status !== undefined) this.#runPending = false;
  }

  /** A persisted event, in server order (the newest page, then live). */
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
