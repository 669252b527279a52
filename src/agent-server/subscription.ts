import { EventEmitter } from 'eventemitter3';
import {
  APIUserAbortError,
  isAuthenticationError,
  isNotFoundError,
  isPermissionDeniedError,
  isRequestValidationError,
} from '../core/errors.js';
import type { SafeLogger } from '../core/logger.js';
import type { Page } from '../core/paginate.js';
import { redactError, redactText, redactUrl } from '../core/redact.js';
import {
  applyStateUpdate,
  type ConversationStateMirror,
  type Event,
  FULL_STATE_KEY,
  isConversationStateUpdateEvent,
  isServerErrorEvent,
  isStreamingDeltaEvent,
  type KnownEventKind,
  type KnownEventMap,
} from '../models/index.js';
import { safeParseOwnedEvent } from '../models/parse.js';
import { DeliveryLedger, positionTimestamp, type ResumePosition } from './delivery-ledger.js';
import {
  isAgentServerVersionError,
  SubscriptionAuthenticationError,
  SubscriptionConnectionError,
  SubscriptionCredentialBindingError,
  SubscriptionEndpointNotFoundError,
  SubscriptionError,
  SubscriptionNotFoundError,
  SubscriptionOverflowError,
  SubscriptionServerError,
} from './errors.js';
import { EventQueue } from './event-buffer.js';
import { invalid } from './invalid.js';
import { type MessageInput, toWireMessage } from './message-input.js';
import { backoffDelay, RECONNECT_DEFAULTS, type ReconnectOptions } from './reconnect.js';
import type {
  CloseInfo,
  ReconnectInfo,
  StreamDelta,
  SubscribeOptions,
  SubscriptionEventMap,
  SubscriptionPhase,
} from './subscription-types.js';
import { AGENT_SERVER_FEATURES, parseAgentServerVersion, supportsFeature } from './version-gate.js';
import {
  builtInWebSocket,
  type CloseEventLike,
  frameText,
  type MessageEventLike,
  runtimeSendsHeaders,
  type WebSocketLike,
  WS_CONNECTING,
  WS_OPEN,
} from './web-socket.js';
import {
  authFrame,
  eventsSocketUrl,
  type ResolvedAuth,
  resendQuery,
  resolveAuth,
  sessionSocketUrl,
} from './ws-auth.js';

/** What a subscription needs from its client. */
export interface SubscriptionContext {
  baseUrl: string;
  conversationId: string;
  logger: SafeLogger;
  secrets: () => readonly string[];
  /**
   * The server's version; `undefined` when `/server_info` gave none. Throws when the server is unreachable.
   * `refresh`: read it again instead of the cached answer (after a failed attempt: the server may have been
   * rolled back or upgraded).
   */
  serverVersion(signal: AbortSignal, refresh?: boolean): Promise<string | undefined>;
  sessionApiKey(): Promise<string | undefined>;
  /** Persisted events with timestamp ≥ `since` (all when undefined), oldest first. */
  backfill(since: string | undefined, signal: AbortSignal): AsyncIterable<Page<Event>>;
  /** A cheap authenticated REST read of the conversation: throws the typed API error the server answers. */
  probe(signal: AbortSignal): Promise<void>;
  /** The conversation read over REST (its state fields), for `ready` when the socket gives no state in time. */
  readState(signal: AbortSignal): Promise<Record<string, unknown>>;
}

/** One socket and what belongs to it; a closed or replaced connection's callbacks are ignored. */
interface Connection {
  readonly number: number;
  abort: AbortController;
  socket: WebSocketLike | undefined;
  auth: ResolvedAuth;
  version: string | undefined;
  opened: boolean;
  ready: boolean;
  live: boolean;
  /** Socket frames that arrived before the catch-up finished, and their size (frame text length). */
  pending: Received[];
  pendingBytes: number;
  /** From the socket's creation to its open: the handshake counts against `readyTimeout` too. */
  handshakeTimer: ReturnType<typeof setTimeout> | undefined;
  readyTimer: ReturnType<typeof setTimeout> | undefined;
  /** Reads the state over REST when the socket gives none within `readyFallback`. */
  fallbackTimer: ReturnType<typeof setTimeout> | undefined;
  /** `/sockets/session` (envelopes with `seq`) or `/sockets/events` (bare events). */
  protocol: 'session' | 'events';
  /** Session protocol: the `seq` delivered next (`undefined`: the first durable envelope starts the sequence). */
  nextSeq: number | undefined;
  /** Session protocol: durable events that arrived ahead of a gap, by `seq`. */
  held: Map<number, Received>;
  gapTimer: ReturnType<typeof setTimeout> | undefined;
  /** Where this connection resumes from, and whether the history from there is read over REST. */
  floor: ResumePosition | undefined;
  backfill: boolean;
  /** Where the REST catch-up read starts (`timestamp__gte`; `undefined`: the whole log). */
  since: string | undefined;
  /** What the socket is asked to resend from (`undefined`: nothing). */
  resend: string | undefined;
  /** The server was asked to resend the whole log (it knows no `since`). */
  resendAll: boolean;
}

/**
 * An event kept for later delivery (held back during a catch-up, ahead of a `seq` gap, or read over REST),
 * with its identity, position timestamp and size as the server sent it. Live frames are delivered without
 * one: those three values are passed along as arguments (no object per frame).
 */
interface Received {
  event: Event;
  id: string;
  timestamp: string | undefined;
  bytes: number;
}

const NORMAL_CLOSURE = 1000;
const AUTH_FAILED = 4001;
const NOT_FOUND = 4004;
const TRY_AGAIN_LATER = 1013;
/** 1013 reason: the conversation's credential binding must be activated first (server ≥ 1.37.1). */
const CREDENTIAL_BINDING_REASON = 'credential_binding_activation_required';
/** Handshakes refused in a row while REST finds the conversation before the socket path counts as missing. */
const REFUSALS_BEFORE_ENDPOINT_MISSING = 3;
/** Milliseconds a gap in `seq` may stay open (later envelopes held) before the connection replays from the gap. */
const GAP_TIMEOUT = 2_000;
/** Default `maxBufferedBytes`: 8 MiB of frame text. */
const DEFAULT_MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
/** Frames are parsed leniently (one options object for all of them). */
const LENIENT = { mode: 'lenient' } as const;

/**
 * A live event stream of one conversation (`EventsClient.subscribe`): an `AsyncIterable<Event>` (a `break`
 * closes it) and a typed emitter (`event`, one event per kind, `state`, `open`, `reconnecting`, `close`,
 * `error`).
 *
 * Delivery contract: every persisted event exactly once, in the server's order, across reconnects. Each
 * connection goes through: open → auth → the first `full_state` snapshot (ready) → catch-up (the
 * persisted events since the last delivered one, read over REST oldest first; socket frames meanwhile are held
 * back) → live. The server interleaves its resend with live events and never says when the resend is
 * over, so the REST read is what makes the order exact; the resend it is also asked for (`since` on
 * ≥ 1.15.0, `resend_all` before) is deduplicated by id. `full_state` snapshots only update `state`.
 */
export class Subscription extends EventEmitter<SubscriptionEventMap> implements AsyncIterable<Event> {
  /** Resolves with the state snapshot when the first connection is ready; rejects if the subscription ends first. */
  readonly ready: Promise<ConversationStateMirror>;

