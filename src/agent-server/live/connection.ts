import type { ResumePosition } from './delivery-ledger.js';
import type { Positioned } from './positioned.js';
import { SeqOrder } from './seq-order.js';
import type { ResolvedAuth } from './socket-auth.js';
import { type WebSocketLike, WS_CONNECTING, WS_OPEN } from './web-socket.js';

/** The socket a connection follows; `bash` is `/sockets/bash-events` (legacy-style frames, no snapshot). */
export type LiveProtocol = 'session' | 'events' | 'bash';

/**
 * How a connection catches up before it goes live: `none` (the socket's own replay is enough, or live only),
 * `rest` (read the log over REST from `since`, oldest first, dropping what was delivered by id) or `contact`:
 * the same from the server's time at the last contact (the previous connection's last frame, or `subscribe()`
 * for a first connection), and no later than `since` when given (what delivery itself says). The server's
 * time of that instant is known once this connection's first state tells the server's time now: it is that
 * time minus what elapsed here since, so a server clock set back meanwhile loses nothing (see server-time.ts).
 */
export type CatchUp =
  | { type: 'none' }
  | { type: 'rest'; since: string | undefined }
  | { type: 'contact'; since: string | undefined; delivered: boolean };

/** One socket and what belongs to it; a closed or replaced connection's callbacks are ignored. */
export interface Connection {
  readonly number: number;
  readonly abort: AbortController;
  readonly protocol: LiveProtocol;
  socket: WebSocketLike | undefined;
  auth: ResolvedAuth;
  version: string | undefined;
  opened: boolean;
  ready: boolean;
  /** Caught up: frames are delivered as they come. */
  live: boolean;
  /** Frames that arrived before the catch-up finished, in arrival order, and their size. */
  held: Positioned[];
  heldBytes: number;
  /**
   * Frames held back past the bounds were dropped (a socket that cannot pause): the catch-up reads them again
   * over REST from where delivery stands before it releases what is held (connection-flow.ts `hold`).
   */
  reread: boolean;
  /** Session socket: the highest `seq` of the frames dropped so (the reread delivers up to it). */
  droppedSeq: number | undefined;
  /**
   * This connection fell behind: delivery waited for a slow loop, or frames held back past the bounds were
   * dropped (they are new events REST reads again). Its close is not a frame the WebSocket cannot take
   * (repeated-failure.ts).
   */
  fellBehind: boolean;
  /** Reading paused (`ws`'s `pause()`) while a slow consumer or a long catch-up holds frames back. */
  paused: boolean;
  /** The socket refused a frame over `maxFrameBytes` (`ws`'s `maxPayload`). */
  frameTooLarge: boolean;
  catchUp: CatchUp;
  /** Where this connection resumes from (catch-up events older than it are not wanted). */
  floor: ResumePosition | undefined;
  /** Session socket: the `after_seq` asked for (`undefined`: live only). */
  afterSeq: number | undefined;
  /** Session socket: the order of durable envelopes. */
  readonly order: SeqOrder;
  /** Where this connection's REST catch-up started (once ready), for a gap filled later. */
  catchUpSince: string | undefined;
  /** Session socket: the server's last `seq` when the connection opened (its `sync`). */
  through: number | undefined;
  /** `DeliveryCore.delivered` when the connection started: more than that is progress. */
  readonly deliveredAtStart: number;
  progressed: boolean;
  handshakeTimer: ReturnType<typeof setTimeout> | undefined;
  readyTimer: ReturnType<typeof setTimeout> | undefined;
  fallbackTimer: ReturnType<typeof setTimeout> | undefined;
  gapTimer: ReturnType<typeof setTimeout> | undefined;
  /** Bash socket: a frame came, so the server's subscription exists (bash-subscription-proof.ts). */
  subscribed: boolean;
  settleTimer: ReturnType<typeof setTimeout> | undefined;
}

export function newConnection(
  number: number,
  protocol: LiveProtocol,
  start: {
    catchUp: CatchUp;
    floor: ResumePosition | undefined;
    afterSeq: number | undefined;
  },
  deliveredAtStart: number,
): Connection {
  return {
    number,
    abort: new AbortController(),
    protocol,
    socket: undefined,
    auth: 'none',
    version: undefined,
    opened: false,
    ready: false,
    live: false,
    held: [],
    heldBytes: 0,
    reread: false,
    droppedSeq: undefined,
    fellBehind: false,
    paused: false,
    frameTooLarge: false,
    ...start,
    order: new SeqOrder(),
    through: undefined,
    catchUpSince: undefined,
    deliveredAtStart,
    progressed: false,
    handshakeTimer: undefined,
    readyTimer: undefined,
    fallbackTimer: undefined,
    gapTimer: undefined,
    subscribed: false,
    settleTimer: undefined,
  };
}

/** Stops everything a connection runs (requests, timers) and closes its socket. */
export function dropConnection(conn: Connection): void {
  conn.abort.abort();
  clearTimeout(conn.handshakeTimer);
  clearTimeout(conn.readyTimer);
  clearTimeout(conn.fallbackTimer);
  clearTimeout(conn.gapTimer);
  clearTimeout(conn.settleTimer);
  conn.handshakeTimer = conn.readyTimer = conn.fallbackTimer = conn.gapTimer = conn.settleTimer = undefined;
  conn.order.clear();
  conn.held = [];
  conn.heldBytes = 0;
  conn.live = false;
  const socket = conn.socket;
  // A socket whose reading is paused (`ws`) would never read the server's close frame: the closing handshake
  // would wait for `ws`'s own 30 s timeout, keeping the process alive.
  if (conn.paused) {
    conn.paused = false;
    (socket as { resume?: () => void } | undefined)?.resume?.();
  }
  if (socket && (socket.readyState === WS_OPEN || socket.readyState === WS_CONNECTING)) {
    try {
      socket.close(1000);
    } catch {
      // Closing a socket that is still connecting may throw in some implementations; it is dropped anyway.
    }
  }
}
