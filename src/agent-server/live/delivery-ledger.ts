import { IdTable } from './id-table.js';
import { PairBlocks } from './pair-blocks.js';

/**
 * Where a subscription is in the conversation: the newest timestamp delivered and the ids delivered at
 * exactly that timestamp. `subscribe(id, { after: position })` continues from it (the server resends from
 * `timestamp` inclusive; the ids tell which of those were seen).
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

/** Milliseconds a timestamp may lie ahead of this machine's clock and still count as a position. */
const FUTURE_TOLERANCE = 24 * 3600_000;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/;

/**
 * A server timestamp usable as a position: ISO text (`YYYY-MM-DDTHH:MM:SS…`), not more than a day ahead of
 * this machine's clock. Anything else (missing, `null`, another format, far future) is kept on the event but
 * never becomes a resume position: one bad frame must not hide every later event.
 *
 * This runs for every streamed event, and the full check (a regex, a `Date.parse`, the clock) costs about a
 * tenth of a frame's `JSON.parse`. A stream's events mostly share their second with the one before, so the
 * second of the last timestamp that passed is remembered: a timestamp in that second with a millisecond part
 * (`…SS.ddd…`, the form servers send) parses to a time inside it, and it was within the bound when it was
 * remembered (the bound only moves forward while the clock does). "In that second, then a `.`" is one range
 * of strings, `[second + '.', second + '/')` ('/' follows '.'), compared natively: twice as fast as
 * `startsWith` and a look at the `.`.
 */
export function positionTimestamp(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (value >= fastFrom && value < fastTo && hasMilliseconds(value)) return value;
  if (!ISO.test(value)) return undefined;
  const time = Date.parse(value.length > 23 ? value.slice(0, 23) : value);
  if (Number.isNaN(time) || time > Date.now() + FUTURE_TOLERANCE) return undefined;
  // Not `T24:00:00`: `Date.parse` takes it only with a zero fraction.
  if (hasMilliseconds(value) && !value.startsWith('24', 11)) {
    const second = value.slice(0, SECOND_LENGTH);
    // The whole second must be within the bound, not only this instant of it.
    if (Date.parse(second) + 1000 <= Date.now() + FUTURE_TOLERANCE) {
      fastFrom = `${second}.`;
      fastTo = `${second}/`;
    }
  }
  return value;
}

/** `YYYY-MM-DDTHH:MM:SS`: the part of a timestamp `[fastFrom, fastTo)` is about. */
const SECOND_LENGTH = 19;
/**
 * The second (`YYYY-MM-DDTHH:MM:SS`) of the last timestamp that passed the full check with milliseconds, as
 * the range of timestamps in it with a millisecond part: `[fastFrom, fastTo)` (empty until one passed).
 */
let fastFrom = '';
let fastTo = '';

