import type { Page } from '../../core/paginate.js';
import type { Event } from '../../models/index.js';
import type { EventsClient } from '../events-client.js';

/** One read of the history, newest first: the events (returned oldest first) and whether older ones remain. */
export interface HistoryPage {
  events: Event[];
  hasOlder: boolean;
}

/**
 * Reads the history backwards a page at a time over REST (`GET …/events/search?sort_order=TIMESTAMP_DESC`): the
 * newest page, then each older page by the previous page's `next_page_id`. Only what is read costs anything, so
 * opening a view does not grow with the conversation's length.
 *
 * The server's own paging, not `timestamp__lt` of the oldest event shown: the server orders a page by its log
 * (1.44.1 persists a run's last `stats` update after `finished` but stamps it before), so a timestamp bound
 * would skip events stored before the oldest one shown but stamped after it. `next_page_id` names the next
 * event of the server's order; newer events do not move it.
 */
export class HistoryReader {
  readonly #events: EventsClient;
  readonly #conversationId: string;
  readonly #pageSize: number;
  #pages: AsyncIterator<Page<Event>> | undefined;
  /** A read whose caller gave up (its signal): its page is the next one, kept for the next call. */
  #pending: Promise<IteratorResult<Page<Event>>> | undefined;

  constructor(events: EventsClient, conversationId: string, pageSize: number) {
    this.#events = events;
    this.#conversationId = conversationId;
    this.#pageSize = pageSize;
  }

  /** The newest page; `signal` ends the reading for good (the view's lifetime). */
  newest(signal: AbortSignal | undefined): Promise<HistoryPage> {
    this.#pages = this.#events
      .pages(
        this.#conversationId,
        { sortOrder: 'TIMESTAMP_DESC', limit: this.#pageSize },
        signal ? { signal } : {},
      )
      [Symbol.asyncIterator]();
    return this.#next(() => true, undefined);
  }

  /** The page before the ones read so far; `isNew` tells events not shown yet (the live stream may have them). */
  older(isNew: (event: Event) => boolean, signal: AbortSignal | undefined): Promise<HistoryPage> {
    return this.#next(isNew, signal);
  }

  async #next(isNew: (event: Event) => boolean, signal: AbortSignal | undefined): Promise<HistoryPage> {
    const pages = this.#pages;
    if (pages === undefined) return { events: [], hasOlder: false };
    for (;;) {
      const read = this.#pending ?? pages.next();
      this.#pending = read;
      const next = await abortable(read, signal);
      this.#pending = undefined;
      if (next.done) return { events: [], hasOlder: false };
      const page = next.value;
      const fresh = page.items.filter(isNew);
      const hasOlder = page.nextPageId !== null && page.items.length >= this.#pageSize;
      // A page of nothing new (all delivered live meanwhile) is skipped: the caller asked for something older.
      if (fresh.length > 0 || !hasOlder) return { events: fresh.reverse(), hasOlder };
    }
  }
}

/** `promise`, or an APIUserAbortError-like rejection when `signal` aborts first (the promise goes on). */
async function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  signal.throwIfAborted();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([promise, aborted]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}