  readonly #ctx: SubscriptionContext;
  readonly #options: SubscribeOptions;
  readonly #reconnect: Required<ReconnectOptions>;
  readonly #maxBuffered: number;
  readonly #maxBufferedBytes: number;
  readonly #readyTimeout: number;
  readonly #readyFallback: number;
  readonly #resume: boolean;
  readonly #ledger: DeliveryLedger;
  // An array, not a Set: it is walked for every event.
  #queues: EventQueue<Event>[] = [];
  /**
   * Events delivered before the first `for await` loop asked for them (e.g. while the app awaited a `send`):
   * kept for that first loop, so none is lost. Bounded by `maxBufferedEvents` and `maxBufferedBytes`: an app
   * that only listens to the emitter never iterates, so when the backlog fills it is dropped (logged at warn
   * level) instead of pausing the stream, and a first loop started after that gets SubscriptionOverflowError.
   */
  #backlog: EventQueue<Event> | undefined;
  /** Events in the backlog when it was dropped (0: never dropped). */
  #backlogLost = 0;
  #loops = 0;
  readonly #signal: AbortSignal | undefined;
  readonly #onAbort = () => this.#finish('aborted', new APIUserAbortError('The subscription was aborted'));

  #phase: SubscriptionPhase = 'connecting';
  #conn: Connection | undefined;
  #connections = 0;
  #readyConnections = 0;
  #attempt = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #state: ConversationStateMirror | undefined;
  #stateTimestamp: string | undefined;
  /** Server time of the first snapshot: where a live-only subscription resumes if nothing was delivered yet. */
  #baseline: ResumePosition | undefined;
  #drainWaiters: (() => void)[] = [];
  #readyWaiters: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  #resolveReady!: (state: ConversationStateMirror) => void;
  #rejectReady!: (error: unknown) => void;
  #endError: Error | undefined;
  /** Session protocol: `seq` of the last persisted event delivered. */
  #lastSeq: number | undefined;
  /** Session protocol: on a live-only start, the server's last `seq` at connect (nothing up to it is wanted). */
  #seqFloor: number | undefined;
  /** When the current outage began (no ready connection since), for `reconnect.giveUpAfter`. */
  #outageSince: number | undefined;
  /** Handshakes refused in a row while the REST API answered. */
  #refusals = 0;
  /** Auth methods refused while the server's version is unknown (see resolveAuth). */
  #refusedForUnknownVersion = 0;

