import { SubscriptionFrameTooLargeError } from '../errors.js';

/**
 * Abnormal closes in a row, each of an opened connection that delivered no new event, before the
 * subscription ends with `SubscriptionFrameTooLargeError` instead of reconnecting into the same frame again.
 *
 * Why 3: a WebSocket that cannot bound a frame (browsers', Bun's, Deno's, workerd's, Node's own, an app's
 * constructor) reports a frame it gave up on (a permessage-deflate bomb; a frame over its own limit) only as
 * `error` and close 1006 (Deno: close 0), the same as a server that died mid-connection
 * (docs/runtimes.md, "Bounds"). One such close is an outage; two may be a server restarted twice during one
 * replay; three at the same position with nothing delivered in between is the frame. Each connection the
 * frame costs is memory the runtime frees again, so the figure bounds the time, not the memory.
 */
export const SAME_FAILURES_BEFORE_FRAME_ERROR = 3;

/** Close codes of a connection that ended without a close frame: 1006, and Deno's 0; 1015 a TLS failure. */
const ABNORMAL = new Set([0, 1006, 1015]);

export interface ClosedConnection {
  code: number;
  opened: boolean;
  /** The delivery count when the connection started and when it closed: equal, nothing new was delivered. */
  deliveredAtStart: number;
  delivered: number;
}

/** Counts identical failures at one position; anything else (progress, another kind of close) starts over. */
export class RepeatedFailure {
  #count = 0;
  /** The delivery count the failures happened at. */
  #at = -1;

  /** Whether this close is the one that ends the subscription (see SAME_FAILURES_BEFORE_FRAME_ERROR). */
  closed(conn: ClosedConnection): boolean {
    const same = conn.opened && ABNORMAL.has(conn.code) && conn.delivered === conn.deliveredAtStart;
    if (!same) {
      this.reset();
      return false;
    }
    if (conn.delivered !== this.#at) {
      this.#at = conn.delivered;
      this.#count = 0;
    }
    this.#count += 1;
    return this.#count >= SAME_FAILURES_BEFORE_FRAME_ERROR;
  }

  reset(): void {
    this.#count = 0;
    this.#at = -1;
  }

  get count(): number {
    return this.#count;
  }
}

/** The error the third identical failure ends the subscription with: the limit, the cause, what to do. */
export function repeatedFailureError(
  code: number,
  maxFrameBytes: number,
  delivered: number,
  constructorPassed: boolean,
): SubscriptionFrameTooLargeError {
  const remedy = constructorPassed
    ? '. On Node, leave out the WebSocket option: ws bounds frames by maxFrameBytes before reading them'
    : '';
  return new SubscriptionFrameTooLargeError(
    `The connection failed ${SAME_FAILURES_BEFORE_FRAME_ERROR} times in a row at the same position (close ${code}, no new event after ${delivered}): most likely a frame this WebSocket cannot take (over its own limit, or a compressed frame inflating past it); it cannot apply maxFrameBytes (${maxFrameBytes} bytes) before reading a frame. Read the events from subscription.position over REST${remedy}`,
    { closeCode: code, closeReason: '' },
  );
}
