import { type Event, isTerminalExecutionStatus } from '../../models/index.js';

/**
 * When a conversation counts as idle for `whenIdle()` (docs/conversation-view.md, "Waiting for the end of a
 * run"): its status is terminal, every message `send()` delivered has its persisted echo, a status update came
 * after the newest such echo (so the previous run's `finished` does not count), and the events the server
 * persists right after the status are in: the `stats` update that follows it (the real 1.58.2 stores it a few
 * milliseconds after `execution_status: finished`), or, from a server that sends none, `idleQuiet` ms without a
 * new persisted event.
 *
 * This class only follows the persisted state updates in server order; the view owns the quiet timer.
 */
export class IdleRule {
  #terminal = false;
  #statsAfter = false;
  #echoWaiting = false;

  /** A persisted event, in server order (history then live). */
  observe(event: Event): void {
    if (event.kind !== 'ConversationStateUpdateEvent') return;
    if (event.key === 'execution_status') {
      this.#terminal = isTerminalExecutionStatus(event.value);
      this.#statsAfter = false;
      this.#echoWaiting = false;
    } else if (event.key === 'stats') {
      if (this.#terminal) this.#statsAfter = true;
    } else if (event.key === 'full_state') {
      const status = (event.value as { execution_status?: unknown } | null | undefined)?.execution_status;
      if (status !== undefined) {
        this.#terminal = isTerminalExecutionStatus(status);
        this.#statsAfter = false;
        this.#echoWaiting = false;
      }
    }
  }

  /** The echo of a message sent with `run`: the run it starts must report its status before idle. */
  echoed(): void {
    this.#echoWaiting = true;
  }

  /** True when the `stats` update after the terminal status arrived (no quiet period needed). */
  get settled(): boolean {
    return this.#statsAfter && !this.#echoWaiting;
  }

  /** True while a message sent with `run` was persisted but no status update followed it yet. */
  get echoWaiting(): boolean {
    return this.#echoWaiting;
  }
}
