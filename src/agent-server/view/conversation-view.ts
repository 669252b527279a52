import { APIUserAbortError } from '../../core/errors.js';
import { type ConversationStateMirror, type Event, isTerminalExecutionStatus } from '../../models/index.js';
import type { EventsClient } from '../events-client.js';
import { invalid } from '../invalid.js';
import type { Subscription } from '../live/subscription.js';
import type { StreamDelta } from '../live/types.js';
import { type MessageInput, toWireMessage } from '../message-input.js';
import { ViewClosedError } from './errors.js';
import { eventTime } from './event-keys.js';
import { IdleRule } from './idle.js';
import { IdleWaiters } from './idle-waiters.js';
import { HistoryReader } from './pages.js';
import { PendingMessages } from './pending.js';
import { Projection } from './projection.js';
import { MessageSends } from './sends.js';
import { SnapshotBuilder, sameSnapshot } from './snapshot-builder.js';
import { StreamedText } from './streaming.js';
import type {
  ConversationSnapshot,
  ConversationViewApi,
  ConversationViewOptions,
  LoadOlderOptions,
  ViewConnection,
  ViewSendOptions,
  WhenIdleOptions,
} from './types.js';
import { type ViewSettings, viewSettings } from './view-options.js';

/**
 * A live conversation for a screen (docs/conversation-view.md): the newest page of the history, older pages on
 * demand, the live stream, streamed text and optimistic sends, as one immutable snapshot with a
 * `useSyncExternalStore`-shaped `subscribe` / `getSnapshot`.
 *
 * The parts: `HistoryReader` (REST pages, newest first), the live layer's `Subscription` (live only),
 * `Projection` (events → items), `StreamedText`, `PendingMessages` with `MessageSends`, `IdleRule` with
 * `IdleWaiters`, and `SnapshotBuilder`. This class orders what they give and publishes it, once per microtask.
 */
export class ConversationView implements ConversationViewApi {
  readonly conversationId: string;
  readonly ready: Promise<void>;

  readonly #events: EventsClient;
  readonly #settings: ViewSettings;
  readonly #reader: HistoryReader;
  readonly #live: Subscription;
  readonly #projection = new Projection();
  readonly #stream = new StreamedText();
  readonly #pending = new PendingMessages();
  readonly #idle = new IdleRule();
  readonly #sends: MessageSends;
  readonly #idleWaiters: IdleWaiters;
  readonly #builder = new SnapshotBuilder();
  readonly #listeners = new Set<() => void>();
  readonly #aborter = new AbortController();

  /** Live events delivered before the newest page was shown, then each burst until the next flush. */
  #incoming: Event[] = [];
  #historyShown = false;
  /** The oldest event read (state updates included): where `loadOlder()` continues. */
  #oldest: Event | undefined;
  #hasOlder = true;
  #loadingOlder: Promise<boolean> | undefined;
  #connection: ViewConnection = 'connecting';
  #connected = false;
  #error: Error | undefined;
  #ready = false;
  #closed = false;
  #snapshot: ConversationSnapshot;
  #scheduled = false;

