/**
 * Where a subscription is in the conversation: the newest timestamp delivered and the ids delivered at
 * exactly that timestamp. `subscribe(id, { after: position })` continues from it without repeating or
 * missing an event (the server resends from `timestamp` inclusive; the ids tell which of those were seen).
 */
export interface ResumePosition {
  timestamp: string;
  eventIds: readonly string[];
  /** The `seq` of the last persisted event delivered over `/sockets/session` (resumes with `after_seq`). */
  seq?: number;
}

interface Mark {
  timestamp: string;
  ids: Set<string>;
}

/**
 * What a subscription has delivered, to deliver every event exactly once across reconnects.
 *
 * - Ids of the last `window` delivered events: a resend of one of those is a duplicate (notes §2.1: live
 *   events and the resend interleave, so the same event can come twice).
 * - The floor: the position a connection resumed from. Events older than it were delivered before the
 *   reconnect (delivery is in timestamp order) or are not wanted (`after`); this is what keeps memory bounded
 *   when an old server resends the whole conversation.
 *
 * Timestamps are compared as strings, as the server does (notes §1.2.4: naive ISO text of one clock).
 *
 * Cost: a live stream delivers events newer than anything delivered before, which cannot be duplicates, so
 * the ids are only kept in a ring; the hash index over them is built when an event that could be a duplicate
 * shows up (a resend), kept up to date while duplicates keep being possible, and dropped after a window of
 * deliveries without one.
 */
export class DeliveryLedger {
  readonly #window: number;
  readonly #ring: (string | undefined)[];
  #next = 0;
  #index: Set<string> | undefined;
  #recordsSinceLookup = 0;
  #markTimestamp: string | undefined;
  // The ids delivered at the mark: `#markIds[0..#markCount)`, reused, not reallocated (this runs for every
  // live event; `position()` hands out copies).
  readonly #markIds: string[] = [];
  #markCount = 0;
  #floor: Mark | undefined;

  constructor(window: number) {
    this.#window = window;
    this.#ring = new Array<string | undefined>(window);
  }

  /** The resume point of the current connection (`undefined`: nothing is older than wanted). */
  setFloor(position: ResumePosition | undefined): void {
    this.#floor = position ? { timestamp: position.timestamp, ids: new Set(position.eventIds) } : undefined;
  }

  /**
   * `isOld` and `record` in one step: records the event and returns true unless it is old. The live path:
   * an event newer than everything delivered and than the floor is recorded without a lookup.
   */
  admit(id: string | undefined, timestamp: string | undefined): boolean {
    const mark = this.#markTimestamp;
    if (
      id !== undefined &&
      timestamp !== undefined &&
      mark !== undefined &&
      timestamp > mark &&
      (this.#floor === undefined || timestamp > this.#floor.timestamp)
    ) {
      this.#remember(id);
      this.#markTimestamp = timestamp;
      this.#markIds[0] = id;
      this.#markCount = 1;
      return true;
    }
    if (this.isOld(id, timestamp)) return false;
    this.record(id, timestamp);
    return true;
  }

  /** True when the event is older than the floor, or already delivered. */
  isOld(id: string | undefined, timestamp: string | undefined): boolean {
    const floor = this.#floor;
    if (floor !== undefined && timestamp !== undefined) {
      if (timestamp < floor.timestamp) return true;
      if (timestamp === floor.timestamp && id !== undefined && floor.ids.has(id)) return true;
    }
    if (id === undefined) return false;
    const mark = this.#markTimestamp;
    // Newer than everything delivered: cannot have been delivered.
    if (timestamp !== undefined && (mark === undefined || timestamp > mark)) return false;
    this.#recordsSinceLookup = 0;
    return this.#indexed().has(id);
  }

  /** Records a delivered event. */
  record(id: string | undefined, timestamp: string | undefined): void {
    if (id !== undefined) this.#remember(id);
    if (timestamp === undefined) return;
    const mark = this.#markTimestamp;
    if (mark === undefined || timestamp > mark) {
      this.#markTimestamp = timestamp;
      this.#markCount = 0;
      if (id !== undefined) this.#markIds[this.#markCount++] = id;
    } else if (timestamp === mark && id !== undefined) {
      this.#markIds[this.#markCount++] = id;
    }
  }

  /** The newest position delivered so far, if any event with a timestamp was delivered. */
  position(): ResumePosition | undefined {
    const timestamp = this.#markTimestamp;
    return timestamp === undefined
      ? undefined
      : { timestamp, eventIds: this.#markIds.slice(0, this.#markCount) };
  }

  /** Puts a delivered id in the ring (and in the index while there is one). */
  #remember(id: string): void {
    const next = this.#next;
    const oldest = this.#ring[next];
    this.#ring[next] = id;
    this.#next = next + 1 === this.#window ? 0 : next + 1;
    const index = this.#index;
    if (index !== undefined) {
      if (oldest !== undefined) index.delete(oldest);
      index.add(id);
      this.#recordsSinceLookup += 1;
      if (this.#recordsSinceLookup > this.#window) this.#index = undefined;
    }
  }

  #indexed(): Set<string> {
    if (this.#index === undefined) {
      this.#index = new Set();
      for (const id of this.#ring) if (id !== undefined) this.#index.add(id);
    }
    return this.#index;
  }
}
