import type { ConversationStateMirror, Event, KnownEventKind, KnownEventMap } from '../../models/index.js';
import type { ResumePosition } from './delivery-ledger.js';
import type { ReconnectOptions } from './reconnect-options.js';
import type { WebSocketAuthMode } from './socket-auth.js';
import type { WebSocketConstructor } from './web-socket.js';

export interface SubscribeOptions {
  /** Closes the subscription; the iterator then throws `APIUserAbortError`. */
  signal?: AbortSignal;
  /**
   * After a reconnect, deliver what was missed while disconnected (default true): `/sockets/session` replays
   * after the last delivered `seq`; the other sockets' connections read it over REST from the last contact,
   * then go live. With `false` a reconnect continues live only and events published while disconnected are not
   * delivered.
   */
  resume?: boolean;
  /**
   * Start from this point of the history instead of live: a server timestamp (events at that timestamp or
   * later, the server's `since` semantics) or a `subscription.position` saved earlier (continues exactly).
   */
  after?: string | ResumePosition;
  /** Deliver the whole conversation history first, then live events. Ignored when `after` is given. */
  history?: boolean;
  /**
   * Which socket to follow: `session` (`/sockets/session/{id}`, servers ≥ 1.45.0: sequence-numbered envelopes,
   * resume by `after_seq`, streamed output as deltas), `events` (`/sockets/events/{id}`, every version) or
   * `auto` (default: `session` when `serverInfo()` says ≥ 1.45.0, else `events`).
   */
  protocol?: 'auto' | 'session' | 'events';
  /**
   * Milliseconds from the socket's open to the first state before the conversation is read over REST instead
   * (the server drops its connect-time snapshot when sending it is slow, and sends a per-key update instead when
   * the conversation has no live service). Default 3 000.
   */
  readyFallback?: number;
  /** How to authenticate the socket; default `auto` (chosen from `serverInfo()`). */
  auth?: WebSocketAuthMode;
  /**
   * The `WebSocket` constructor. Default: on Node the `ws` package (a dependency, loaded on the first
   * subscription), which bounds a frame by `maxFrameBytes` before reading it whole; elsewhere the runtime's
   * own (docs/runtimes.md, "Bounds").
   */
  WebSocket?: WebSocketConstructor;
  reconnect?: ReconnectOptions;
  /**
   * Most events a `for await` loop may have waiting (default 1000). See `onOverflow` for what happens when
   * the consumer falls that far behind. Listeners (`on('event')`) are called synchronously and never buffered.
   */
  maxBufferedEvents?: number;
  /**
   * When a `for await` loop has `maxBufferedEvents` (or `maxBufferedBytes`) waiting:
   * - `pause` (default): nothing more is handed to the loop until it has worked the buffer down to half. A
   *   socket that can pause (`ws`) stops reading meanwhile; one that cannot (the built-in WebSocket) stays
   *   open, and the connection catches up over REST from where delivery stands, at the loop's pace, then goes
   *   live again (frames arriving meanwhile are held, and dropped past the bounds: REST reads them again).
   *   Persisted events are not lost or repeated, memory stays within the bounds. Needs `resume` (with
   *   `resume: false` it behaves as `error`).
   * - `error`: the subscription ends with `SubscriptionOverflowError`.
   */
  onOverflow?: 'pause' | 'error';
  /**
   * Most bytes (the length of the frames' JSON text) a `for await` loop may have waiting, and the most a
   * connection holds back while its catch-up runs (default 8 MiB; `Infinity`: no byte bound). Reaching it
   * is an overflow like `maxBufferedEvents` (`onOverflow`); frames held back past it during a catch-up are
   * dropped and read again over REST on the same connection (REST pages are sized to the bound, from the
   * largest event seen). A single frame larger than the bound pauses the stream until the loop takes it (or,
   * with `onOverflow: 'error'`, ends the subscription).
   */
  maxBufferedBytes?: number;
  /**
   * The largest frame accepted, in characters of frame text (default 16 MiB; `Infinity`: no bound). A larger
   * frame ends the subscription with `SubscriptionFrameTooLargeError`. The `ws` package (Node's default, or
   * passed in) gets it as `maxPayload`, which refuses a frame by its header and a compressed one while it is
   * inflated; other WebSockets can only be checked once the frame is received, and one that fails the same
   * way three times in a row at the same position ends the subscription with that error too.
   */
  maxFrameBytes?: number;
  /**
   * Milliseconds a subscription that never had a working connection keeps trying when the host does not
   * answer (refused, DNS, TLS, no route) before it ends with `SubscriptionConnectionError` naming the cause.
   * Default 10 000 (at most `reconnect.giveUpAfter`). Once a connection worked, an outage gets
   * `reconnect.giveUpAfter`.
   */
  connectTimeout?: number;
  /** Milliseconds from the socket's open to the first `full_state` before the attempt counts as failed. Default 30 000. */
  readyTimeout?: number;
  /**
   * How many delivered event ids are remembered to drop duplicates (default 10 000). The memory for them grows
   * with the deliveries up to this bound: an idle subscription holds a few KiB.
   */
  dedupeWindow?: number;
}

