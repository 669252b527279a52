/**
 * The queue between the socket and one `for await` loop. The subscription bounds it (`maxBufferedEvents`)
 * and decides what happens when it is full; the queue only stores, hands out and reports its size.
 */
export class EventQueue<T> {
  #items: (T | undefined)[] = [];
  #head = 0;
  #waiters: { resolve: (result: IteratorResult<T>) => void; reject: (error: unknown) => void }[] = [];
  #end: { error: unknown } | undefined;
  readonly #onTake: () => void;

  /** `onTake` runs after the consumer took an item (the subscription resumes a paused stream from there). */
  constructor(onTake: () => void) {
    this.#onTake = onTake;
  }

  get size(): number {
    return this.#items.length - this.#head;
  }

  get ended(): boolean {
    return this.#end !== undefined;
  }

  push(item: T): void {
    if (this.#end) return;
    const waiter = this.#waiters.shift();
    if (waiter) waiter.resolve({ value: item, done: false });
    else this.#items.push(item);
  }

  /** Ends the queue: items already queued are still handed out, then `done` (or `error` is thrown). */
  end(error?: unknown): void {
    if (this.#end) return;
    this.#end = { error };
    if (this.size > 0 || this.#waiters.length === 0) return;
    for (const waiter of this.#waiters.splice(0)) settle(waiter, error);
    this.#end = { error: undefined };
  }

  /** Ends the queue now, dropping what is queued (`break`, `close()`). */
  clear(): void {
    this.#items = [];
    this.#head = 0;
    this.end();
    for (const waiter of this.#waiters.splice(0)) waiter.resolve({ value: undefined, done: true });
  }

  next(): Promise<IteratorResult<T>> {
    if (this.size > 0) {
      const item = this.#items[this.#head] as T;
      this.#items[this.#head] = undefined;
      this.#head += 1;
      // Compact now and then so a long stream does not keep a growing array of holes.
      if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
        this.#items = this.#items.slice(this.#head);
        this.#head = 0;
      }
      this.#onTake();
      return Promise.resolve({ value: item, done: false });
    }
    if (this.#end) {
      const { error } = this.#end;
      // The error is thrown once; later calls just see the end.
      this.#end = { error: undefined };
      return error === undefined ? Promise.resolve({ value: undefined, done: true }) : Promise.reject(error);
    }
    return new Promise((resolve, reject) => this.#waiters.push({ resolve, reject }));
  }
}

function settle<T>(
  waiter: { resolve: (result: IteratorResult<T>) => void; reject: (error: unknown) => void },
  error: unknown,
): void {
  if (error === undefined) waiter.resolve({ value: undefined, done: true });
  else waiter.reject(error);
}
