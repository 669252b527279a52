import { APIUserAbortError } from '../../core/errors.js';
import type { SafeLogger } from '../../core/logger.js';
import { isConversationStateUpdateEvent } from '../../models/guards.js';
import type { ConversationStateMirror, Event, KnownEventKind, KnownEventMap } from '../../models/index.js';
import { applyStateUpdate, FULL_STATE_KEY } from '../../models/state-mirror.js';
import { SubscriptionOverflowError, SubscriptionProtocolError } from '../errors.js';
import { DeliveryLedger, type ResumePosition } from './delivery-ledger.js';
import { EventQueue } from './event-queue.js';
import type { SafeEmitter } from './safe-emitter.js';
import type { LiveSettings } from './subscribe-options.js';

/**
 * The one place events reach the application, whatever socket they came from: exactly once by identity
 * (`DeliveryLedger`), in the order they are handed in, to every `for await` loop (bounded buffers, see
 * `overflowing`) and to the typed emitter, with the `state` mirror kept alongside. The protocol adapters
 * decide the order; the core decides nothing about sockets.
 */
export class DeliveryCore {
  readonly ledger: DeliveryLedger;
  readonly #settings: LiveSettings;
  readonly #emitter: SafeEmitter;
  readonly #logger: SafeLogger;
  /** What the stream is called in log lines (the conversation id, or `bash-events`). */
  readonly #name: string;
  // An array, not a Set: it is walked for every event.
  #queues: EventQueue<Event>[];
  /**
   * Events delivered before the first `for await` loop asked for them (e.g. while the app awaited a `send`):
   * kept for that first loop, so none is lost. Bounded like every loop's buffer: an app that only listens to
   * the emitter never iterates, so when the backlog fills it is dropped (logged at warn level) instead of
   * pausing the stream, and a first loop started after that gets SubscriptionOverflowError.
   */
  #backlog: EventQueue<Event> | undefined;
  #backlogLost = 0;
  #loops = 0;
  #drainWaiters: (() => void)[] = [];
  #ended = false;
  #endError: Error | undefined;
  #state: ConversationStateMirror | undefined;
  /**
   * True once `#state` may be held outside (read through `state`, emitted on `state`): the next update copies
   * it. Until then a stream's per-key updates set the field in place (with the event check moved before the kind
   * lookup, 7-8% of the stream's speed: docs/performance.md "Against the floor"). Every object handed out stays
   * as it was.
   */
  #stateShared = false;
  #stateTimestamp: string | undefined;
  /** Events admitted so far (the reconnect policy counts a connection that raised it as progress). */
  delivered = 0;
  /** Session protocol: `seq` of the last persisted event delivered. */
  lastSeq: number | undefined;

  constructor(settings: LiveSettings, emitter: SafeEmitter, logger: SafeLogger, name: string) {
    this.#settings = settings;
    this.#emitter = emitter;
    this.#logger = logger;
    this.#name = name;
    this.ledger = new DeliveryLedger(settings.dedupeWindow);
    this.#backlog = new EventQueue<Event>(() => this.#onTake());
    this.#queues = [this.#backlog];
  }

  get state(): ConversationStateMirror | undefined {
    this.#stateShared = true;
    return this.#state;
  }

  get position(): ResumePosition | undefined {
    const position = this.ledger.position();
    return position && this.lastSeq !== undefined ? { ...position, seq: this.lastSeq } : position;
  }

