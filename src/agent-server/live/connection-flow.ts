import type { KnownEventMap } from '../../models/index.js';
import { SubscriptionOverflowError } from '../errors.js';
import { BashSubscriptionProof } from './bash-subscription-proof.js';
import type { Retry } from './close-classifier.js';
import type { Connection } from './connection.js';
import type { SubscriptionContext } from './context.js';
import type { DeliveryCore } from './delivery-core.js';
import { FrameReader, type FrameSink } from './frame-reader.js';
import type { Positioned } from './positioned.js';
import type { ReconnectPolicy } from './reconnect-policy.js';
import type { SafeEmitter } from './safe-emitter.js';
import { serverTimeBefore } from './server-time.js';
import type { LiveSettings } from './subscribe-options.js';
import type { SubscriptionPhase } from './types.js';

/** Events per REST catch-up page at most (the server's own default page size). */
const MAX_PAGE = 100;
/** Events of the first REST page while no event's size is known yet (`ConnectionFlow#pageLimit`). */
const FIRST_PAGE = 10;

/** What the flow of one connection needs from the connection loop. */
export interface FlowHost {
  phase: SubscriptionPhase;
  isStale(conn: Connection): boolean;
  abandon(conn: Connection, info: Retry): void;
  fail(error: Error): void;
  /** A connection got its first state: `ready` resolves, `send` may go. */
  connectionReady(): void;
  /** Drop the connection; the next one catches up over REST instead of trusting positions. */
  resyncNext(conn: Connection): void;
}

/**
 * The data flow of a connection, from its frames to the delivery core: ready on the first state, the catch-up
 * over REST when the connection needs one (frames held back meanwhile, bounded), then live; backpressure when a
 * loop falls behind (the socket pauses where it can); progress reported to the reconnect policy.
 */
export class ConnectionFlow implements FrameSink {
  readonly #host: FlowHost;
  readonly #ctx: SubscriptionContext;
  readonly #settings: LiveSettings;
  readonly #core: DeliveryCore;
  readonly #emitter: SafeEmitter;
  readonly #policy: ReconnectPolicy;
  readonly #reader: FrameReader;
  /**
   * `performance.now()` of the last contact with the server: `subscribe()` returning, then the end of each
   * connection that delivered new events. A connection that catches up by `contact` reads from the server's
   * time of that instant at the latest (and from where delivery stands, if earlier).
   */
  lastContact = performance.now();
  #deliveredAtContact = 0;
  #readyConnections = 0;
  /** Connections whose delivery waited for a slow loop (logged once each). */
  readonly #waited = new WeakSet<Connection>();
  /** The largest event seen (bytes of its JSON text), for the size of REST pages (`#pageLimit`). */
  #largest = 0;
  readonly #bashProof = new BashSubscriptionProof((conn) => this.#readOnceMore(conn));

  constructor(
    host: FlowHost,
    ctx: SubscriptionContext,
    settings: LiveSettings,
    core: DeliveryCore,
    emitter: SafeEmitter,
    policy: ReconnectPolicy,
  ) {
    this.#host = host;
    this.#ctx = ctx;
    this.#settings = settings;
    this.#core = core;
    this.#emitter = emitter;
    this.#policy = policy;
    this.#reader = new FrameReader(this, core, emitter, ctx, Math.max(1000, settings.maxBuffered));
  }

  frame(conn: Connection, text: string | undefined): void {
    if (conn.protocol === 'session') this.#reader.sessionFrame(conn, text);
    else if (conn.protocol === 'bash') {
      this.#bashProof.frame(conn);
      this.#reader.bashFrame(conn, text);
    } else this.#reader.legacyFrame(conn, text);
  }

  /** A connection that caught up reads over REST again; one still catching up does once its read ends. */
  #readOnceMore(conn: Connection): void {
    if (this.#host.isStale(conn) || !conn.ready || conn.catchUp.type === 'none') return;
    if (conn.live) this.#readAgain(conn);
    else conn.reread = true;
  }

  isStale(conn: Connection): boolean {
    return this.#host.isStale(conn);
  }

  abandon(conn: Connection, info: Retry): void {
    this.#host.abandon(conn, info);
  }

