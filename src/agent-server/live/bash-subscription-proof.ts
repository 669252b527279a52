import type { Connection } from './connection.js';

/** A bash connection with no frame this long after it opened reads over REST once more. */
const SETTLE_MS = 1000;

/**
 * `/sockets/bash-events` subscribes after its handshake (after reading the first-message auth frame) and says
 * nothing when it has: the socket counts as ready when it opens, so a command stored in between comes neither on
 * the socket nor in a catch-up read made before it (real 1.31.1 delivered such a BashCommand only after a later
 * reconnect, out of order: docs/compatibility.md A42). A connection's first frame proves the subscription: the
 * connection reads over REST once more from where delivery stands, and the frame waits for that read. With no
 * frame after SETTLE_MS it reads once too (a command that finished in between, and nothing since).
 */
export class BashSubscriptionProof {
  readonly #readOnceMore: (conn: Connection) => void;

  constructor(readOnceMore: (conn: Connection) => void) {
    this.#readOnceMore = readOnceMore;
  }

  /** The connection is ready (its socket opened). */
  opened(conn: Connection): void {
    if (conn.catchUp.type === 'none') return;
    conn.settleTimer = setTimeout(() => {
      conn.settleTimer = undefined;
      if (!conn.subscribed) this.#readOnceMore(conn);
    }, SETTLE_MS);
  }

  /** A frame arrived, before it is read. */
  frame(conn: Connection): void {
    if (conn.subscribed) return;
    conn.subscribed = true;
    clearTimeout(conn.settleTimer);
    conn.settleTimer = undefined;
    this.#readOnceMore(conn);
  }
}