  constructor(ctx: SubscriptionContext, options: SubscribeOptions = {}) {
    super();
    validateOptions(options);
    this.#ctx = ctx;
    this.#options = options;
    this.#reconnect = { ...RECONNECT_DEFAULTS, ...definedOnly(options.reconnect) };
    this.#maxBuffered = options.maxBufferedEvents ?? 1000;
    this.#maxBufferedBytes = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
    this.#readyTimeout = options.readyTimeout ?? 30_000;
    this.#readyFallback = options.readyFallback ?? 3_000;
    this.#resume = options.resume ?? true;
    this.#ledger = new DeliveryLedger(options.dedupeWindow ?? 10_000);
    this.#backlog = new EventQueue<Event>(() => this.#onTake());
    this.#queues = [this.#backlog];
    this.ready = new Promise<ConversationStateMirror>((resolve, reject) => {
      this.#resolveReady = resolve;
      this.#rejectReady = reject;
    });
    // Nobody has to await `ready`; its rejection must not be reported as unhandled.
    this.ready.catch(() => undefined);
    this.#signal = options.signal;
    if (this.#signal?.aborted) {
      queueMicrotask(this.#onAbort);
      return;
    }
    this.#signal?.addEventListener('abort', this.#onAbort, { once: true });
    void this.#connect();
  }

  /** The live ConversationState mirror: the last `full_state` with the per-key updates delivered since. */
  get state(): ConversationStateMirror | undefined {
    return this.#state;
  }

  /** Where delivery stands; pass it as `after` to a later `subscribe` to continue exactly from here. */
  get position(): ResumePosition | undefined {
    const position = this.#ledger.position();
    return position && this.#lastSeq !== undefined ? { ...position, seq: this.#lastSeq } : position;
  }

  /** Events waiting in the fullest `for await` buffer (never more than `maxBufferedEvents`). */
  get buffered(): number {
    let most = 0;
    for (const queue of this.#queues) most = Math.max(most, queue.size);
    return most;
  }

  /** Bytes (frame text length) waiting in the fullest `for await` buffer (bounded by `maxBufferedBytes`). */
  get bufferedBytes(): number {
    let most = 0;
    for (const queue of this.#queues) most = Math.max(most, queue.bytes);
    return most;
  }

  get phase(): SubscriptionPhase {
    return this.#phase;
  }

  get closed(): boolean {
    return this.#phase === 'closed';
  }

  /**
   * Sends a message over the socket (the server always starts the agent loop for it). Waits for a
   * ready connection. Rejects when the subscription ends first; a message handed to a socket that then drops
   * is lost, so use `EventsClient.send` when it must arrive.
   */
  async send(message: MessageInput, options: { signal?: AbortSignal } = {}): Promise<void> {
    const { role, content } = toWireMessage(message);
    const socket = await this.#readySocket(options.signal);
    socket.send(JSON.stringify({ role, content }));
  }

  /**
   * Streamed LLM output as an async iterator (the `delta` emitter event as a loop): yields every `StreamDelta`
   * from now on and ends when the subscription ends. A `break` stops only this loop. Deltas are not persisted
   * and not resent, so at most `maxBufferedEvents` wait for a slow loop; older ones are dropped.
   */
  deltas(): AsyncIterable<StreamDelta> {
    return {
      [Symbol.asyncIterator]: () => {
        const queue = new EventQueue<StreamDelta>();
        const onDelta = (delta: StreamDelta) => {
          if (queue.size < this.#maxBuffered) queue.push(delta);
        };
        const onClose = () => {
          this.off('delta', onDelta);
          queue.end();
        };
        if (this.#phase === 'closed') queue.end();
        else {
          this.on('delta', onDelta);
          this.once('close', onClose);
        }
        return {
          next: () => queue.next(),
          return: async () => {
            this.off('delta', onDelta);
            this.off('close', onClose);
            queue.clear();
            queue.end();
            return { value: undefined, done: true };
          },
        };
      },
    };
  }

  /** Ends the subscription: closes the socket and cancels every timer and request. */
  close(): void {
    this.#finish('closed', undefined);
  }

  [Symbol.asyncIterator](): AsyncIterator<Event> {
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
            `${this.#backlogLost} events arrived before the first for-await loop started and were dropped (maxBufferedEvents ${this.#maxBuffered}, maxBufferedBytes ${this.#maxBufferedBytes}): start the loop right after subscribe(), or use subscription.position to resume`,
          ),
        );
      } else if (this.#phase === 'closed') queue.end(this.#endError);
      else this.#queues = [...this.#queues, queue];
    }
    return {
      next: () => queue.next(),
      return: async () => {
        this.#queues = this.#queues.filter((item) => item !== queue);
        queue.clear();
        this.close();
        return { value: undefined, done: true };
      },
    };
  }

  // ---- connecting -------------------------------------------------------------------------------------

  async #connect(): Promise<void> {
    if (this.#phase === 'closed') return;
    this.#phase = 'connecting';
    this.#connections += 1;
    const start = this.#startPoint();
    const conn: Connection = {
      number: this.#connections,
      abort: new AbortController(),
      socket: undefined,
      auth: 'none',
      version: undefined,
      opened: false,
      ready: false,
      live: false,
      pending: [],
      pendingBytes: 0,
      handshakeTimer: undefined,
      readyTimer: undefined,
      fallbackTimer: undefined,
      protocol: 'events',
      nextSeq: undefined,
      held: new Map(),
      gapTimer: undefined,
      floor: start.floor,
      backfill: start.backfill,
      since: start.since,
      resend: start.resend,
      resendAll: false,
    };
    this.#conn = conn;
    this.#ledger.setFloor(conn.floor);
    let url: string;
    let key: string | undefined;
    try {
      // After a failed attempt the cached version may be stale (a server rolled back or upgraded picks
      // another auth method and socket): read it again.
      conn.version = await this.#ctx.serverVersion(conn.abort.signal, this.#attempt > 0);
      if (this.#isStale(conn)) return;
      key = await this.#ctx.sessionApiKey();
      if (this.#isStale(conn)) return;
      conn.auth = resolveAuth(
        this.#options.auth ?? 'auto',
        conn.version,
        key !== undefined,
        this.#sendsHeaders(),
        this.#refusedForUnknownVersion,
      );
      const wanted = this.#options.protocol ?? 'auto';
      conn.protocol =
        wanted === 'auto'
          ? supportsFeature(conn.version, AGENT_SERVER_FEATURES.sessionSocket)
            ? 'session'
            : 'events'
          : wanted;
      const authQuery: Record<string, string> =
        conn.auth === 'query' && key !== undefined ? { session_api_key: key } : {};
      if (conn.protocol === 'session') {
        const afterSeq = this.#afterSeq(conn);
        conn.nextSeq = afterSeq === undefined ? undefined : afterSeq + 1;
        // `seq` says exactly what was delivered; the timestamp floor only serves an `after` without one.
        if (afterSeq !== undefined && afterSeq >= 0) this.#ledger.setFloor(undefined);
        url = sessionSocketUrl(this.#ctx.baseUrl, this.#ctx.conversationId, {
          ...(afterSeq === undefined ? {} : { after_seq: String(afterSeq) }),
          ...authQuery,
        });
      } else {
        const resend = resendQuery(conn.resend !== undefined ? { since: conn.resend } : 'none', conn.version);
        conn.resendAll = resend.resend_all !== undefined;
        url = eventsSocketUrl(this.#ctx.baseUrl, this.#ctx.conversationId, {
          ...resend,
          ...authQuery,
        });
      }
    } catch (error) {
      if (this.#isStale(conn)) return;
      if (isAgentServerVersionError(error) || isRequestValidationError(error)) {
        this.#fail(error as Error);
      } else {
        this.#retry(conn, { reason: 'error', error });
      }
      return;
    }
    const WebSocketImpl = this.#options.WebSocket ?? builtInWebSocket();
    if (!WebSocketImpl) {
      this.#fail(
        invalid(
          'WebSocket',
          'this runtime has no built-in WebSocket (Node 22+ and browsers have one); pass one as the WebSocket option',
        ),
      );
      return;
    }
    this.#ctx.logger.debug(`subscribing: ${redactUrl(url, this.#ctx.secrets())} (auth: ${conn.auth})`);
    const construct = WebSocketImpl as unknown as new (url: string, options?: unknown) => WebSocketLike;
    let socket: WebSocketLike;
    try {
      socket =
        conn.auth === 'header' && key !== undefined
          ? new construct(url, { headers: { 'X-Session-API-Key': key } })
          : new construct(url);
    } catch (error) {
      // The message may quote the URL, which carries the key in `query` mode.
      const detail = redactText(error instanceof Error ? error.message : String(error), this.#ctx.secrets());
      this.#fail(new SubscriptionError(`Could not create the WebSocket: ${detail}`));
      return;
    }
    conn.socket = socket;
    // A handshake the server never answers must not wait forever: it counts against `readyTimeout`.
    conn.handshakeTimer = setTimeout(() => {
      conn.handshakeTimer = undefined;
      if (!this.#isStale(conn) && !conn.opened) this.#abandon(conn, { reason: 'ready-timeout' });
    }, this.#readyTimeout);
    socket.addEventListener('open', () => this.#onOpen(conn, key));
    socket.addEventListener('message', (event: MessageEventLike) => this.#onFrame(conn, event.data));
    socket.addEventListener('close', (event: CloseEventLike) =>
      this.#onClose(conn, event.code, event.reason),
    );
    // A failure is always followed by `close`, which decides; the listener keeps `ws` from throwing.
    socket.addEventListener('error', () => undefined);
  }

  /**
   * Where the next connection starts: the caller's `after`/`history` first, then where delivery stands. After
   * a delivery, a reconnect reads again from the oldest remembered event (`DeliveryLedger.catchUpSince`) and
   * drops what was delivered by id, so events stamped earlier than the newest delivered one (a clock set
   * back) are not lost.
   */
  #startPoint(): {
    floor: ResumePosition | undefined;
    backfill: boolean;
    since: string | undefined;
    resend: string | undefined;
  } {
    const { after, history } = this.#options;
    const start = (floor: ResumePosition | undefined, backfill: boolean) => ({
      floor,
      backfill,
      since: floor?.timestamp,
      resend: backfill ? floor?.timestamp : undefined,
    });
    const initial =
      after !== undefined
        ? start(typeof after === 'string' ? { timestamp: after, eventIds: [] } : after, true)
        : start(undefined, history === true);
    if (this.#connections === 0) return initial;
    if (!this.#resume) return start(undefined, false);
    if (this.#ledger.delivered) {
      // No floor: what was delivered is dropped by id, and nothing new is dropped by its timestamp.
      return {
        floor: undefined,
        backfill: true,
        since: this.#ledger.catchUpSince(),
        resend: this.#ledger.position()?.timestamp,
      };
    }
    // A live-only subscription that delivered nothing yet resumes from its first snapshot's server time;
    // one that wanted the history and delivered none of it still wants all of it.
    if (initial.backfill) return initial;
    return start(this.#baseline, this.#baseline !== undefined);
  }

  /**
   * Session protocol: the `after_seq` of the next connection. The last delivered `seq` when there is one (and
   * `resume`); an `after` position's `seq`; -1 (the whole log, older events dropped by the timestamp floor)
   * for `history`, a timestamp `after` or a reconnect that delivered nothing yet; omitted for live only.
   */
  #afterSeq(conn: Connection): number | undefined {
    const reconnect = this.#connections > 1;
    if (reconnect && !this.#resume) return undefined;
    if (this.#lastSeq !== undefined) return this.#lastSeq;
    const after = this.#options.after;
    if (typeof after === 'object' && typeof after.seq === 'number') return after.seq;
    if (conn.backfill) return -1;
    if (reconnect) return this.#seqFloor ?? -1;
    return undefined;
  }

  #sendsHeaders(): boolean {
    return this.#options.WebSocket !== undefined || runtimeSendsHeaders();
  }

  #onOpen(conn: Connection, key: string | undefined): void {
    if (this.#isStale(conn)) return;
    conn.opened = true;
    clearTimeout(conn.handshakeTimer);
    conn.handshakeTimer = undefined;
    this.#refusals = 0;
    if (conn.auth === 'first-message' && key !== undefined) conn.socket?.send(authFrame(key));
    conn.readyTimer = setTimeout(() => {
      conn.readyTimer = undefined;
      if (!this.#isStale(conn) && !conn.ready) this.#abandon(conn, { reason: 'ready-timeout' });
    }, this.#readyTimeout);
    conn.fallbackTimer = setTimeout(() => {
      conn.fallbackTimer = undefined;
      if (!this.#isStale(conn) && !conn.ready) void this.#readStateOverRest(conn);
    }, this.#readyFallback);
  }

  /** No state came over the socket in time: read the conversation over REST and count that as the first state. */
  async #readStateOverRest(conn: Connection): Promise<void> {
    let state: Record<string, unknown>;
    try {
      state = await this.#ctx.readState(conn.abort.signal);
    } catch (error) {
      // The ready timeout still bounds the wait; a failing read is only logged.
      if (!this.#isStale(conn))
        this.#ctx.logger.info(`reading the conversation state failed: ${String(error)}`);
      return;
    }
    if (this.#isStale(conn) || conn.ready) return;
    this.#ctx.logger.debug('no state over the socket in time: using the state read over REST');
    this.#state = { ...state } as ConversationStateMirror;
    this.#emit('state', this.#state);
    this.#becomeReady(conn, undefined);
  }

  #onFrame(conn: Connection, data: unknown): void {
    if (this.#isStale(conn)) return;
    if (conn.protocol === 'session') {
      this.#onEnvelope(conn, data);
      return;
    }
    const text = frameText(data);
    let raw: unknown;
    try {
      raw = text === undefined ? undefined : JSON.parse(text);
    } catch {
      raw = text;
    }
    const parsed = text === undefined ? undefined : safeParseOwnedEvent(raw, LENIENT);
    if (!parsed?.success) {
      const error = parsed?.error ?? new SubscriptionError('The server sent a binary frame');
      this.#ctx.logger.warn(`ignored a frame that is not an event: ${error.message}`);
      this.#emit('error', error);
      return;
    }
    const event = parsed.data;
    const fields = raw as { id?: unknown; timestamp?: unknown };
    const bytes = (text as string).length;
    // Identity as the server sent it: its id, or for a frame without one the frame's content (the parser
    // would invent a new random id at every parse, and a resent frame would never be recognised).
    const id = typeof fields.id === 'string' ? fields.id : contentId(text as string);
    const timestamp = positionTimestamp(fields.timestamp);
    if (this.#divertTransient(event)) return;
    if (
      event.kind === 'ConversationStateUpdateEvent' &&
      isConversationStateUpdateEvent(event) &&
      event.key === FULL_STATE_KEY
    ) {
      this.#onSnapshot(conn, event);
    } else if (
      // A server that resends the whole log (`resend_all`, before 1.15.0; the resend and live frames
      // interleave): a frame stamped before the catch-up's start is part of that resend, already delivered.
      // This is the one place a timestamp drops a frame, and only on those servers.
      conn.resendAll &&
      conn.since !== undefined &&
      timestamp !== undefined &&
      timestamp < conn.since
    ) {
      return;
    } else if (conn.live) {
      // The bound is checked again after the listeners ran: one of them may have closed the subscription.
      if (this.#deliver(event, id, timestamp, bytes, false) && !this.#isStale(conn) && this.#overflowing())
        this.#onOverflow(conn);
    } else if (!this.#ledger.isOld(id, timestamp)) {
      // A per-key update is a state too: the server sends one instead of the snapshot when the conversation
      // has no live service, and drops the snapshot when sending it is slow.
      if (!conn.ready && isConversationStateUpdateEvent(event)) {
        this.#state = applyStateUpdate(this.#state, event);
        this.#emit('state', this.#state);
        conn.pending.push({ event, id, timestamp, bytes });
        conn.pendingBytes += bytes;
        this.#becomeReady(conn, timestamp);
        return;
      }
      conn.pending.push({ event, id, timestamp, bytes });
      conn.pendingBytes += bytes;
      if (
        conn.pending.length > Math.max(1000, this.#maxBuffered) ||
        conn.pendingBytes > this.#maxBufferedBytes
      ) {
        // Catching up takes longer than the server publishes: drop this connection, keep the progress, resume
        // (once the consumer has caught up, when it is the one holding things back).
        if (this.#overflowing()) this.#onOverflow(conn);
        else this.#abandon(conn, { reason: 'sync-overflow' });
      }
    }
  }

  /**
   * Frames that are not persisted events: a `ServerErrorEvent` goes to the `error` channel, a
   * `StreamingDeltaEvent` to `delta`. True when the event was taken.
   */
  #divertTransient(event: Event): boolean {
    if (event.kind === 'ServerErrorEvent' && isServerErrorEvent(event)) {
      this.#emit('error', new SubscriptionServerError(event.code, event.detail));
      return true;
    }
    if (event.kind === 'StreamingDeltaEvent' && isStreamingDeltaEvent(event)) {
      if (this.listenerCount('delta') === 0) return true;
      const delta = { type: 'delta', itemId: undefined, attempt: 1, order: undefined } as const;
      if (event.reasoning_content)
        this.#emit('delta', { ...delta, kind: 'reasoning', content: event.reasoning_content });
      if (event.content) this.#emit('delta', { ...delta, kind: 'text', content: event.content });
      return true;
    }
    return false;
  }

  /**
   * One `/sockets/session` frame. Unknown envelope types and fields are ignored (the server's envelope is open:
   * newer servers may add both).
   */
  #onEnvelope(conn: Connection, data: unknown): void {
    const text = frameText(data);
    let envelope: Record<string, unknown> | undefined;
    try {
      const value: unknown = text === undefined ? undefined : JSON.parse(text);
      if (typeof value === 'object' && value !== null && !Array.isArray(value))
        envelope = value as Record<string, unknown>;
    } catch {
      envelope = undefined;
    }
    if (!envelope) {
      const error = new SubscriptionError('The server sent a frame that is not a JSON envelope');
      this.#ctx.logger.warn(error.message);
      this.#emit('error', error);
      return;
    }
    switch (envelope.type) {
      case 'durable': {
        const seq = envelope.seq;
        const parsed = safeParseOwnedEvent(envelope.event, LENIENT);
        if (typeof seq !== 'number' || !Number.isInteger(seq) || !parsed.success) {
          const error = parsed.success
            ? new SubscriptionError('The server sent a durable envelope without a valid seq')
            : parsed.error;
          this.#ctx.logger.warn(`ignored a durable envelope: ${error.message}`);
          this.#emit('error', error);
          return;
        }
        const raw = envelope.event as { id?: unknown; timestamp?: unknown };
        const id = typeof raw.id === 'string' ? raw.id : `seq:${seq}`;
        this.#onDurable(
          conn,
          seq,
          parsed.data,
          id,
          positionTimestamp(raw.timestamp),
          (text as string).length,
        );
        return;
      }
      case 'transient': {
        const parsed = safeParseOwnedEvent(envelope.event, LENIENT);
        if (!parsed.success) {
          this.#ctx.logger.warn(`ignored a transient envelope: ${parsed.error.message}`);
          this.#emit('error', parsed.error);
          return;
        }
        const event = parsed.data;
        if (this.#divertTransient(event)) return;
        if (isConversationStateUpdateEvent(event)) {
          if (event.key === FULL_STATE_KEY) {
            this.#state = applyStateUpdate(undefined, event);
            this.#stateTimestamp = timestampOf(event);
          } else this.#state = applyStateUpdate(this.#state, event);
          this.#emit('state', this.#state);
          if (!conn.ready) this.#becomeReady(conn, timestampOf(event));
          return;
        }
        // Other non-persisted events are delivered as they come (they are never replayed).
        const raw = envelope.event as { id?: unknown; timestamp?: unknown };
        const id = typeof raw.id === 'string' ? raw.id : contentId(text as string);
        this.#deliver(event, id, positionTimestamp(raw.timestamp), (text as string).length);
        return;
      }
      case 'sync': {
        const through = envelope.through_seq;
        // Live only: nothing up to the server's current `seq` is wanted, and a reconnect resumes after it.
        if (conn.nextSeq === undefined && typeof through === 'number' && Number.isInteger(through)) {
          conn.nextSeq = through + 1;
          if (this.#lastSeq === undefined) this.#seqFloor = through;
        }
        return;
      }
      case 'item_started':
      case 'delta':
      case 'item_aborted':
        this.#onStreamEnvelope(envelope);
        return;
      case 'error': {
        const code = typeof envelope.code === 'string' ? envelope.code : String(envelope.code ?? 'error');
        const detail =
          typeof envelope.detail === 'string' ? envelope.detail : JSON.stringify(envelope.detail ?? '');
        this.#ctx.logger.warn(`the server reported an error: ${code}`);
        this.#emit('error', new SubscriptionServerError(code, detail));
        return;
      }
      default:
        // A newer server may send such envelopes at stream rate: the type goes as a log argument, so no text
        // is built for each of them while debug logging is off (the default).
        this.#ctx.logger.debug('ignored an envelope of unknown type', envelope.type);
    }
  }

  #onStreamEnvelope(envelope: Record<string, unknown>): void {
    if (this.listenerCount('delta') === 0) return;
    const itemId = typeof envelope.item_id === 'string' ? envelope.item_id : undefined;
    const attempt = typeof envelope.attempt === 'number' ? envelope.attempt : 1;
    if (itemId === undefined) return;
    if (envelope.type === 'item_started') {
      const anchorSeq = typeof envelope.anchor_seq === 'number' ? envelope.anchor_seq : undefined;
      this.#emit('delta', { type: 'item_started', itemId, attempt, anchorSeq });
    } else if (envelope.type === 'item_aborted') {
      const reason = typeof envelope.reason === 'string' ? envelope.reason : undefined;
      this.#emit('delta', { type: 'item_aborted', itemId, attempt, reason });
    } else if (typeof envelope.content === 'string') {
      const order = typeof envelope.order === 'number' ? envelope.order : undefined;
      const kind = envelope.kind === 'reasoning' ? 'reasoning' : 'text';
      this.#emit('delta', { type: 'delta', itemId, attempt, order, kind, content: envelope.content });
    }
  }

  /**
   * A persisted event with its `seq`: delivered in `seq` order exactly once. A `seq` already delivered is a
   * duplicate; one ahead of a gap is held until the gap fills, or the connection replays from the gap.
   */
  #onDurable(
    conn: Connection,
    seq: number,
    event: Event,
    id: string,
    timestamp: string | undefined,
    bytes: number,
  ): void {
    if (this.#lastSeq !== undefined && seq <= this.#lastSeq) return;
    if (conn.nextSeq === undefined) conn.nextSeq = seq;
    if (seq < conn.nextSeq) return;
    if (seq > conn.nextSeq) {
      conn.held.set(seq, { event, id, timestamp, bytes });
      if (conn.held.size > Math.max(1000, this.#maxBuffered)) {
        this.#abandon(conn, { reason: 'sequence-gap' });
      } else if (conn.gapTimer === undefined) {
        conn.gapTimer = setTimeout(() => {
          conn.gapTimer = undefined;
          if (!this.#isStale(conn) && conn.held.size > 0) this.#abandon(conn, { reason: 'sequence-gap' });
        }, GAP_TIMEOUT);
      }
      return;
    }
    if (!this.#deliverInSequence(conn, seq, event, id, timestamp, bytes)) return;
    // What waited for this `seq` follows it.
    const held = conn.held;
    for (let nextSeq = seq + 1; held.size > 0; nextSeq += 1) {
      const item = held.get(nextSeq);
      if (item === undefined) break;
      if (!this.#deliverInSequence(conn, nextSeq, item.event, item.id, item.timestamp, item.bytes)) return;
    }
    if (held.size === 0 && conn.gapTimer !== undefined) {
      clearTimeout(conn.gapTimer);
      conn.gapTimer = undefined;
    }
  }

  /** Delivers the durable event `seq` (the next one due). False when the connection ended or paused. */
  #deliverInSequence(
    conn: Connection,
    seq: number,
    event: Event,
    id: string,
    timestamp: string | undefined,
    bytes: number,
  ): boolean {
    conn.nextSeq = seq + 1;
    this.#lastSeq = seq;
    if (conn.held.size > 0) conn.held.delete(seq);
    const full = this.#deliver(event, id, timestamp, bytes, true, true);
    if (this.#isStale(conn)) return false;
    if (!conn.ready && isConversationStateUpdateEvent(event)) this.#becomeReady(conn, timestampOf(event));
    if (full && this.#overflowing()) {
      this.#onOverflow(conn);
      return false;
    }
    return true;
  }

  #onSnapshot(conn: Connection, event: KnownEventMap['ConversationStateUpdateEvent']): void {
    this.#state = applyStateUpdate(undefined, event);
    this.#stateTimestamp = timestampOf(event);
    this.#emit('state', this.#state);
    if (conn.ready) return;
    this.#becomeReady(conn, timestampOf(event));
  }

  /** The connection got its first state: `ready` resolves; the legacy socket catches up, the session socket is live. */
  #becomeReady(conn: Connection, timestamp: string | undefined): void {
    if (conn.ready) return;
    conn.ready = true;
    clearTimeout(conn.readyTimer);
    conn.readyTimer = undefined;
    clearTimeout(conn.fallbackTimer);
    conn.fallbackTimer = undefined;
    this.#readyConnections += 1;
    if (!this.#baseline && timestamp !== undefined) this.#baseline = { timestamp, eventIds: [] };
    this.#resolveReady(this.#state ?? {});
    for (const waiter of this.#readyWaiters.splice(0)) waiter.resolve();
    if (conn.protocol === 'events') {
      void this.#catchUp(conn);
      return;
    }
    // The session socket replays in `seq` order itself: nothing to catch up.
    conn.live = true;
    this.#phase = 'live';
    this.#attempt = 0;
    this.#outageSince = undefined;
    this.#emitOpen(conn);
  }

  #emitOpen(conn: Connection): void {
    this.#emit('open', {
      connection: this.#readyConnections,
      resumed: this.#readyConnections > 1,
      auth: conn.auth,
      serverVersion: conn.version,
      protocol: conn.protocol,
    });
  }

  /** Delivers the persisted events since the floor in order, then what the socket held back, then goes live. */
  async #catchUp(conn: Connection): Promise<void> {
    this.#phase = 'syncing';
    if (conn.backfill) {
      try {
        for await (const page of this.#ctx.backfill(conn.since, conn.abort.signal)) {
          if (this.#isStale(conn)) return;
          if (
            !(await this.#deliverAll(
              conn,
              page.items.map((event) => this.#fromRest(event)),
            ))
          )
            return;
        }
      } catch (error) {
        if (!this.#isStale(conn)) this.#abandon(conn, { reason: 'sync-failed', error });
        return;
      }
    }
    // Live frames and the resend interleave; both come in the server's order (arrival order; a resent event
    // already read over REST is dropped by id). Never sorted by timestamp: a clock set back would reorder.
    // Frames keep arriving while a slow consumer is waited for: take them in batches until none is left.
    while (conn.pending.length > 0) {
      const held = conn.pending;
      conn.pending = [];
      conn.pendingBytes = 0;
      if (!(await this.#deliverAll(conn, held))) return;
    }
    conn.live = true;
    this.#phase = 'live';
    this.#attempt = 0;
    // The outage ends when a connection is caught up, not when it is ready: a catch-up that keeps failing
    // counts against `reconnect.giveUpAfter`.
    this.#outageSince = undefined;
    this.#emitOpen(conn);
  }

  /**
   * Delivers catch-up events one by one, waiting for a slow `for await` loop whenever its buffer is full, so
   * the buffer never holds more than `maxBufferedEvents`. False when the connection ended meanwhile.
   */
  async #deliverAll(conn: Connection, items: readonly Received[]): Promise<boolean> {
    for (const { event, id, timestamp, bytes } of items) {
      if (this.#overflowing()) {
        if (this.#options.onOverflow === 'error' || !this.#resume) {
          this.#onOverflow(conn);
          return false;
        }
        await this.#drained();
        if (this.#isStale(conn)) return false;
      }
      this.#deliver(event, id, timestamp, bytes);
    }
    return true;
  }

  #onClose(conn: Connection, code: number, rawReason: string): void {
    if (this.#isStale(conn)) return;
    // A close reason is server text, shown in errors and reports: it may echo a credential.
    const reason = redactText(rawReason, this.#ctx.secrets());
    this.#dropConnection(conn);
    if (code === AUTH_FAILED) {
      this.#fail(
        new SubscriptionAuthenticationError(
          `The server closed the socket: ${code} ${reason || 'Authentication failed'}`,
          {
            closeCode: code,
            closeReason: reason,
          },
        ),
      );
    } else if (code === NOT_FOUND) {
      // Right after a server restart the dead process's conversation lease makes the new one answer 4004
      // until it expires (up to 45 s) although the conversation exists: ask REST before giving up.
      conn.abort = new AbortController();
      void this.#classifyNotFound(conn, code, reason);
    } else if (code === TRY_AGAIN_LATER && reason === CREDENTIAL_BINDING_REASON) {
      this.#fail(
        new SubscriptionCredentialBindingError(
          `The server closed the socket: ${code} ${reason}. The conversation's credential binding must be activated before its events can be streamed: activate it (agent server credential-binding API, or the platform that started the conversation), then subscribe again.`,
          { closeCode: code, closeReason: reason },
        ),
      );
    } else if (!conn.opened) {
      // The connection's controller was aborted with it; the probe gets its own (aborted by close/abort).
      conn.abort = new AbortController();
      void this.#classifyRefusal(conn, code, reason);
    } else {
      this.#retry(conn, {
        reason: code === TRY_AGAIN_LATER ? 'overloaded' : 'closed',
        closeCode: code,
        closeReason: reason,
      });
    }
  }

  /** Close 4004: fatal when REST says 404 too; while REST finds the conversation, wait for the lease. */
  async #classifyNotFound(conn: Connection, code: number, reason: string): Promise<void> {
    try {
      await this.#ctx.probe(conn.abort.signal);
    } catch (error) {
      if (this.#phase === 'closed' || this.#conn !== conn) return;
      if (isNotFoundError(error)) {
        this.#fail(
          new SubscriptionNotFoundError(
            `The server closed the socket: ${code} ${reason || 'Conversation not found'}`,
            { closeCode: code, closeReason: reason, cause: error },
          ),
        );
      } else {
        this.#retry(conn, { reason: 'error', closeCode: code, closeReason: reason, error });
      }
      return;
    }
    if (this.#phase === 'closed' || this.#conn !== conn) return;
    this.#retry(conn, { reason: 'conversation-lease', closeCode: code, closeReason: reason });
  }

  /**
   * The handshake failed. A refused key closes before accept (HTTP 403), which the WebSocket API
   * cannot tell from a server that is down (both are close 1006). The REST API answers the same key with 401,
   * or 404 for an unknown conversation; a network error means the server is down: try again.
   */
  async #classifyRefusal(conn: Connection, code: number, reason: string): Promise<void> {
    try {
      await this.#ctx.probe(conn.abort.signal);
    } catch (error) {
      if (this.#phase === 'closed' || this.#conn !== conn) return;
      if (isAuthenticationError(error) || isPermissionDeniedError(error)) {
        this.#fail(
          new SubscriptionAuthenticationError(
            'The server refused the WebSocket handshake, and its REST API refuses the session key',
            { closeCode: code, closeReason: reason, cause: error },
          ),
        );
      } else if (isNotFoundError(error)) {
        this.#fail(
          new SubscriptionNotFoundError(
            'The server refused the WebSocket handshake: the conversation does not exist',
            {
              closeCode: code,
              closeReason: reason,
              cause: error,
            },
          ),
        );
      } else {
        this.#retry(conn, { reason: 'error', closeCode: code, closeReason: reason, error });
      }
      return;
    }
    if (this.#phase === 'closed' || this.#conn !== conn) return;
    if (
      (this.#options.auth ?? 'auto') === 'auto' &&
      parseAgentServerVersion(conn.version) === undefined &&
      conn.auth !== 'query' &&
      conn.auth !== 'none'
    ) {
      // The REST API takes the key but the socket refused this method: the next one may be what it wants.
      this.#refusedForUnknownVersion += 1;
      this.#retry(conn, { reason: 'closed', closeCode: code, closeReason: reason });
      return;
    }
    this.#refusals += 1;
    if (this.#refusals >= REFUSALS_BEFORE_ENDPOINT_MISSING) {
      const path = conn.protocol === 'session' ? '/sockets/session' : '/sockets/events';
      this.#fail(
        new SubscriptionEndpointNotFoundError(
          `The server refused the WebSocket handshake on ${path} ${this.#refusals} times in a row while its REST API answers for the conversation: this server probably has no ${path} (handshake 404). Pass protocol: '${conn.protocol === 'session' ? 'events' : 'session'}' to use the other socket.`,
          { closeCode: code, closeReason: reason },
        ),
      );
      return;
    }
    this.#retry(conn, { reason: 'closed', closeCode: code, closeReason: reason });
  }

  // ---- delivery ---------------------------------------------------------------------------------------

  /**
   * Delivers one event unless it is a duplicate or older than wanted. True when a `for await` buffer is now
   * at `maxBufferedEvents`. `id`, `position` (its position timestamp) and `bytes` are as the server sent it;
   * `sequenced`: a durable event whose `seq` was checked (see `DeliveryLedger.admitSequenced`).
   * Runs for every event: no allocation, no emit to a name nobody listens to.
   */
  #deliver(
    event: Event,
    id: string,
    position: string | undefined,
    bytes: number,
    applyFloor = true,
    sequenced = false,
  ): boolean {
    const ledger = this.#ledger;
    if (
      !(sequenced ? ledger.admitSequenced(id, position, applyFloor) : ledger.admit(id, position, applyFloor))
    )
      return false;
    const queues = this.#queues;
    const max = this.#maxBuffered;
    const maxBytes = this.#maxBufferedBytes;
    let full = false;
    for (let i = 0; i < queues.length; i += 1) {
      const queue = queues[i]!;
      if (queue.push(event, bytes) >= max || queue.bytes >= maxBytes) full = true;
    }
    const backlog = this.#backlog;
    if (full && backlog !== undefined && (backlog.size >= max || backlog.bytes >= maxBytes))
      full = this.#dropBacklog();
    const kind = event.kind as KnownEventKind; // an unknown kind has no listeners of its own
    if (this.#anyListener()) {
      if (this.listenerCount('event') > 0) this.#emitEvent('event', event);
      if (this.listenerCount(kind) > 0) this.#emitEvent(kind, event);
    }
    if (kind === 'ConversationStateUpdateEvent' && isConversationStateUpdateEvent(event)) {
      // Catch-up events can be older than the snapshot the connection started with: they must not roll it back.
      const timestamp = timestampOf(event);
      if (
        this.#stateTimestamp === undefined ||
        timestamp === undefined ||
        timestamp >= this.#stateTimestamp
      ) {
        this.#state = applyStateUpdate(this.#state, event);
        if (timestamp !== undefined) this.#stateTimestamp = timestamp;
        if (this.listenerCount('state') > 0) this.#emit('state', this.#state);
      }
    }
    return full;
  }

  /**
   * An event read over REST: its id (or, without one, its content), position timestamp and size (its JSON
   * text, as a frame would have it; only measured when there is a byte bound or no id).
   */
  #fromRest(event: Event): Received {
    const id = idOf(event);
    const sized = id === undefined || this.#maxBufferedBytes !== Number.POSITIVE_INFINITY;
    const text = sized ? JSON.stringify(event) : '';
    return {
      event,
      id: id ?? contentId(text),
      timestamp: positionTimestamp((event as { timestamp?: unknown }).timestamp),
      bytes: text.length,
    };
  }

  /**
   * No loop has iterated within `maxBufferedEvents` events (or `maxBufferedBytes`): listeners only, and the
   * first loop started later gets SubscriptionOverflowError. True when another buffer is full.
   */
  #dropBacklog(): boolean {
    const backlog = this.#backlog;
    this.#backlog = undefined;
    this.#queues = this.#queues.filter((queue) => queue !== backlog);
    this.#backlogLost = backlog?.size ?? 0;
    backlog?.clear();
    this.#ctx.logger.warn(
      `no for-await loop took events within ${this.#backlogLost} events (maxBufferedEvents ${this.#maxBuffered}, maxBufferedBytes ${this.#maxBufferedBytes}): they went to listeners only; a for-await loop started later gets SubscriptionOverflowError`,
    );
    return this.#overflowing();
  }

  #overflowing(): boolean {
    const queues = this.#queues;
    for (let i = 0; i < queues.length; i += 1) {
      const queue = queues[i]!;
      if (queue.size >= this.#maxBuffered || queue.bytes >= this.#maxBufferedBytes) return true;
    }
    return false;
  }

  #onOverflow(conn: Connection): void {
    if (this.#options.onOverflow === 'error' || !this.#resume) {
      this.#fail(
        new SubscriptionOverflowError(
          `The consumer fell behind by ${this.buffered} events, ${this.bufferedBytes} bytes (maxBufferedEvents ${this.#maxBuffered}, maxBufferedBytes ${this.#maxBufferedBytes}); onOverflow is 'error'`,
        ),
      );
      return;
    }
    // Pause: stop reading; what the server publishes meanwhile is resent when the consumer has caught up.
    this.#dropConnection(conn);
    this.#closeSocket(conn);
    this.#conn = undefined;
    this.#phase = 'paused';
    this.#emit('reconnecting', { reason: 'slow-consumer', attempt: 0, delay: undefined });
    void this.#drained().then(() => {
      if (this.#phase === 'paused') void this.#connect();
    });
  }

  /** Resolves when every `for await` buffer is down to half of `maxBufferedEvents` (or the subscription ends). */
  #drained(): Promise<void> {
    if (!this.#overflowingHalf()) return Promise.resolve();
    return new Promise((resolve) => this.#drainWaiters.push(resolve));
  }

  #overflowingHalf(): boolean {
    const low = Math.floor(this.#maxBuffered / 2);
    const lowBytes = Math.floor(this.#maxBufferedBytes / 2);
    for (const queue of this.#queues) if (queue.size > low || queue.bytes > lowBytes) return true;
    return false;
  }

  #onTake(): void {
    if (this.#drainWaiters.length > 0 && !this.#overflowingHalf()) {
      for (const resolve of this.#drainWaiters.splice(0)) resolve();
    }
  }

  // ---- reconnecting and ending ------------------------------------------------------------------------

  /** Drops a connection on purpose (the server did not close it) and tries again. */
  #abandon(conn: Connection, info: Omit<ReconnectInfo, 'attempt' | 'delay'>): void {
    this.#dropConnection(conn);
    this.#closeSocket(conn);
    this.#retry(conn, info);
  }

  #retry(conn: Connection, info: Omit<ReconnectInfo, 'attempt' | 'delay'>): void {
    if (this.#phase === 'closed' || this.#conn !== conn) return;
    this.#conn = undefined;
    this.#attempt += 1;
    const now = Date.now();
    this.#outageSince ??= now;
    const limit =
      info.reason === 'conversation-lease'
        ? Math.max(this.#reconnect.giveUpAfter, this.#reconnect.leaseTimeout)
        : this.#reconnect.giveUpAfter;
    if (now - this.#outageSince >= limit) {
      this.#fail(
        new SubscriptionConnectionError(
          `Gave up: no working connection for ${now - this.#outageSince} ms (reconnect.giveUpAfter ${limit} ms; last: ${info.reason}${info.closeCode ? ` ${info.closeCode}` : ''})`,
          { closeCode: info.closeCode, closeReason: info.closeReason, cause: info.error },
        ),
      );
      return;
    }
    if (this.#attempt > this.#reconnect.maxAttempts) {
      this.#fail(
        new SubscriptionConnectionError(
          `Gave up after ${this.#reconnect.maxAttempts} failed connection attempts`,
          {
            closeCode: info.closeCode,
            closeReason: info.closeReason,
            cause: info.error,
          },
        ),
      );
      return;
    }
    const delay = backoffDelay(this.#attempt, this.#reconnect, info.reason === 'overloaded');
    this.#phase = 'waiting';
    // At warn, the default level: a subscription never waits in silence.
    this.#ctx.logger.warn(
      `subscription to ${this.#ctx.conversationId}: ${info.reason}${info.closeCode ? ` (${info.closeCode})` : ''}; reconnecting in ${delay} ms (attempt ${this.#attempt})`,
    );
    this.#emit('reconnecting', { ...info, attempt: this.#attempt, delay });
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#connect();
    }, delay);
  }

  #fail(error: Error): void {
    this.#finish('error', error);
  }

  #finish(reason: CloseInfo['reason'], error: Error | undefined): void {
    if (this.#phase === 'closed') return;
    this.#phase = 'closed';
    this.#endError = error;
    this.#signal?.removeEventListener('abort', this.#onAbort);
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const conn = this.#conn;
    this.#conn = undefined;
    if (conn) {
      this.#dropConnection(conn);
      this.#closeSocket(conn);
    }
    const ended = error ?? new SubscriptionError('The subscription was closed');
    this.#rejectReady(ended);
    for (const waiter of this.#readyWaiters.splice(0)) waiter.reject(ended);
    for (const resolve of this.#drainWaiters.splice(0)) resolve();
    for (const queue of this.#queues) queue.end(error);
    this.#queues = [];
    if (reason === 'error' && error) this.#emit('error', error);
    this.#emit('close', error ? { reason, error } : { reason });
  }

  /** Stops everything a connection runs: its requests and its timer. */
  #dropConnection(conn: Connection): void {
    conn.abort.abort();
    clearTimeout(conn.handshakeTimer);
    conn.handshakeTimer = undefined;
    clearTimeout(conn.readyTimer);
    conn.readyTimer = undefined;
    clearTimeout(conn.fallbackTimer);
    conn.fallbackTimer = undefined;
    clearTimeout(conn.gapTimer);
    conn.gapTimer = undefined;
    conn.held.clear();
    conn.pending = [];
    conn.pendingBytes = 0;
    conn.live = false;
  }

  #closeSocket(conn: Connection): void {
    const socket = conn.socket;
    if (socket && (socket.readyState === WS_OPEN || socket.readyState === WS_CONNECTING)) {
      try {
        socket.close(NORMAL_CLOSURE);
      } catch {
        // Closing a socket that is still connecting may throw in some implementations; it is dropped anyway.
      }
    }
  }

  #isStale(conn: Connection): boolean {
    return this.#phase === 'closed' || this.#conn !== conn;
  }

  async #readySocket(signal: AbortSignal | undefined): Promise<WebSocketLike> {
    for (;;) {
      if (signal?.aborted) throw new APIUserAbortError('send() was aborted');
      if (this.#phase === 'closed') {
        throw this.#endError ?? new SubscriptionError('The subscription is closed');
      }
      const conn = this.#conn;
      if (conn?.ready && conn.socket?.readyState === WS_OPEN) return conn.socket;
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => reject(new APIUserAbortError('send() was aborted'));
        signal?.addEventListener('abort', onAbort, { once: true });
        this.#readyWaiters.push({
          resolve: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
          reject: (error) => {
            signal?.removeEventListener('abort', onAbort);
            reject(error);
          },
        });
      });
    }
  }

  /**
   * False when no listener at all is registered (a `for await` loop alone): then the per-event names are not
   * looked up. eventemitter3 counts the names that have listeners in `_eventsCount`; anything but 0 (or a
   * version without the field) takes the normal path.
   */
  #anyListener(): boolean {
    return (this as unknown as { _eventsCount?: unknown })._eventsCount !== 0;
  }

  /** `#emit` for the per-event names, without the rest-argument array (this runs for every event). */
  #emitEvent(name: string, event: Event): void {
    try {
      (this.emit as (name: string, event: Event) => boolean)(name, event);
    } catch (error) {
      this.#listenerThrew(name, error);
    }
  }

