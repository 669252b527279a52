import type { KnownEventMap } from '../../models/index.js';
import { decodeBashFrame } from './bash-events-adapter.js';
import type { Connection } from './connection.js';
import type { SubscriptionContext } from './context.js';
import type { DeliveryCore } from './delivery-core.js';
import { decodeLegacyFrame, type LegacyFrame } from './legacy-events-adapter.js';
import type { Positioned } from './positioned.js';
import type { SafeEmitter } from './safe-emitter.js';
import type { Sequenced } from './seq-order.js';
import { decodeSessionFrame, type SessionFrame } from './session-adapter.js';
import { divertTransient, emitStreamEnvelope } from './transient-events.js';
import type { ReconnectInfo } from './types.js';

/**
 * Milliseconds a gap in `seq` may stay open (later envelopes held) before the missing events are read over
 * REST. The session socket never reorders (docs/events-and-streaming.md): a gap is an event it did not send
 * (1.58 does not stream a run's SystemPromptEvent to a live-only connection), not one that is late.
 */
const GAP_WAIT = 250;

/** What the frame reader needs from the connection loop. */
export interface FrameSink {
  isStale(conn: Connection): boolean;
  snapshot(
    conn: Connection,
    event: KnownEventMap['ConversationStateUpdateEvent'],
    timestamp: string | undefined,
  ): void;
  becomeReady(conn: Connection, timestamp: string | undefined): void;
  hold(conn: Connection, item: Positioned): void;
  /** False when the connection ended or paused. */
  deliverLive(conn: Connection, item: Positioned, sequenced?: boolean): boolean;
  resync(conn: Connection, detail: string): void;
  /** Reads the events missing before the ones held ahead of a gap over REST, on the same connection. */
  fillGap(conn: Connection, detail: string): void;
  reportProtocolError(message: string): void;
  abandon(conn: Connection, info: Omit<ReconnectInfo, 'attempt' | 'delay'>): void;
}

/**
 * Turns a connection's frames into positioned items for the delivery core, per protocol: the legacy socket's
 * bare events (identity by id; resends and live frames interleave, so duplicates are dropped by id), the
 * session socket's envelopes (in `seq` order; positions checked: a log reset, a bad `seq`, a gap that does
 * not close or an id reused at a new `seq` is logged, reported and resynced, never silently dropped).
 * Until a connection is caught up its persisted events are held back (`FrameSink.hold`). A frame whose event
 * waits for zod's parsers (models/decode-event.ts: it failed the predicates) holds the frames after it.
 */
export class FrameReader {
  readonly #sink: FrameSink;
  readonly #core: DeliveryCore;
  readonly #emitter: SafeEmitter;
  readonly #ctx: SubscriptionContext;
  /** Envelopes ahead of a gap kept at most before the connection resyncs. */
  readonly #maxAhead: number;
  /** The frames of `conn` after one whose decoding is a promise, handled in order once they settle. */
  #pending: { conn: Connection; done: Promise<void> } | undefined;

  constructor(
    sink: FrameSink,
    core: DeliveryCore,
    emitter: SafeEmitter,
    ctx: SubscriptionContext,
    maxAhead: number,
  ) {
    this.#sink = sink;
    this.#maxAhead = maxAhead;
    this.#core = core;
    this.#emitter = emitter;
    this.#ctx = ctx;
  }