  get buffered(): number {
    let most = 0;
    for (const queue of this.#queues) most = Math.max(most, queue.size);
    return most;
  }

  get bufferedBytes(): number {
    let most = 0;
    for (const queue of this.#queues) most = Math.max(most, queue.bytes);
    return most;
  }

  /**
   * Delivers one event unless it is a duplicate or older than wanted. True when a `for await` buffer is now
   * full. `id`, `position` (its position timestamp) and `bytes` are as the server sent it. Runs for every
   * event: no allocation, no emit to a name nobody listens to.
   */
  deliver(
    event: Event,
    id: string,
    position: string | undefined,
    bytes: number,
    applyFloor = true,
    sequenced = false,
  ): boolean {
    if (!this.ledger.admit(id, position, applyFloor)) {
      // A sequenced duplicate is judged by its `seq` (FrameReader); any other is checked for a reused id.
      if (!sequenced) this.checkReuse(event, id, position);
      return false;
    }
    this.delivered += 1;
    const queues = this.#queues;
    const max = this.#settings.maxBuffered;
    const maxBytes = this.#settings.maxBufferedBytes;
    let full = false;
    for (let i = 0; i < queues.length; i += 1) {
      const queue = queues[i]!;
      if (queue.push(event, bytes) >= max || queue.bytes >= maxBytes) full = true;
    }
    const backlog = this.#backlog;
    if (full && backlog !== undefined && (backlog.size >= max || backlog.bytes >= maxBytes))
      full = this.#dropBacklog();
    const kind = event.kind as KnownEventKind; // an unknown kind has no listeners of its own
    const emitter = this.#emitter;
    if (emitter.anyListener()) {
      if (emitter.listens('event')) emitter.emitEvent('event', event);
      if (emitter.listens(kind)) emitter.emitEvent(kind, event);
    }
    if (kind === 'ConversationStateUpdateEvent' && isConversationStateUpdateEvent(event))
      this.#applyPersistedUpdate(event, position);
    return full;
  }

  /**
   * An event that was not admitted: if its id was delivered before with another timestamp, the id was reused
   * for new content. Not delivered again (exactly once by id), and not silent: logged and reported as
   * `SubscriptionProtocolError`, on every socket alike (a resend or a REST read of the same event agrees).
   */
  checkReuse(event: Event, id: string, position: string | undefined): void {
    const reuse = this.ledger.reusedAt(id, position);
    if (reuse === undefined) return;
    this.reportProtocolError(
      `event id ${id} was reused with new content (a ${event.kind} stamped ${position ?? 'without a timestamp'}, delivered before stamped ${reuse.before ?? 'without one'}); not delivered again`,
    );
  }

  /** A fault of the server's stream: logged at warn level and reported on `error`. */
  reportProtocolError(message: string): void {
    this.#logger.warn(`subscription to ${this.#name}: ${message}`);
    this.#emitter.emit('error', new SubscriptionProtocolError(message));
  }

  /** A `full_state` snapshot: replaces the mirror. */
  snapshot(event: KnownEventMap['ConversationStateUpdateEvent'], timestamp: string | undefined): void {
    this.#state = applyStateUpdate(undefined, event);
    this.#stateTimestamp = timestamp;
    this.#emitState(this.#state);
  }

  /** A state update that is not delivered as an event (a transient per-key update, the REST fallback). */
  update(event: KnownEventMap['ConversationStateUpdateEvent']): void {
    this.#state = applyStateUpdate(this.#state, event);
    this.#emitState(this.#state);
  }

  replaceState(state: Record<string, unknown>): void {
    this.#state = { ...state } as ConversationStateMirror;
    this.#emitState(this.#state);
  }

  #emitState(state: ConversationStateMirror): void {
    this.#stateShared = true;
    this.#emitter.emit('state', state);
  }

  /** Catch-up events can be older than the snapshot the connection started with: they must not roll it back. */
  #applyPersistedUpdate(event: KnownEventMap['ConversationStateUpdateEvent'], timestamp: string | undefined) {
    if (this.#stateTimestamp !== undefined && timestamp !== undefined && timestamp < this.#stateTimestamp)
      return;
    const state = this.#state;
    const { key } = event;
    if (
      state !== undefined &&
      !this.#stateShared &&
      key !== undefined &&
      key !== FULL_STATE_KEY &&
      key !== '__proto__'
    )
      // As applyStateUpdate sets the field (an absent value is `null`), without the copy.
      (state as Record<string, unknown>)[key] = event.value === undefined ? null : event.value;
    else {
      const next = applyStateUpdate(state, event);
      // A new object is nobody's yet; the same one (an update that changes nothing) stays as shared as it was.
      if (next !== state) {
        this.#state = next;
        this.#stateShared = false;
      }
    }
    // The bound stays the snapshot's: a later update stamped before an earlier one still applies, in delivery
    // order (1.44.1 persists the run's last `stats` update after `finished` but stamped before it; skipping it
    // left the mirror with the previous stats: test/conformance/conversation-view.test.ts).
    if (this.#emitter.listens('state')) this.#emitState(this.#state as ConversationStateMirror);
  }

  // ---- the for-await loops ----------------------------------------------------------------------------

  /** A loop's iterator; `onReturn` runs when the loop stops early (`break`). */
  iterator(onReturn: () => void): AsyncIterator<Event> {
    // The first loop takes over the backlog (already in #queues, and ended with the subscription if it ended).
    const backlog = this.#backlog;
    this.#backlog = undefined;
    this.#loops += 1;
    const queue = backlog ?? new EventQueue<Event>(() => this.#onTake());
    if (backlog === undefined) {
      if (this.#loops === 1 && this.#backlogLost > 0) {
        // The events this loop was started for went to listeners only: say so instead of going on silently.
        queue.end(
          new SubscriptionOverflowError(
            `${this.#backlogLost} events arrived before the first for-await loop started and were dropped (${this.#limits()}): start the loop right after subscribe(), or use subscription.position to resume`,
          ),
        );
      } else if (this.#ended) queue.end(this.#endError);
      else this.#queues = [...this.#queues, queue];
    }
    return {
      next: () => queue.next(),
      return: async () => {
        this.#queues = this.#queues.filter((item) => item !== queue);
        queue.clear();
        onReturn();
        return { value: undefined, done: true };
      },
    };
  }

  /** True when a loop's buffer is at `maxBufferedEvents` or `maxBufferedBytes`. */
  overflowing(): boolean {
    const queues = this.#queues;
    const { maxBuffered, maxBufferedBytes } = this.#settings;
    for (let i = 0; i < queues.length; i += 1) {
      const queue = queues[i]!;
      if (queue.size >= maxBuffered || queue.bytes >= maxBufferedBytes) return true;
    }
    return false;
  }

  /** True when a loop has anything waiting: the consumer, not the server, is what is slow. */
  behind(): boolean {
    for (const queue of this.#queues) if (queue.size > 0) return true;
    return false;
  }

  overflowError(): SubscriptionOverflowError {
    return new SubscriptionOverflowError(
      `The consumer fell behind by ${this.buffered} events, ${this.bufferedBytes} bytes (${this.#limits()}); onOverflow is 'error'`,
    );
  }

  /** Resolves when every loop's buffer is down to half its bounds (or the subscription ends). */
  drained(): Promise<void> {
    if (!this.#aboveHalf()) return Promise.resolve();
    return new Promise((resolve) => this.#drainWaiters.push(resolve));
  }

  /** Ends every loop (`error`: thrown by each after what is queued). */
  end(error: Error | undefined): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#endError = error;
    for (const resolve of this.#drainWaiters.splice(0)) resolve();
    for (const queue of this.#queues) queue.end(error);
    this.#queues = [];
  }

  /** An aborted subscription's loops throw this. */
  static aborted(): APIUserAbortError {
    return new APIUserAbortError('The subscription was aborted');
  }

  #limits(): string {
    return `maxBufferedEvents ${this.#settings.maxBuffered}, maxBufferedBytes ${this.#settings.maxBufferedBytes}`;
  }

  /** No loop took events within the bounds: listeners only; the first loop started later gets an overflow. */
  #dropBacklog(): boolean {
    const backlog = this.#backlog;
    this.#backlog = undefined;
    this.#queues = this.#queues.filter((queue) => queue !== backlog);
    this.#backlogLost = backlog?.size ?? 0;
    backlog?.clear();
    this.#logger.warn(
      `no for-await loop took events within ${this.#backlogLost} events (${this.#limits()}): they went to listeners only; a for-await loop started later gets SubscriptionOverflowError`,
    );
    return this.overflowing();
  }

  #aboveHalf(): boolean {
    const low = Math.floor(this.#settings.maxBuffered / 2);
    const lowBytes = Math.floor(this.#settings.maxBufferedBytes / 2);
    for (const queue of this.#queues) if (queue.size > low || queue.bytes > lowBytes) return true;
    return false;
  }

  #onTake(): void {
    if (this.#drainWaiters.length > 0 && !this.#aboveHalf()) {
      for (const resolve of this.#drainWaiters.splice(0)) resolve();
    }
  }
}
