/** Slots of a new queue: an idle subscription keeps one queue, and a stream doubles it to what it needs. */
const INITIAL_CAPACITY = 8;

type Settle<T> = { resolve: (result: IteratorResult<T>) => void; reject: (error: unknown) => void };

/**
 * The queue between the socket and one `for await` loop. The subscription bounds it (`maxBufferedEvents`, `maxBufferedBytes`)
 * and decides what happens when it is full; the queue only stores, hands out and reports its size.
 *
 * Cost: this runs once per event. A waiting consumer is resolved directly with the item (nothing is
 * queued); a consumer that is behind takes from a ring buffer (no shifting, no compaction; it doubles when
 * full, so it never holds more than twice the most items queued at once). The one waiter a `for await`
 * loop can have is kept in a field; more than one (`next()` called again before the last call settled) is
 * rare and goes to an array.
 */
export class EventQueue<T> {
  #ring: (T | undefined)[] = new Array<T | undefined>(INITIAL_CAPACITY);
  /** The size in bytes of each queued item (same slot as `#ring`), as `push` was told. */
  #sizes: number[] = new Array<number>(INITIAL_CAPACITY).fill(0);
  #bytes = 0;
  #mask = INITIAL_CAPACITY - 1;
  #head = 0;
  #size = 0;
  #waiter: Settle<T> | undefined;
  #moreWaiters: Settle<T>[] = [];
  #end: { error: unknown } | undefined;
  readonly #onTake: (() => void) | undefined;

  /** `onTake` runs after the consumer took a queued item (the subscription resumes a paused stream from there). */
  constructor(onTake?: () => void) {
    this.#onTake = onTake;
  }

  get size(): number {
    return this.#size;
  }

  /** The bytes queued (the sum of what `push` was told). */
  get bytes(): number {
    return this.#bytes;
  }

  get ended(): boolean {
    return this.#end !== undefined;
  }

  /**
   * Queues an item (`bytes`: its size, for the subscription's byte bound), or hands it straight to a waiting
   * consumer. Returns how many items are now queued.
   */
  push(item: T, bytes = 0): number {
    if (this.#end) return this.#size;
    const waiter = this.#waiter;
    if (waiter !== undefined) {
      this.#waiter = this.#moreWaiters.length > 0 ? this.#moreWaiters.shift() : undefined;
      waiter.resolve({ value: item, done: false });
      return this.#size;
    }
    if (this.#size > this.#mask) this.#grow();
    const slot = (this.#head + this.#size) & this.#mask;
    this.#ring[slot] = item;
    this.#sizes[slot] = bytes;
    this.#bytes += bytes;
    this.#size += 1;
    return this.#size;
  }

  /** Ends the queue: items already queued are still handed out, then `done` (or `error` is thrown). */
  end(error?: unknown): void {
    if (this.#end) return;
    this.#end = { error };
    if (this.size > 0 || this.#waiter === undefined) return;
    for (const waiter of this.#takeWaiters()) settle(waiter, error);
    this.#end = { error: undefined };
  }

  /** Ends the queue now, dropping what is queued (`break`, `close()`). */
  clear(): void {
    this.#ring = new Array<T | undefined>(INITIAL_CAPACITY);
    this.#sizes = new Array<number>(INITIAL_CAPACITY).fill(0);
    this.#bytes = 0;
    this.#mask = INITIAL_CAPACITY - 1;
    this.#head = 0;
    this.#size = 0;
    this.end();
    for (const waiter of this.#takeWaiters()) waiter.resolve({ value: undefined, done: true });
  }

  next(): Promise<IteratorResult<T>> {
    if (this.#size > 0) {
      const head = this.#head;
      const item = this.#ring[head] as T;
      this.#ring[head] = undefined;
      this.#bytes -= this.#sizes[head]!;
      this.#sizes[head] = 0;
      this.#head = (head + 1) & this.#mask;
      this.#size -= 1;
      if (this.#onTake !== undefined) this.#onTake();
      return Promise.resolve({ value: item, done: false });
    }
    if (this.#end) {
      const { error } = this.#end;
      // The error is thrown once; later calls just see the end.
      this.#end = { error: undefined };
      return error === undefined ? Promise.resolve({ value: undefined, done: true }) : Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      if (this.#waiter === undefined) this.#waiter = { resolve, reject };
      else this.#moreWaiters.push({ resolve, reject });
    });
  }

  /** Doubles the ring, oldest item first. */
  #grow(): void {
    const ring = this.#ring;
    const sizes = this.#sizes;
    const grown = new Array<T | undefined>(ring.length * 2);
    const grownSizes = new Array<number>(ring.length * 2).fill(0);
    for (let i = 0; i < this.#size; i += 1) {
      grown[i] = ring[(this.#head + i) & this.#mask];
      grownSizes[i] = sizes[(this.#head + i) & this.#mask]!;
    }
    this.#ring = grown;
    this.#sizes = grownSizes;
    this.#mask = grown.length - 1;
    this.#head = 0;
  }

  /** Every waiting consumer, first come first served; none is left waiting. */
  #takeWaiters(): Settle<T>[] {
    const waiters = this.#waiter === undefined ? [] : [this.#waiter, ...this.#moreWaiters];
    this.#waiter = undefined;
    this.#moreWaiters = [];
    return waiters;
  }
}

function settle<T>(waiter: Settle<T>, error: unknown): void {
  if (error === undefined) waiter.resolve({ value: undefined, done: true });
  else waiter.reject(error);
}