  /** A `full_state` snapshot arrived. One of another conversation is refused (logged, reported) and not adopted. */
  snapshot(
    conn: Connection,
    event: KnownEventMap['ConversationStateUpdateEvent'],
    timestamp: string | undefined,
  ): void {
    const value = event.value as { id?: unknown } | null | undefined;
    if (typeof value?.id === 'string' && value.id !== this.#ctx.conversationId) {
      this.reportProtocolError(`a full_state snapshot of another conversation (${value.id}) was not adopted`);
      return;
    }
    this.#core.snapshot(event, timestamp);
    this.becomeReady(conn, timestamp);
  }

  /** The connection got its first state: `ready` resolves; the connection catches up if it must, then goes live. */
  becomeReady(conn: Connection, timestamp: string | undefined): void {
    if (conn.ready) return;
    conn.ready = true;
    clearTimeout(conn.readyTimer);
    clearTimeout(conn.fallbackTimer);
    conn.readyTimer = conn.fallbackTimer = undefined;
    this.#readyConnections += 1;
    this.#host.connectionReady();
    const { catchUp } = conn;
    if (conn.protocol === 'bash') this.#bashProof.opened(conn);
    let since: string | undefined;
    if (catchUp.type === 'rest') since = catchUp.since;
    else if (catchUp.type === 'contact') {
      const contact =
        timestamp === undefined
          ? undefined
          : serverTimeBefore(timestamp, performance.now() - this.lastContact);
      if (catchUp.delivered) since = earlier(catchUp.since, contact);
      else if (contact === undefined) {
        void this.#catchUp(conn, this.#sinceNewest(conn));
        return;
      } else since = contact;
    } else if (conn.held.length === 0) {
      this.#goLive(conn);
      return;
    }
    conn.catchUpSince = since;
    void this.#catchUp(conn, conn.catchUp.type === 'none' ? null : since);
  }

  /**
   * Events missing before the ones held ahead of a `seq` gap: read over REST on the same connection (from
   * where delivery stands, or where this connection's catch-up started), then the held ones in `seq` order.
   */
  fillGap(conn: Connection, detail: string): void {
    if (this.#host.isStale(conn) || !conn.live) return;
    this.#ctx.logger.info(`subscription to ${this.#ctx.conversationId}: ${detail}; reading it over REST`);
    conn.live = false;
    this.#holdAhead(conn);
    const ledger = this.#core.ledger;
    const since = earliestKnown(ledger.delivered ? ledger.catchUpSince() : undefined, conn.catchUpSince);
    void this.#catchUp(conn, since, false);
  }

  /** Envelopes kept ahead of a gap go back to the held frames: REST fills in by ids, they start the sequence again. */
  #holdAhead(conn: Connection): void {
    const ahead = [...conn.order.ahead.values()].sort((a, b) => a.seq - b.seq);
    conn.order.ahead.clear();
    conn.order.next = undefined;
    conn.held = [...ahead, ...conn.held];
    for (const item of ahead) conn.heldBytes += item.bytes;
  }

