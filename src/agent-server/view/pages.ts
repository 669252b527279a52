import type { Event } from '../../models/index.js';
import type { EventsClient } from '../events-client.js';
import { eventTime } from './event-keys.js';

/** One read of the history, newest first: the events (returned oldest first) and whether older ones remain. */
export interface HistoryPage {
  events: Event[];
  hasOlder: boolean;
}

/**
 * Reads the history backwards a page at a time over REST (`GET …/events/search`, `sort_order=TIMESTAMP_DESC`):
 * the newest page, then the page before an event's timestamp. Only what is read costs anything, so opening a
 * view does not grow with the conversation's length.
 *
 * `timestamp__lt` alone would skip events that share the oldest shown event's timestamp but did not fit in the
 * page, so an older page is asked for before the next instant after it (`instantAfter`): those events come
 * again and the projection drops the ones already shown by id. A full page with nothing new (more events at one
 * instant than a page holds) follows the page's `next_page_id` until something new comes.
 */
export class HistoryReader {
  readonly #events: EventsClient;
  readonly #conversationId: string;
  readonly #pageSize: number;

  constructor(events: EventsClient, conversationId: string, pageSize: number) {
    this.#events = events;
    this.#conversationId = conversationId;
    this.#pageSize = pageSize;
  }

  /** The newest page. */
  newest(signal: AbortSignal | undefined): Promise<HistoryPage> {
    return this.#read(undefined, () => true, signal);
  }

  /** The page before `oldest` (an event shown); `isNew` tells events not shown yet. */
  before(
    oldest: Event,
    isNew: (event: Event) => boolean,
    signal: AbortSignal | undefined,
  ): Promise<HistoryPage> {
    const bound = instantAfter(eventTime(oldest));
    return this.#read(bound, isNew, signal);
  }

  async #read(
    timestampLt: string | undefined,
    isNew: (event: Event) => boolean,
    signal: AbortSignal | undefined,
  ): Promise<HistoryPage> {
    const pages = this.#events
      .pages(
        this.#conversationId,
        {
          sortOrder: 'TIMESTAMP_DESC',
          limit: this.#pageSize,
          ...(timestampLt === undefined ? {} : { timestampLt }),
        },
        signal ? { signal } : {},
      )
      [Symbol.asyncIterator]();
    try {
      for (;;) {
        const next = await pages.next();
        if (next.done) return { events: [], hasOlder: false };
        const page = next.value;
        const fresh = page.items.filter(isNew);
        const hasOlder = page.nextPageId !== null && page.items.length >= this.#pageSize;
        if (fresh.length > 0 || !hasOlder) return { events: fresh.reverse(), hasOlder };
      }
    } finally {
      await pages.return?.();
    }
  }
}

const FRACTION = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(.*)$/;

/**
 * The smallest timestamp after `timestamp` in its own precision (`…:05.123456` → `…:05.123457`; without a
 * fraction, one microsecond later), with the same zone suffix: `timestamp__lt` of it includes `timestamp`.
 * Text that is not such a timestamp is returned as it is.
 */
export function instantAfter(timestamp: string): string {
  const match = FRACTION.exec(timestamp);
  if (!match) return timestamp;
  const [, seconds = '', fraction, zone = ''] = match;
  if (fraction === undefined) return `${seconds}.000001${zone}`;
  if (!/^9+$/.test(fraction)) {
    const next = (BigInt(fraction) + 1n).toString().padStart(fraction.length, '0');
    return `${seconds}.${next}${zone}`;
  }
  // `.999…`: the next second, read as UTC only to count (the zone suffix is kept as it was).
  const next = new Date(Date.parse(`${seconds}Z`) + 1000).toISOString().slice(0, 19);
  return `${next}.${'0'.repeat(fraction.length)}${zone}`;
}
