import type { KnownEventMap } from '../../models/index.js';
import { SubscriptionProtocolError } from '../errors.js';
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

/** What the flow of one connection needs from the connection loop. */
export interface FlowHost {
  phase: SubscriptionPhase;
  isStale(conn: Connection): boolean;
  abandon(conn: Connection, info: Retry): void;
  fail(error: Error): void;
  /** A connection got its first state: `ready` resolves, `send` may go. */
  connectionReady(): void;
  /** The socket cannot pause: drop the connection and reconnect once the loops have caught up. */
  pauseByReconnect(conn: Connection): void;
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
  /** `performance.now()` when `subscribe()` returned: a live-only subscription delivers what was persisted after. */
  readonly #subscribedAt = performance.now();
  #readyConnections = 0;

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
    else this.#reader.legacyFrame(conn, text);
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
    let since: string | undefined;
    if (conn.catchUp.type === 'rest') since = conn.catchUp.since;
    else if (conn.catchUp.type === 'subscribe-time') {
      // The server's time when `subscribe()` returned: this snapshot's time minus what elapsed here since.
      since =
        timestamp === undefined
          ? undefined
          : serverTimeBefore(timestamp, performance.now() - this.#subscribedAt);
      if (since === undefined) {
        this.#ctx.logger.debug('the first state has no timestamp: live from now on');
        this.#goLive(conn);
        return;
      }
    } else if (conn.held.length === 0) {
      this.#goLive(conn);
      return;
    }
    void this.#catchUp(conn, conn.catchUp.type === 'none' ? null : since);
  }

  /** Delivers the persisted events since `since` read over REST (`null`: none), then what the socket held back. */
  async #catchUp(conn: Connection, since: string | undefined | null): Promise<void> {
    this.#host.phase = 'syncing';
    if (since !== null) {
      try {
        const measure = this.#settings.maxBufferedBytes !== Number.POSITIVE_INFINITY;
        for await (const page of this.#ctx.backfill(since, conn.abort.signal, measure)) {
          if (this.#host.isStale(conn)) return;
          // Without a resend the socket's frames are live only, in the server's order: an event it holds back
          // comes in that order, after the ones only REST has (persisted before the socket subscribed), so the
          // order holds even where timestamps are missing. A resend interleaves with live frames: REST's
          // order wins then (the held duplicates are dropped by id).
          const held =
            conn.held.length === 0 || conn.resend !== undefined
              ? undefined
              : new Set(conn.held.map((item) => item.id));
          const items = held === undefined ? page.items : page.items.filter((item) => !held.has(item.id));
          if (!(await this.#deliverAll(conn, items))) return;
        }
      } catch (error) {
        if (!this.#host.isStale(conn)) this.#host.abandon(conn, { reason: 'sync-failed', error });
        return;
      }
      // Everything up to the server's `seq` at connect is delivered or not wanted: a reconnect replays after it.
      if (conn.through !== undefined && (this.#core.lastSeq ?? -1) < conn.through)
        this.#core.lastSeq = conn.through;
    }
    // Frames keep arriving while a slow consumer is waited for: take them in batches until none is left.
    while (conn.held.length > 0) {
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
    this.#goLive(conn);
  }

  #goLive(conn: Connection): void {
    if (this.#host.isStale(conn)) return;
    conn.live = true;
    this.#host.phase = 'live';
    // Getting live is progress too: the outage is over even when nothing new was published.
    this.#policy.progress();
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
      if (!(await this.#waitForRoom(conn))) return false;
      this.#core.deliver(item.event, item.id, item.timestamp, item.bytes);
      this.#noteProgress(conn);
    }
    return true;
  }

  /** Waits for a slow `for await` loop when its buffer is full. False when the connection ended meanwhile. */
  async #waitForRoom(conn: Connection): Promise<boolean> {
    if (!this.#core.overflowing()) return true;
    if (!this.#settings.pauseOnOverflow) {
      this.#host.fail(this.#core.overflowError());
      return false;
    }
    await this.#core.drained();
    return !this.#host.isStale(conn);
  }

  /** Holds a frame back while the connection catches up; bounded like a loop's buffer. */
  hold(conn: Connection, item: Positioned): void {
    conn.held.push(item);
    conn.heldBytes += item.bytes;
    if (
      conn.held.length <= Math.max(1000, this.#settings.maxBuffered) &&
      conn.heldBytes <= this.#settings.maxBufferedBytes
    )
      return;
    // The catch-up is slower than the server publishes: stop reading (the server's own byte budget decides
    // whether it keeps us), or, where the socket cannot pause, drop it and resume by position.
    if (this.#pauseReading(conn)) return;
    if (this.#core.behind()) this.#host.pauseByReconnect(conn);
    else this.#host.abandon(conn, { reason: 'sync-overflow' });
  }

  /** Delivers a live item; pauses when a loop's buffer is full. False when the connection ended or paused. */
  deliverLive(conn: Connection, item: Positioned): boolean {
    const full = this.#core.deliver(item.event, item.id, item.timestamp, item.bytes);
    this.#noteProgress(conn);
    // Checked again after the listeners ran: one of them may have closed the subscription.
    if (!full || this.#host.isStale(conn) || !this.#core.overflowing()) return !this.#host.isStale(conn);
    this.#onOverflow(conn);
    return !this.#host.isStale(conn) && !conn.paused;
  }

  #noteProgress(conn: Connection): void {
    if (!conn.progressed && this.#core.delivered > conn.deliveredAtStart) {
      conn.progressed = true;
      this.#policy.progress();
    }
  }

  #onOverflow(conn: Connection): void {
    if (!this.#settings.pauseOnOverflow) {
      this.#host.fail(this.#core.overflowError());
      return;
    }
    if (this.#pauseReading(conn)) {
      void this.#core.drained().then(() => {
        if (!this.#host.isStale(conn)) this.#resumeReading(conn);
      });
      return;
    }
    this.#host.pauseByReconnect(conn);
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
    this.#ctx.logger.warn(`subscription to ${this.#ctx.conversationId}: ${message}`);
    this.#emitter.emit('error', new SubscriptionProtocolError(message));
  }
}
