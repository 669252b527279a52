// The queue and async iterator of the floor client (bench/_stream-clients.ts, bench/_ab-overhead.ts): the least a
// `for await` consumer of a socket needs. `push` hands an item to the waiting loop or queues it.
export function floorQueue<T>(): { push(item: T): void; iterable: AsyncIterable<T> } {
  const queue: T[] = [];
  let head = 0;
  let waiter: ((result: IteratorResult<T>) => void) | undefined;
  return {
    push(item) {
      if (waiter === undefined) queue.push(item);
      else {
        const resolve = waiter;
        waiter = undefined;
        resolve({ value: item, done: false });
      }
    },
    iterable: {
      [Symbol.asyncIterator]: () => ({
        next: () =>
          head < queue.length
            ? Promise.resolve({ value: queue[head++]!, done: false })
            : new Promise((resolve) => {
                waiter = resolve;
              }),
      }),
    },
  };
}