  /**
   * The first state came without a timestamp (the socket sent none in time; it was read over REST): the
   * newest persisted event's timestamp is no later than the server's time now, so the same subtraction gives
   * a start no later than the last contact (earlier at worst: more is read, nothing is missed).
   */
  async #sinceNewest(conn: Connection): Promise<string | undefined> {
    const newest = await this.#ctx.newestTimestamp(conn.abort.signal);
    return newest === undefined ? undefined : serverTimeBefore(newest, performance.now() - this.lastContact);
  }

  /**
   * Delivers the persisted events since `since` read over REST (`null`: none), then what the socket held back.
   * Held frames dropped past the bounds (`hold`) are read again over REST from where delivery stands first,
   * as often as it takes: the connection is kept, and memory stays within the bounds at the consumer's pace.
   */
  async #catchUp(
    conn: Connection,
    start: string | undefined | null | Promise<string | undefined>,
    announce = true,
  ): Promise<void> {
    this.#host.phase = 'syncing';
    if (start !== null) {
      let since: string | undefined;
      try {
        since = await start;
      } catch (error) {
        if (!this.#host.isStale(conn)) this.#host.abandon(conn, { reason: 'sync-failed', error });
        return;
      }
      if (conn.catchUpSince === undefined) conn.catchUpSince = since;
      if (!(await this.#readOver(conn, since))) return;
      // Everything up to the server's `seq` at connect is delivered or not wanted: a reconnect replays after it.
      // (`through_seq` may be the next seq rather than the last: see FrameReader#sync.) Not past a held frame:
      // the read stopped there (a replay held back since the socket could not pause, `#readAgain`).
      let through = conn.through === undefined ? undefined : conn.through - 1;
      for (const item of conn.held)
        if (through !== undefined && item.seq !== undefined && item.seq <= through) through = item.seq - 1;
      if (through !== undefined && (this.#core.lastSeq ?? -1) < through) this.#core.lastSeq = through;
    }
    for (;;) {
      if (conn.reread) {
        conn.reread = false;
        // What was dropped before this read is delivered by it (persisted before the socket sent it); a frame
        // dropped during it sets `reread` again.
        const dropped = conn.droppedSeq;
        conn.droppedSeq = undefined;
        const ledger = this.#core.ledger;
        const since = ledger.delivered ? ledger.catchUpSince() : conn.catchUpSince;
        if (!(await this.#readOver(conn, since))) return;
        if (dropped !== undefined && (this.#core.lastSeq ?? -1) < dropped) this.#core.lastSeq = dropped;
        // REST filled in by ids: the held envelopes start the sequence again (as after a gap, `fillGap`).
        conn.order.next = undefined;
        this.#resumeReading(conn);
        continue;
      }
      // Frames keep arriving while a slow consumer is waited for: take them in batches until none is left.
      if (conn.held.length === 0) break;
      const held = conn.held;
      conn.held = [];
      conn.heldBytes = 0;
      this.#resumeReading(conn);
      for (const item of held) {
        if (!(await this.#waitForRoom(conn))) return;
        this.#reader.release(conn, item);
        if (this.#host.isStale(conn)) return;
      }
    }
    this.#goLive(conn, announce);
  }

  /**
   * One REST read of the persisted events since `since`, at the consumer's pace (pages sized to the byte bound,
   * `#pageLimit`). False when the connection ended (a failed read drops it: `sync-failed`).
   */
  async #readOver(conn: Connection, since: string | undefined): Promise<boolean> {
    try {
      const { maxBufferedBytes } = this.#settings;
      for await (const page of this.#ctx.backfill(
        since,
        conn.abort.signal,
        maxBufferedBytes,
        this.#pageLimit,
      )) {
        if (this.#host.isStale(conn)) return false;
        // The socket's frames are live only, in the server's order. REST fills in what came before them: its
        // events up to the first one the socket holds back; from there on the socket's own order (an event
        // REST has beyond that point comes on the socket too, or a seq gap reads it later).
        const held = conn.held.length === 0 ? undefined : new Set(conn.held.map((item) => item.id));
        const stop = held === undefined ? -1 : page.items.findIndex((item) => held.has(item.id));
        const items = stop === -1 ? page.items : page.items.slice(0, stop);
        if (!(await this.#deliverAll(conn, items))) return false;
        if (stop !== -1) break;
      }
      return true;
    } catch (error) {
      if (!this.#host.isStale(conn)) this.#host.abandon(conn, { reason: 'sync-failed', error });
      return false;
    }
  }

  /**
   * Events asked for per REST page: as many of the largest event seen so far as fit in `maxBufferedBytes`
   * (1 to 100), so that a page of large events is not many times the bound (100 of 2 MiB were 200 MiB of text
   * read whole, issue 34 item 3). Asked again for each page; before any size is known, a first page of 10
   * measures them (one more request for a long history of small events).
   */
  readonly #pageLimit = (): number => {
    const bound = this.#settings.maxBufferedBytes;
    if (bound === Number.POSITIVE_INFINITY) return MAX_PAGE;
    if (this.#largest === 0) return FIRST_PAGE;
    return Math.max(1, Math.min(MAX_PAGE, Math.floor(bound / this.#largest)));
  };

  #goLive(conn: Connection, announce = true): void {
    if (this.#host.isStale(conn)) return;
    conn.live = true;
    this.#host.phase = 'live';
    // Getting live is progress too: the outage is over even when nothing new was published.
    this.#policy.progress();
    if (!announce) return;
    this.#emitter.emit('open', {
      connection: this.#readyConnections,
      resumed: this.#readyConnections > 1,
      auth: conn.auth,
      serverVersion: conn.version,
      protocol: conn.protocol,
    });
  }

  async #deliverAll(conn: Connection, items: readonly Positioned[]): Promise<boolean> {
    for (const item of items) {
      if (item.bytes > this.#largest) this.#largest = item.bytes;
      if (!(await this.#waitForRoom(conn))) return false;
      this.#core.deliver(item.event, item.id, item.timestamp, item.bytes);
      this.#noteProgress(conn);
    }
    return true;
  }

  /** Waits for a slow `for await` loop when its buffer is full. False when the connection ended meanwhile. */
  async #waitForRoom(conn: Connection): Promise<boolean> {
    if (!this.#core.overflowing()) return true;
    this.#waitingForConsumer(conn);
    if (!this.#settings.pauseOnOverflow) {
      this.#host.fail(this.#core.overflowError());
      return false;
    }
    await this.#core.drained();
    return !this.#host.isStale(conn);
  }

  /**
   * Holds a frame back while the connection catches up; bounded like a loop's buffer, with the same policy: past
   * the bounds, `onOverflow: 'error'` ends the subscription with SubscriptionOverflowError; `'pause'` pauses
   * reading where the socket can (`ws`), and the held frames are dropped and read again over REST once the
   * catch-up got there (`#catchUp`): held by position, not by bytes, on the same connection. (Dropping the connection instead made every reconnect's catch-up overflow again while its first
   * REST page was read, until `giveUpAfter` ended it: issue 34 item 3.)
   */
  hold(conn: Connection, item: Positioned): void {
    conn.held.push(item);
    conn.heldBytes += item.bytes;
    if (item.bytes > this.#largest) this.#largest = item.bytes;
    const maxHeld = Math.max(1000, this.#settings.maxBuffered);
    if (conn.held.length <= maxHeld && conn.heldBytes <= this.#settings.maxBufferedBytes) return;
    if (!this.#settings.pauseOnOverflow) {
      this.#host.fail(
        new SubscriptionOverflowError(
          `${conn.held.length} events, ${conn.heldBytes} bytes arrived during the REST catch-up and were held back (at most ${maxHeld} events, maxBufferedBytes ${this.#settings.maxBufferedBytes}; the largest event ${this.#largest} bytes); onOverflow is 'error': use onOverflow 'pause' (the default) or a larger maxBufferedBytes`,
        ),
      );
      return;
    }
    // The catch-up is slower than the server publishes: stop reading where the socket can (the server's own
    // byte budget decides whether it keeps us; frames already received still come), and drop what is held: it
    // is read again by position.
    this.#pauseReading(conn);
    this.#dropHeld(conn, maxHeld);
  }

  #dropHeld(conn: Connection, maxHeld: number): void {
    if (!conn.reread)
      this.#ctx.logger.info(
        `${conn.held.length} events, ${conn.heldBytes} bytes arrived during the REST catch-up (at most ${maxHeld} events, maxBufferedBytes ${this.#settings.maxBufferedBytes}): dropped, read again over REST`,
      );
    for (const held of conn.held)
      if (held.seq !== undefined && (conn.droppedSeq === undefined || held.seq > conn.droppedSeq))
        conn.droppedSeq = held.seq;
    conn.held = [];
    conn.heldBytes = 0;
    conn.reread = true;
    conn.fellBehind = true;
  }

  /** Delivers a live item; pauses when a loop's buffer is full. False when the connection ended or paused. */
  deliverLive(conn: Connection, item: Positioned, sequenced = false): boolean {
    const full = this.#core.deliver(item.event, item.id, item.timestamp, item.bytes, true, sequenced);
    this.#noteProgress(conn);
    if (item.bytes > this.#largest) this.#largest = item.bytes;
    // Checked again after the listeners ran: one of them may have closed the subscription. A ready connection
    // that is catching up (releasing held frames, or a transient event meanwhile) waits for room in `#catchUp`.
    if (!full || (conn.ready && !conn.live) || this.#host.isStale(conn) || !this.#core.overflowing())
      return !this.#host.isStale(conn);
    this.#onOverflow(conn);
    return !this.#host.isStale(conn) && !conn.paused && (conn.live || !conn.ready);
  }

  /** Delivery on this connection waits for a slow loop (once per connection: logged, and told to the connector). */
  #waitingForConsumer(conn: Connection): void {
    conn.fellBehind = true;
    if (this.#waited.has(conn)) return;
    this.#waited.add(conn);
    this.#ctx.logger.debug('the consumer is behind: delivery waits for room');
  }

  /** After each delivery: progress ends the outage, once per connection. */
  #noteProgress(conn: Connection): void {
    if (!conn.progressed && this.#core.delivered > conn.deliveredAtStart) {
      conn.progressed = true;
      this.#policy.progress();
    }
  }

  /**
   * A connection ended: if it delivered anything since the last contact, the server was in contact until
   * now (the time is taken here, not for every event of the stream).
   */
  connectionEnded(): void {
    const delivered = this.#core.delivered;
    if (delivered === this.#deliveredAtContact) return;
    this.#deliveredAtContact = delivered;
    this.lastContact = performance.now();
  }

  #onOverflow(conn: Connection): void {
    if (!this.#settings.pauseOnOverflow) {
      this.#host.fail(this.#core.overflowError());
      return;
    }
    this.#waitingForConsumer(conn);
    if (this.#pauseReading(conn)) {
      void this.#core.drained().then(() => {
        if (!this.#host.isStale(conn)) this.#resumeReading(conn);
      });
      return;
    }
    this.#ctx.logger.debug('the consumer is behind and the socket cannot pause: catching up over REST');
    this.#readAgain(conn);
  }

  /**
   * The live connection stays, its frames from here on are held (dropped past the bounds, `hold`) while it
   * catches up over REST from where delivery stands, at the loop's pace, then it is live again. For a loop
   * whose buffer is full on a socket that cannot pause (the built-in WebSocket), it used to be closed and
   * reopened once the loop had caught up; the server then replayed everything after that position again,
   * reconnect after reconnect (issue 34 item 3). For a bash socket's first frame: bash-subscription-proof.ts.
   */
  #readAgain(conn: Connection): void {
    this.#holdAhead(conn);
    conn.live = false;
    // REST may now deliver an event before the socket sends it: its frame is a duplicate, not a reused id.
    const ledger = this.#core.ledger;
    conn.catchUp = { type: 'rest', since: ledger.delivered ? ledger.catchUpSince() : conn.catchUpSince };
    // A connection not ready yet (a session replay) catches up once it is (`becomeReady`).
    if (!conn.ready) return;
    conn.reread = true;
    void this.#catchUp(conn, null, false);
  }

  /** `ws`'s `pause()`: stop reading from the socket. False when the socket cannot (the built-in WebSocket). */
  #pauseReading(conn: Connection): boolean {
    const socket = conn.socket as { pause?: () => void } | undefined;
    if (typeof socket?.pause !== 'function') return false;
    if (!conn.paused) {
      conn.paused = true;
      this.#host.phase = 'paused';
      socket.pause();
      this.#ctx.logger.debug('the consumer is behind: reading from the socket paused');
    }
    return true;
  }

  #resumeReading(conn: Connection): void {
    if (!conn.paused) return;
    conn.paused = false;
    if (this.#host.phase === 'paused') this.#host.phase = conn.live ? 'live' : 'syncing';
    (conn.socket as { resume?: () => void } | undefined)?.resume?.();
  }

  /** A position the server sent cannot be trusted: logged, reported, and the subscription catches up by ids. */
  resync(conn: Connection, detail: string): void {
    this.reportProtocolError(`${detail}; catching up over REST`);
    this.#host.resyncNext(conn);
  }

  reportProtocolError(message: string): void {
    this.#core.reportProtocolError(message);
  }
}

/** The earlier of two server timestamps; `undefined` (the whole log) wins. */
function earlier(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined || b === undefined) return a === undefined ? undefined : a;
  return a < b ? a : b;
}

/** The earlier of two server timestamps, either of which may be unknown (`undefined`: the whole log). */
function earliestKnown(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  return a < b ? a : b;
}