/** `.ddd` right after the seconds: the first 23 characters, which `positionTimestamp` parses, are a plain time. */
function hasMilliseconds(value: string): boolean {
  return (
    value.length >= 23 &&
    value.charCodeAt(19) === 46 &&
    isDigit(value.charCodeAt(20)) &&
    isDigit(value.charCodeAt(21)) &&
    isDigit(value.charCodeAt(22))
  );
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/**
 * What a subscription has delivered, to deliver every event exactly once across reconnects.
 *
 * Duplicates are told apart by the server's own identity of an event, never by comparing timestamps: the
 * ids of the last `window` delivered events (an event without an id is identified by its content, see
 * `Subscription`). A server whose clock is set back, or that stamps an event `null` or far in the future,
 * loses nothing: timestamps only choose where a reconnect's catch-up read starts (`catchUpSince`, the oldest
 * of the window, so events stamped earlier than the newest one are read again and deduplicated) and where a
 * saved `position` resumes.
 *
 * The floor is the caller's `after`: events of a catch-up (REST read, frames held back before live) older
 * than it are not wanted. Live events are never held against it.
 *
 * Memory: the window's ring starts small and grows as events are delivered, up to `window` slots, so an
 * idle subscription holds a few hundred bytes instead of the whole window (10 000 slots by default).
 *
 * Cost: the ids and timestamps are copied into typed arrays (`PairBlocks`: as strings they made V8 grow its
 * young generation over a long stream), and the id index is a hash table of slot numbers in typed arrays
 * (`IdTable`), so remembering 10,000 events keeps no string per event on the JavaScript heap. Every id is
 * indexed, on every socket: an id reused for another event is found however the stream came (`reusedAt`).
 */
export class DeliveryLedger {
  readonly #window: number;
  /** The remembered ids and timestamps, oldest overwritten first once all `#window` slots were written. */
  readonly #blocks: PairBlocks;
  /** Which slots hold an id, for lookups. */
  readonly #index: IdTable;
  #next = 0;
  #markTimestamp: string | undefined;
  // The ids delivered at the mark: `#markIds[0..#markCount)`, reused, not reallocated (this runs for every
  // live event; `position()` hands out copies).
  readonly #markIds: string[] = [];
  #markCount = 0;
  #floor: Mark | undefined;
  /** Deliveries since one came without a position timestamp or stamped before the newest (a clock change). */
  #sinceAnomaly = Number.POSITIVE_INFINITY;

  constructor(window: number) {
    this.#window = window;
    this.#blocks = new PairBlocks(window);
    this.#index = new IdTable(this.#blocks);
  }

  /** Slots the ring has now (grows with deliveries, never beyond the window). */
  get capacity(): number {
    return this.#blocks.capacity;
  }

  /** True once any event was recorded. */
  get delivered(): boolean {
    return this.#next > 0 || this.#markTimestamp !== undefined;
  }

  /** The caller's start point for catch-up events (`undefined`: everything is wanted). */
  setFloor(position: ResumePosition | undefined): void {
    this.#floor = position ? { timestamp: position.timestamp, ids: new Set(position.eventIds) } : undefined;
  }

  /**
   * `isOld` and `record` in one step: records the event and returns true unless it was delivered before (or,
   * with `applyFloor`, is older than the caller's `after`).
   */
  admit(id: string | undefined, timestamp: string | undefined, applyFloor = true): boolean {
    if (this.isOld(id, timestamp, applyFloor)) return false;
    this.record(id, timestamp);
    return true;
  }

  /** True when the event was already delivered, or (with `applyFloor`) is older than the floor. */
  isOld(id: string | undefined, timestamp: string | undefined, applyFloor = true): boolean {
    if (applyFloor && this.#belowFloor(id, timestamp)) return true;
    return id !== undefined && this.#index.has(id);
  }

  #belowFloor(id: string | undefined, timestamp: string | undefined): boolean {
    const floor = this.#floor;
    if (floor === undefined || timestamp === undefined) return false;
    return (
      timestamp < floor.timestamp || (timestamp === floor.timestamp && id !== undefined && floor.ids.has(id))
    );
  }

  /** Records a delivered event (`timestamp`: a `positionTimestamp`, or undefined). */
  record(id: string | undefined, timestamp: string | undefined): void {
    if (id === undefined) {
      this.#markPosition(undefined, timestamp);
      return;
    }
    const slot = this.#next === this.#window ? 0 : this.#next;
    // The slot's id is overwritten (the oldest of the window once it is full): it leaves the index first.
    this.#index.remove(slot);
    this.#blocks.set(slot, id, timestamp);
    this.#index.add(slot, id);
    this.#next = slot + 1;
    this.#markPosition(id, timestamp);
  }

  /**
   * For an event that was not admitted: the position timestamp its id was delivered with, when that differs
   * from `timestamp` (the id was reused for another event: a resend or a REST read of the same event carries
   * the same timestamp). `undefined` when the id is not remembered or the timestamps agree. Not on the hot path:
   * asked only about duplicates. The timestamp is the one the slot keeps anyway: nothing more per id.
   */
  reusedAt(id: string, timestamp: string | undefined): { before: string | undefined } | undefined {
    const slot = this.#index.slotOf(id);
    if (slot === -1) return undefined;
    const before = this.#blocks.timeAt(slot);
    return before === timestamp ? undefined : { before };
  }

  #markPosition(id: string | undefined, timestamp: string | undefined): void {
    this.#sinceAnomaly += 1;
    const mark = this.#markTimestamp;
    if (timestamp === undefined || (mark !== undefined && timestamp < mark)) this.#sinceAnomaly = 0;
    if (timestamp === undefined) return;
    if (mark === undefined || timestamp > mark) {
      this.#markTimestamp = timestamp;
      this.#markCount = 0;
      if (id !== undefined) this.#markIds[this.#markCount++] = id;
    } else if (timestamp === mark && id !== undefined) {
      this.#markIds[this.#markCount++] = id;
    }
  }

  /**
   * Where a reconnect's catch-up read starts: the newest position delivered; but while the window holds an
   * event that came without a position timestamp or stamped before an earlier one (the server's clock moved
   * back), the oldest position timestamp among the remembered events, so the events stamped earlier than the
   * newest are read again (the ones delivered are dropped by id). `undefined`: read the whole log.
   */
  catchUpSince(): string | undefined {
    if (this.#sinceAnomaly >= this.#window) return this.#markTimestamp;
    let oldest: string | undefined;
    for (const time of this.#blocks.read().times)
      if (time !== undefined && (oldest === undefined || time < oldest)) oldest = time;
    return oldest;
  }

  /** The newest position delivered so far, if any event with a position timestamp was delivered. */
  position(): ResumePosition | undefined {
    const timestamp = this.#markTimestamp;
    return timestamp === undefined
      ? undefined
      : { timestamp, eventIds: this.#markIds.slice(0, this.#markCount) };
  }
}