/** `open`: a connection is ready and caught up; events from here on are live. */
export interface OpenInfo {
  /** 1 for the first connection, then counts every connection that got ready. */
  connection: number;
  /** True when this connection resumed after a disconnect. */
  resumed: boolean;
  /** The auth method used. */
  auth: 'first-message' | 'header' | 'query' | 'none';
  /** The server's version, when `/server_info` gave one. */
  serverVersion: string | undefined;
  /** The socket followed: `session` (`/sockets/session`), `events` (`/sockets/events`) or `bash` (`/sockets/bash-events`). */
  protocol: 'session' | 'events' | 'bash';
}

/**
 * Streamed LLM output (emitter event `delta`), never mixed with persisted events: on `/sockets/session` the
 * `item_started` / `delta` / `item_aborted` envelopes; on `/sockets/events` each `StreamingDeltaEvent` frame
 * (no item id, attempt 1). Text a user sees for an item is the `delta`s of its latest `attempt` in `order`;
 * `item_aborted` (or a new attempt) discards what that attempt showed. The persisted MessageEvent or
 * ActionEvent that follows carries the final text.
 */
export type StreamDelta =
  | { type: 'item_started'; itemId: string; attempt: number; anchorSeq: number | undefined }
  | {
      type: 'delta';
      itemId: string | undefined;
      attempt: number;
      order: number | undefined;
      kind: 'text' | 'reasoning';
      content: string;
    }
  | { type: 'item_aborted'; itemId: string; attempt: number; reason: string | undefined };

export type ReconnectReason =
  | 'closed'
  | 'overloaded'
  | 'error'
  | 'ready-timeout'
  | 'sync-failed'
  /** No longer sent: frames held back past the bounds are read again over REST on the same connection. */
  | 'sync-overflow'
  /** Close 1013 `slow_consumer`: the server's send budget ran out while the app read too slowly. */
  | 'slow-consumer'
  /** Close 4004 while the REST API finds the conversation: a restarted server waiting for its lease. */
  | 'conversation-lease'
  /** Sequence numbers arrived with a gap that did not close: reconnect and replay from the last delivered. */
  | 'sequence-gap'
  /**
   * A position the server sent could not be trusted (a log reset, a bad `seq`, a gap that did not close): the
   * next connection catches up over REST by ids (a SubscriptionProtocolError was reported on `error`).
   */
  | 'resync';

/** `reconnecting`: the connection was lost (or dropped on purpose); another attempt follows. */
export interface ReconnectInfo {
  reason: ReconnectReason;
  /** Consecutive failed attempts so far. */
  attempt: number;
  /** Milliseconds until the next attempt (`undefined` was a slow-consumer pause, which no longer reconnects). */
  delay: number | undefined;
  closeCode?: number;
  closeReason?: string;
  error?: unknown;
}

/** `close`: the subscription ended; no more events. */
export interface CloseInfo {
  reason: 'closed' | 'aborted' | 'error';
  /** Set when `reason` is `error`. */
  error?: Error;
}

/** The subscription's emitter events: the lifecycle, `event` for every event and one per event kind. */
export type SubscriptionEventMap = { [K in KnownEventKind]: [event: KnownEventMap[K]] } & {
  event: [event: Event];
  delta: [delta: StreamDelta];
  state: [state: ConversationStateMirror];
  open: [info: OpenInfo];
  reconnecting: [info: ReconnectInfo];
  close: [info: CloseInfo];
  error: [error: Error];
};

export type SubscriptionPhase = 'connecting' | 'syncing' | 'live' | 'waiting' | 'paused' | 'closed';