  constructor(conversationId: string, events: EventsClient, options?: ConversationViewOptions) {
    this.#settings = viewSettings(options);
    this.conversationId = conversationId;
    this.#events = events;
    this.#reader = new HistoryReader(events, conversationId, this.#settings.pageSize);
    const { echoTimeout, idleQuiet } = this.#settings;
    this.#sends = new MessageSends(events, conversationId, this.#pending, echoTimeout, () => this.#changed());
    this.#idleWaiters = new IdleWaiters(idleQuiet, () => this.#checkIdle());
    this.#snapshot = this.#build();
    // Live only, opened before the newest page is read: it delivers everything persisted from here on (or a
    // little earlier), and the page everything before, so the two overlap and the projection drops the overlap
    // by id. `after: position` would do it too, but on /sockets/session a position without `seq` (REST pages
    // have none) replays the whole log, and opening would grow with the conversation.
    this.#live = events.subscribe(conversationId, { ...this.#settings.live, signal: this.#aborter.signal });
    this.#live.on('event', (event) => this.#onEvent(event));
    this.#live.on('delta', (delta) => this.#onDelta(delta));
    this.#live.on('state', (state) => this.#onState(state));
    this.#live.on('open', (info) => {
      // Streamed output is never replayed: what a lost connection was streaming would never be cleared.
      if (info.resumed) this.#stream.clear();
      this.#connected = true;
      this.#connection = 'live';
      this.#changed();
    });
    this.#live.on('reconnecting', () => {
      // Connection problems are shown only once a connection worked.
      if (!this.#connected) return;
      this.#stream.clear();
      this.#connection = 'reconnecting';
      this.#changed();
    });
    this.#live.on('close', (info) => this.#finish(info.error));
    const shown = this.#reader.newest(this.#aborter.signal).then((page) => {
      this.#hasOlder = page.hasOlder;
      const early = this.#incoming;
      this.#incoming = [];
      const last = page.events[page.events.length - 1];
      const newest = last === undefined ? undefined : eventTime(last);
      // The live stream may have delivered events the page did not reach (more than a page persisted
      // between the two reads): they are older than the page's newest, so the union is put in server order.
      const all =
        newest !== undefined && early.some((event) => eventTime(event) < newest)
          ? sortByTimestamp(page.events.concat(early))
          : page.events.concat(early);
      this.#historyShown = true;
      this.#oldest = page.events[0];
      // Only the page's order tells the idle rule about what happened before the view opened; live updates
      // reach it through the state mirror (an update is delivered as an event before the mirror has it).
      for (const event of page.events) this.#idle.observe(event);
      this.#addNewer(all);
      this.#changed();
    });
    shown.catch((error: unknown) => this.#fail(error));
    this.ready = Promise.all([shown, this.#live.ready]).then(() => {
      if (this.#closed) throw this.#closedError();
      this.#ready = true;
      // `ready` resolves with the connection ready too, and `open` may be emitted after it.
      this.#connected = true;
      if (this.#connection === 'connecting') this.#connection = 'live';
      // Published now, so the snapshot is current when `await view.ready` continues.
      this.#publish();
    });
    this.ready.catch(() => undefined);
    const signal = this.#settings.signal;
    if (signal?.aborted) this.close();
    else signal?.addEventListener('abort', () => this.close(), { once: true });
  }

  getSnapshot(): ConversationSnapshot {
    return this.#snapshot;
  }

  subscribe(listener: () => void): () => void {
    if (typeof listener !== 'function') throw invalid('listener', 'must be a function');
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /**
   * Reads the page before the oldest event shown and shows it; resolves with `hasOlder` after it. While a
   * load runs, another call gets the same promise. Rejects with the request's error (the view goes on).
   */
  loadOlder(options: LoadOlderOptions = {}): Promise<boolean> {
    if (this.#closed) return Promise.reject(this.#closedError());
    if (this.#loadingOlder) return this.#loadingOlder;
    if (!this.#hasOlder) return Promise.resolve(false);
    const load = this.#loadOlder(options.signal).finally(() => {
      this.#loadingOlder = undefined;
      this.#changed();
    });
    this.#loadingOlder = load;
    this.#changed();
    return load;
  }

  /**
   * Sends a user message (`POST …/events`, with `run: true` unless `run: false`). A `user-message` item with
   * `pending: {state: 'sending'}` is shown at once; the persisted MessageEvent takes its place when it arrives.
   * Resolves when the server accepted the message. When the request fails the item turns `failed` (with the
   * error) and the promise rejects; when the echo does not come within `echoTimeout` the item turns `failed`
   * with a `ViewEchoTimeoutError`. `retry(item.id)` sends a failed one again.
   */
  send(message: MessageInput, options: ViewSendOptions = {}): Promise<void> {
    toWireMessage(message);
    checkSendOptions(options);
    if (this.#closed) return Promise.reject(this.#closedError());
    const id = this.#pending.add(message);
    // Shown at once: `getSnapshot()` right after `send()` has the pending item.
    this.#publish();
    return this.#deliver(id, message, options);
  }

  /** Sends a failed pending message again (see `send`); RequestValidationError when `itemId` is not one. */
  retry(itemId: string, options: ViewSendOptions = {}): Promise<void> {
    checkSendOptions(options);
    const item = this.#pending.get(itemId);
    if (item?.pending?.state !== 'failed') {
      throw invalid('itemId', `must be the id of a failed pending message, got ${JSON.stringify(itemId)}`);
    }
    if (this.#closed) return Promise.reject(this.#closedError());
    this.#pending.resend(itemId);
    this.#publish();
    return this.#deliver(itemId, item.pending.message, options);
  }

  /**
   * Resolves with the snapshot once the conversation is idle (docs/conversation-view.md, "Waiting for the end
   * of a run"): a terminal status, every sent message persisted with a status update after it, and the `stats`
   * update the server persists after the status in the snapshot (or `idleQuiet` ms without a new event, from
   * servers that send none). Rejects with `APIUserAbortError` on abort, and when the view closes first.
   */
  whenIdle(options: WhenIdleOptions = {}): Promise<ConversationSnapshot> {
    if (this.#closed) return Promise.reject(this.#closedError());
    const idle = this.#idleWaiters.wait(options.signal);
    this.#checkIdle();
    return idle;
  }

  /** Closes the live stream and cancels every request and timer; the snapshot stays as it was, `closed`. */
  close(): void {
    this.#finish(undefined);
  }

  toJSON(): Record<string, unknown> {
    return { conversation: this.conversationId, connection: this.#connection };
  }

  async #loadOlder(signal: AbortSignal | undefined): Promise<boolean> {
    const oldest = this.#oldest;
    if (oldest === undefined) {
      await this.ready;
      if (this.#oldest === undefined) {
        this.#hasOlder = false;
        return false;
      }
      return this.#loadOlder(signal);
    }
    const page = await this.#reader.older((event) => !this.#projection.hasEvent(event), signal);
    if (this.#closed) throw this.#closedError();
    this.#hasOlder = page.hasOlder;
    if (page.events.length > 0) {
      this.#oldest = page.events[0];
      this.#projection.prepend(page.events);
    }
    return this.#hasOlder;
  }

  #deliver(id: string, message: MessageInput, options: ViewSendOptions): Promise<void> {
    if (options.run ?? true) this.#idle.sent();
    return this.#sends.deliver(id, message, options);
  }

  #onEvent(event: Event): void {
    if (this.#closed) return;
    this.#incoming.push(event);
    if (this.#historyShown) this.#changed();
  }

  #onDelta(delta: StreamDelta): void {
    if (this.#closed) return;
    if (this.#stream.apply(delta)) this.#changed();
  }

  #onState(state: ConversationStateMirror): void {
    if (this.#closed) return;
    this.#idle.state(state);
    if (state.execution_status !== 'running') this.#stream.clear();
    this.#changed();
  }

  /**
   * Live events, in server order. The live stream also delivers a few events from just before it opened (its
   * catch-up starts at the server's time of the open, to the millisecond): those the page holds are dropped by
   * id, and those older than the oldest event shown are left to `loadOlder()`, which reads them in their place.
   */
  #addNewer(events: Event[]): void {
    const floor = this.#hasOlder && this.#oldest !== undefined ? eventTime(this.#oldest) : undefined;
    if (floor !== undefined) events = events.filter((event) => eventTime(event) >= floor);
    if (events.length === 0) return;
    for (const event of events) {
      if (this.#projection.hasEvent(event)) continue;
      this.#stream.persisted(event);
      const echoed = this.#pending.echo(event);
      if (echoed !== undefined) this.#sends.echoed(echoed);
    }
    this.#projection.append(events);
    this.#idleWaiters.activity();
  }

  #changed(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(() => this.#publish());
  }

  #publish(): void {
    this.#scheduled = false;
    if (this.#incoming.length > 0 && this.#historyShown && !this.#closed) {
      const burst = this.#incoming;
      this.#incoming = [];
      this.#addNewer(burst);
    }
    const next = this.#build();
    if (!sameSnapshot(next, this.#snapshot)) {
      this.#snapshot = next;
      this.#notify();
    }
    this.#checkIdle();
  }

  #notify(): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener();
      } catch (error) {
        // A listener's fault must not stop the others or the view: it is reported as an uncaught error would be.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }

  #build(): ConversationSnapshot {
    return this.#builder.build({
      persisted: this.#projection.items,
      streamed: this.#stream.item,
      pending: this.#pending.items,
      hasOlder: this.#hasOlder,
      loadingOlder: this.#loadingOlder !== undefined,
      ready: this.#ready,
      connection: this.#connection,
      error: this.#error,
      // Undefined while the constructor builds the first snapshot, before the subscription exists.
      state: this.#live?.state,
    });
  }

  #checkIdle(): void {
    const snapshot = this.#snapshot;
    this.#idleWaiters.check(snapshot, {
      terminal: this.#ready && isTerminalExecutionStatus(snapshot.status),
      waiting: this.#pending.sending || this.#idle.runPending || this.#incoming.length > 0,
      settled: this.#idle.settled,
    });
  }

  #fail(error: unknown): void {
    if (this.#closed) return;
    this.#finish(error instanceof Error ? error : new Error(String(error)));
  }

  #finish(error: Error | undefined): void {
    if (this.#closed) return;
    this.#closed = true;
    if (error && !(error instanceof APIUserAbortError)) this.#error = error;
    this.#connection = 'closed';
    this.#stream.clear();
    this.#sends.close();
    this.#aborter.abort();
    this.#live.close();
    this.#idleWaiters.rejectAll(this.#closedError());
    this.#snapshot = this.#build();
    this.#notify();
  }

  #closedError(): Error {
    return this.#error ?? new ViewClosedError('The conversation view was closed');
  }
}

function sortByTimestamp(events: Event[]): Event[] {
  return events
    .map((event, index) => ({ event, index }))
    .sort((a, b) => {
      const x = eventTime(a.event);
      const y = eventTime(b.event);
      return x < y ? -1 : x > y ? 1 : a.index - b.index;
    })
    .map(({ event }) => event);
}

function checkSendOptions(options: ViewSendOptions): void {
  if (typeof options !== 'object' || options === null) throw invalid('options', 'must be an object');
  if (options.run !== undefined && typeof options.run !== 'boolean') {
    throw invalid('options.run', 'must be a boolean');
  }
}
