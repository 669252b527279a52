import type { Positioned } from './positioned.js';

export type Sequenced = Positioned & { seq: number };

/**
 * `/sockets/session` delivers persisted events by `seq`, the index in the conversation's log: in `seq` order,
 * each once. One per connection: `next` is the `seq` due (`undefined`: the first durable envelope starts the
 * sequence); envelopes ahead of a gap wait in `ahead` until it fills (or the connection resyncs).
 */
export class SeqOrder {
  next: number | undefined;
  /** Live only: `seq`s below this are from before the connection (the server's `sync.through_seq`). */
  floor = 0;
  readonly ahead = new Map<number, Sequenced>();

  /** Where `item` stands: already delivered (`old`), the one `due`, or `ahead` of a gap (kept). */
  place(item: Sequenced, lastDelivered: number | undefined): 'old' | 'due' | 'ahead' {
    const seq = item.seq;
    if ((lastDelivered !== undefined && seq <= lastDelivered) || seq < this.floor) return 'old';
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
