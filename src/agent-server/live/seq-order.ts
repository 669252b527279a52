import type { Positioned } from './positioned.js';

export type Sequenced = Positioned & { seq: number };

/**
 * `/sockets/session` delivers persisted events by `seq`, the index in the conversation's log: in `seq` order,
 * each once. One per connection: `next` is the `seq` due (`undefined`: the first durable envelope starts the
 * sequence); envelopes ahead of a gap wait in `ahead` until it fills (or the connection resyncs).
 */
export class SeqOrder {
  next: number | undefined;
  /**
   * Live only: the server's `sync.through_seq`. A `seq` below it was in the log when the server read that mark,
   * yet it may still come: the server subscribes the connection before it reads the mark and sends a live-only
   * one everything published since, unfiltered (1.58 session_socket.py, `go_live(None)`). Such an envelope
   * is no position (`before`): the caller admits it by id, as the REST catch-up may have delivered it
   * (compatibility A39: seq 0 dropped here by `seq` was lost when REST did not have it yet).
   */
  floor = 0;
  readonly ahead = new Map<number, Sequenced>();

  /**
   * Where `item` stands: below the live-only floor (`before`), already delivered (`old`), the one `due`, or
   * `ahead` of a gap (kept).
   */
  place(item: Sequenced, lastDelivered: number | undefined): 'before' | 'old' | 'due' | 'ahead' {
    const seq = item.seq;
    // First: the catch-up's end raises `lastDelivered` to the mark, so below the floor it says nothing.
    if (seq < this.floor) return 'before';
    if (lastDelivered !== undefined && seq <= lastDelivered) return 'old';
    if (this.next === undefined) this.next = seq;
    if (seq < this.next) return 'old';
    if (seq > this.next) {
      this.ahead.set(seq, item);
      return 'ahead';
    }
    return 'due';
  }

  /** The kept item that is due now, if any (taken out). */
  takeDue(): Sequenced | undefined {
    if (this.next === undefined || this.ahead.size === 0) return undefined;
    const item = this.ahead.get(this.next);
    if (item !== undefined) this.ahead.delete(this.next);
    return item;
  }

  clear(): void {
    this.ahead.clear();
  }
}