  legacyFrame(conn: Connection, text: string | undefined): void {
    const frame = decodeLegacyFrame(text);
    if (frame instanceof Promise || this.#pending !== undefined)
      this.#inOrder(conn, frame, (decoded) => this.#legacyFrame(conn, decoded));
    else this.#legacyFrame(conn, frame);
  }

  #legacyFrame(conn: Connection, frame: LegacyFrame): void {
    if (frame.type === 'invalid') {
      this.#invalid('ignored a frame that is not an event', frame.error);
      return;
    }
    if (frame.type === 'snapshot') {
      this.#sink.snapshot(conn, frame.event, frame.timestamp);
      return;
    }
    const { item } = frame;
    if (divertTransient(item.event, this.#emitter)) return;
    this.#persisted(conn, item);
  }

  /** `/sockets/bash-events`: persisted bash events take the legacy path; the server's error reply is reported. */
  bashFrame(conn: Connection, text: string | undefined): void {
    const frame = decodeBashFrame(text);
    if (frame.type === 'invalid') this.#invalid('ignored a frame that is not a bash event', frame.error);
    else if (frame.type === 'server-error') this.#emitter.emit('error', frame.error);
    else this.#persisted(conn, frame.item);
  }

  /** A persisted event of a legacy-style socket: delivered when live, else held until the catch-up ends. */
  #persisted(conn: Connection, item: Positioned): void {
    if (conn.live) {
      this.#sink.deliverLive(conn, item);
      return;
    }
    if (this.#core.ledger.isOld(item.id, item.timestamp))
      this.#core.checkReuse(item.event, item.id, item.timestamp);
    else this.#hold(conn, item);
  }

  /**
   * Holds a persisted event back until the connection caught up. A per-key state update is a state too: the
   * server sends one instead of the snapshot when the conversation has no live service, and drops the
   * snapshot when sending it is slow; so it makes the connection ready.
   */
  #hold(conn: Connection, item: Positioned): void {
    this.#sink.hold(conn, item);
    if (!conn.ready && !this.#sink.isStale(conn) && item.event.kind === 'ConversationStateUpdateEvent') {
      this.#core.update(item.event as KnownEventMap['ConversationStateUpdateEvent']);
      this.#sink.becomeReady(conn, item.timestamp);
    }
  }

  sessionFrame(conn: Connection, text: string | undefined): void {
    const frame = decodeSessionFrame(text);
    // Nothing is allocated here for a frame decoded at once with none waiting (this runs for every frame).
    if (frame instanceof Promise || this.#pending !== undefined)
      this.#inOrder(conn, frame, (decoded) => this.#sessionFrame(conn, decoded));
    else this.#sessionFrame(conn, frame);
  }

  /**
   * Handles a frame still being decoded, or one of a connection with an earlier frame still being decoded, once
   * the frames before it are handled (and only while the connection is current).
   */
  #inOrder<F>(conn: Connection, frame: F | Promise<F>, handle: (frame: F) => void): void {
    const pending = this.#pending?.conn === conn ? this.#pending.done : undefined;
    if (pending === undefined && !(frame instanceof Promise)) {
      handle(frame);
      return;
    }
    const done = (pending ?? Promise.resolve())
      .then(() => frame)
      .then((settled) => {
        if (!this.#sink.isStale(conn)) handle(settled);
      })
      .catch((error: unknown) => this.#invalid('a frame could not be handled', asError(error)))
      .finally(() => {
        if (this.#pending?.done === done) this.#pending = undefined;
      });
    this.#pending = { conn, done };
  }

  #sessionFrame(conn: Connection, frame: SessionFrame): void {
    switch (frame.type) {
      case 'durable':
        // A replaying connection delivers in `seq` order as it goes; once ready, only while live (a catch-up or
        // a gap being filled holds frames back).
        if (conn.live || (!conn.ready && conn.catchUp.type === 'none')) this.#sequence(conn, frame.item);
        else this.#hold(conn, frame.item);
        return;
      case 'sync':
        this.#sync(conn, frame.through);
        return;
      case 'snapshot':
        this.#sink.snapshot(conn, frame.event, frame.timestamp);
        return;
      case 'state':
        this.#core.update(frame.event);
        if (!conn.ready) this.#sink.becomeReady(conn, frame.timestamp);
        return;
      case 'transient':
        // Other non-persisted events are delivered as they come (they are never replayed).
        if (!divertTransient(frame.item.event, this.#emitter)) this.#sink.deliverLive(conn, frame.item);
        return;
      case 'stream':
        emitStreamEnvelope(frame.envelope, this.#emitter);
        return;
      case 'server-error':
        this.#ctx.logger.warn(`the server reported an error: ${frame.error.serverCode}`);
        this.#emitter.emit('error', frame.error);
        return;
      case 'bad-position':
        this.#sink.resync(conn, `the server sent a ${frame.detail}`);
        return;
      case 'invalid':
        this.#invalid('ignored a session frame', frame.error);
        return;
      default:
        // A newer server may send such envelopes at stream rate: the type goes as a log argument, so no text
        // is built for each of them while debug logging is off (the default).
        this.#ctx.logger.debug('ignored an envelope of unknown type', frame.envelopeType);
    }
  }

  /** A held-back item, released after the connection's catch-up. */
  release(conn: Connection, item: Positioned): void {
    if (item.seq === undefined) this.#sink.deliverLive(conn, item);
    else this.#sequence(conn, item as Sequenced, true);
  }

  /**
   * `sync` says where the server's log ends. Live only: it is the floor below which envelopes are admitted by
   * id, not by `seq`. Asked to replay after `after_seq` while the log now ends before it: the log was reset, so
   * the positions of the old one mean nothing: resync.
   */
  #sync(conn: Connection, through: number | undefined): void {
    this.#ctx.logger.debug('sync: through_seq', through);
    if (through === undefined) return;
    conn.through = through;
    if (conn.afterSeq !== undefined && through < conn.afterSeq) {
      this.#core.lastSeq = undefined;
      this.#sink.resync(
        conn,
        `log reset: sync.through_seq ${through} is below the after_seq ${conn.afterSeq} asked for`,
      );
      return;
    }
    // Live only: what the socket sends is from after the connection, some of it with a `seq` at or below
    // `through_seq` (see SeqOrder.floor): those below it are admitted by id, the first durable envelope at or
    // after it starts the sequence.
    if (conn.afterSeq === undefined && conn.order.next === undefined) conn.order.floor = through;
  }

  /** A durable envelope: delivered in `seq` order exactly once; one ahead of a gap waits for it. */
  #sequence(conn: Connection, item: Sequenced, released = false): void {
    const place = conn.order.place(item, this.#core.lastSeq);
    if (place !== 'due') this.#ctx.logger.debug(`durable seq ${item.seq}: ${place}`);
    if (place === 'old') return;
    if (place === 'before') {
      // By id, as a legacy frame: delivered unless REST (or the socket) delivered it already, which the ledger
      // drops (reported if its content changed). `seq` and `lastSeq` stay: a reconnect resumes by the sequence.
      this.#sink.deliverLive(conn, item);
      return;
    }
    if (place === 'ahead') {
      if (conn.order.ahead.size > this.#maxAhead) {
        this.#sink.resync(
          conn,
          `a gap in seq after ${conn.order.next! - 1} did not close within ${conn.order.ahead.size} envelopes`,
        );
      } else if (conn.gapTimer === undefined) this.#armGapTimer(conn);
      return;
    }
    for (let due: Sequenced | undefined = item; due !== undefined; due = conn.order.takeDue()) {
      if (!this.#deliverDue(conn, due, released)) return;
    }
    if (conn.order.ahead.size === 0 && conn.gapTimer !== undefined) {
      clearTimeout(conn.gapTimer);
      conn.gapTimer = undefined;
    }
  }

  #armGapTimer(conn: Connection): void {
    conn.gapTimer = setTimeout(() => {
      conn.gapTimer = undefined;
      if (this.#sink.isStale(conn) || conn.order.ahead.size === 0) return;
      // Not live (a catch-up is releasing held frames): look again later.
      if (!conn.live) this.#armGapTimer(conn);
      else this.#sink.fillGap(conn, `seq ${conn.order.next} did not come within ${GAP_WAIT} ms`);
    }, GAP_WAIT);
  }

  /** Delivers the durable event due. False when the connection ended or paused. */
  #deliverDue(conn: Connection, item: Sequenced, released: boolean): boolean {
    conn.order.next = item.seq + 1;
    this.#core.lastSeq = item.seq;
    const before = this.#core.delivered;
    const going = this.#sink.deliverLive(conn, item, true);
    // Not delivered: an id already delivered (or below the floor). With a fresh `seq` on a connection that read
    // nothing over REST, the log holds each event once, so the id was reused; else (a REST catch-up delivered it,
    // and it comes again on the socket or released from the held frames) reused only if its content changed.
    // Either way not delivered twice, and said.
    if (this.#core.delivered === before) {
      if (!released && conn.catchUp.type === 'none' && this.#core.ledger.isOld(item.id, undefined, false))
        this.#sink.reportProtocolError(
          `event id ${item.id} was reused at seq ${item.seq}; not delivered again`,
        );
      else this.#core.checkReuse(item.event, item.id, item.timestamp);
    }
    // A state update the server replays is history; the first state is the one at the end of the replay.
    if (
      !conn.ready &&
      item.event.kind === 'ConversationStateUpdateEvent' &&
      (conn.through === undefined || item.seq >= conn.through) &&
      !this.#sink.isStale(conn)
    )
      this.#sink.becomeReady(conn, item.timestamp);
    return going;
  }

  #invalid(what: string, error: Error): void {
    this.#ctx.logger.warn(`${what}: ${error.message}`);
    this.#emitter.emit('error', error);
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