  #listenerThrew(name: string, error: unknown): void {
    this.#ctx.logger.warn(`a '${name}' listener threw: ${(error as Error)?.message ?? String(error)}`);
    if (name !== 'error') this.#emit('error', error instanceof Error ? error : new Error(String(error)));
  }

  /** Emits to the caller's listeners; a listener that throws must not break the stream. */
  #emit<K extends keyof SubscriptionEventMap>(name: K, ...args: SubscriptionEventMap[K]): void {
    // Errors built from frames (bad frames' rawBody, error envelopes, ServerErrorEvents) may echo a credential.
    if (name === 'error') redactError(args[0], this.#ctx.secrets());
    try {
      (this.emit as (name: string, ...rest: unknown[]) => boolean)(name, ...args);
    } catch (error) {
      this.#ctx.logger.warn(
        `a '${String(name)}' listener threw: ${(error as Error)?.message ?? String(error)}`,
      );
      if (name !== 'error') this.#emit('error', error instanceof Error ? error : new Error(String(error)));
    }
  }
}

function idOf(event: Event): string | undefined {
  const id = (event as { id?: unknown }).id;
  return typeof id === 'string' ? id : undefined;
}

function timestampOf(event: Event): string | undefined {
  const timestamp = (event as { timestamp?: unknown }).timestamp;
  return typeof timestamp === 'string' ? timestamp : undefined;
}

