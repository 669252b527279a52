/**
 * Where a subscription is in the conversation: the newest timestamp delivered and the ids delivered at
 * exactly that timestamp. `subscribe(id, { after: position })` continues from it without repeating or
 * missing an event (the server resends from `timestamp` inclusive; the ids tell which of those were seen).
 */
export interface ResumePosition {
  timestamp: string;
  eventIds: readonly string[];
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
 */
export class DeliveryLedger {
  readonly #window: number;
  readonly #seen = new Set<string>();
  #mark: Mark | undefined;
  #floor: Mark | undefined;

  constructor(window: number) {
    this.#window = window;
  }

  /** The resume point of the current connection (`undefined`: nothing is older than wanted). */
  setFloor(position: ResumePosition | undefined): void {
    this.#floor = position ? { timestamp: position.timestamp, ids: new Set(position.eventIds) } : undefined;
  }

  /** True when the event is older than the floor, or already delivered. */
  isOld(id: string | undefined, timestamp: string | undefined): boolean {
    const floor = this.#floor;
    if (floor && timestamp !== undefined) {
      if (timestamp < floor.timestamp) return true;
      if (timestamp === floor.timestamp && id !== undefined && floor.ids.has(id)) return true;
    }
    return id !== undefined && this.#seen.has(id);
  }

  /** Records a delivered event. */
  record(id: string | undefined, timestamp: string | undefined): void {
    if (id !== undefined) {
      this.#seen.add(id);
      if (this.#seen.size > this.#window) {
        // Sets iterate in insertion order: drop the oldest.
        const oldest = this.#seen.values().next().value as string;
        this.#seen.delete(oldest);
      }
    }
    if (timestamp === undefined) return;
    const mark = this.#mark;
    if (!mark || timestamp > mark.timestamp) {
      this.#mark = { timestamp, ids: new Set(id === undefined ? [] : [id]) };
    } else if (timestamp === mark.timestamp && id !== undefined) {
      mark.ids.add(id);
    }
  }

  /** The newest position delivered so far, if any event with a timestamp was delivered. */
  position(): ResumePosition | undefined {
    const mark = this.#mark;
    return mark ? { timestamp: mark.timestamp, eventIds: [...mark.ids] } : undefined;
  }
}