/**
 * A stable identity for an event the server sent without an id: a hash of the frame text (two 32-bit FNV-1a
 * hashes with different seeds, and the length). The same frame resent gives the same identity.
 */
function contentId(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return `content:${(a >>> 0).toString(16)}${(b >>> 0).toString(16)}:${text.length}`;
}

function definedOnly<T extends object>(value: T | undefined): Partial<T> {
  if (!value) return {};
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as Partial<T>;
}

function validateOptions(options: SubscribeOptions): void {
  const positive = (value: unknown, field: string, allowInfinity = false) => {
    if (value === undefined) return;
    const ok =
      typeof value === 'number' &&
      value > 0 &&
      (Number.isInteger(value) || (allowInfinity && value === Number.POSITIVE_INFINITY));
    if (!ok) throw invalid(field, `must be a positive integer, got ${String(value)}`);
  };
  positive(options.maxBufferedEvents, 'options.maxBufferedEvents');
  positive(options.maxBufferedBytes, 'options.maxBufferedBytes', true);
  positive(options.readyTimeout, 'options.readyTimeout');
  positive(options.readyFallback, 'options.readyFallback');
  positive(options.reconnect?.giveUpAfter, 'options.reconnect.giveUpAfter', true);
  positive(options.reconnect?.leaseTimeout, 'options.reconnect.leaseTimeout', true);
  const { protocol } = options;
  if (protocol !== undefined && !['auto', 'session', 'events'].includes(protocol)) {
    throw invalid('options.protocol', `must be auto, session or events, got ${String(protocol)}`);
  }
  positive(options.dedupeWindow, 'options.dedupeWindow');
  positive(options.reconnect?.initialDelay, 'options.reconnect.initialDelay');
  positive(options.reconnect?.maxDelay, 'options.reconnect.maxDelay');
  positive(options.reconnect?.overloadedDelay, 'options.reconnect.overloadedDelay');
  positive(options.reconnect?.maxAttempts, 'options.reconnect.maxAttempts', true);
  const { after, auth, onOverflow } = options;
  if (auth !== undefined && !['auto', 'first-message', 'header', 'query'].includes(auth)) {
    throw invalid('options.auth', `must be auto, first-message, header or query, got ${String(auth)}`);
  }
  if (onOverflow !== undefined && onOverflow !== 'pause' && onOverflow !== 'error') {
    throw invalid('options.onOverflow', `must be pause or error, got ${String(onOverflow)}`);
  }
  if (after !== undefined) {
    const timestamp = typeof after === 'string' ? after : after?.timestamp;
    const ids = typeof after === 'string' ? [] : after?.eventIds;
    if (typeof timestamp !== 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(timestamp) || !Array.isArray(ids)) {
      throw invalid('options.after', 'must be a server timestamp or a subscription position');
    }
  }
}
