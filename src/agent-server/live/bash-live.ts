import { type Page, PagedIterable } from '../../core/paginate.js';
import type { Decoder } from '../../core/transport.js';
import {
  type BashCommand,
  type BashEvent,
  type BashOutput,
  bashPageCursor,
  decodeEvent,
} from '../api/bash-events.js';
import { pageDecoder } from '../page-decoder.js';
import { positionedBashEvent } from './bash-events-adapter.js';
import type { Positioned } from './positioned.js';
import type { CloseInfo, OpenInfo, ReconnectInfo, SubscribeOptions, SubscriptionPhase } from './types.js';

/**
 * Options of `bash.live()`: those of `subscribe` that mean something for a stream without a conversation state.
 * `history: true` (or `after`) starts from the bash events already stored; the default is live only.
 */
export type BashLiveOptions = Pick<
  SubscribeOptions,
  | 'signal'
  | 'resume'
  | 'after'
  | 'history'
  | 'auth'
  | 'WebSocket'
  | 'reconnect'
  | 'maxBufferedEvents'
  | 'maxBufferedBytes'
  | 'onOverflow'
  | 'maxFrameBytes'
  | 'connectTimeout'
  | 'dedupeWindow'
>;

/** The bash stream's emitter events: every event, one name per kind, and the lifecycle of `Subscription`. */
export interface BashLiveEventMap {
  event: [event: BashEvent];
  BashCommand: [event: BashCommand];
  BashOutput: [event: BashOutput];
  open: [info: OpenInfo];
  reconnecting: [info: ReconnectInfo];
  close: [info: CloseInfo];
  error: [error: Error];
}

/**
 * A live stream of `/sockets/bash-events` (`bash.live()`): the same machinery as `Subscription` (exactly once
 * by id across reconnects and resends, in order, bounded buffers, reconnect policy), yielding bash events. An
 * event of a kind this SDK does not know yet is passed on as it came.
 */
export interface BashLiveStream extends AsyncIterable<BashEvent> {
  /** Resolves when the first connection is open; rejects if the stream ends first. */
  readonly ready: Promise<unknown>;
  readonly phase: SubscriptionPhase;
  readonly closed: boolean;
  /** Events waiting in the fullest `for await` buffer. */
  readonly buffered: number;
  on<K extends keyof BashLiveEventMap>(name: K, listener: (...args: BashLiveEventMap[K]) => void): this;
  once<K extends keyof BashLiveEventMap>(name: K, listener: (...args: BashLiveEventMap[K]) => void): this;
  off<K extends keyof BashLiveEventMap>(name: K, listener?: (...args: BashLiveEventMap[K]) => void): this;
  /** Ends the stream: closes the socket and cancels every timer and request. */
  close(): void;
}

/** The server-wide bash search route, the catch-up read of `/sockets/bash-events` (no leading slash). */
export const BASH_SEARCH_PATH = 'api/bash/bash_events/search';

/** A page of the bash search route decoded straight into positioned items (the REST catch-up). */
export function bashCatchUpPageDecoder(measure: boolean): Decoder<Page<Positioned>> {
  return pageDecoder((raw) => {
    const parsed = decodeEvent(raw);
    if (!parsed.success) return parsed;
    return {
      success: true,
      data: positionedBashEvent(parsed.data, measure ? JSON.stringify(raw).length : 0),
    };
  });
}

/**
 * The REST catch-up's pages in timestamp order, sorted once paging checked that each follows the one before
 * (`bashPageCursor`: a page starts with the event its page id names, which sorting could move). Servers before
 * 1.31.1 name their bash event files by the second (`YYYYMMDDHHMMSS_<kind>_…`) and sort the search by file
 * name, so the events of one second come by kind and id there (every BashCommand of the second before its
 * outputs), and a second can span pages: when the next page id names a file of that kind, the events of its
 * second wait for the next page and are sorted with it, while they fit in `maxBytes` (the byte bound; their
 * sizes are measured when there is one). A second larger than that comes in the server's order across the page
 * boundary where it overflowed.
 */
export async function* bashCatchUpPages(
  fetchPage: (pageId: string | undefined) => Promise<Page<Positioned>>,
  maxBytes: number,
): AsyncGenerator<Page<Positioned>, void, undefined> {
  const pages = new PagedIterable(
    fetchPage,
    bashPageCursor((item: Positioned) => item.id),
  ).pages();
  let carried: Positioned[] = [];
  for await (const page of pages) {
    const items = carried.length === 0 ? page.items : [...carried, ...page.items];
    const second = fileSecond(page.nextPageId);
    carried = second === undefined ? [] : items.filter((item) => secondOf(item) === second);
    if (carried.reduce((bytes, item) => bytes + item.bytes, 0) > maxBytes) carried = [];
    const ready = carried.length === 0 ? items : items.filter((item) => secondOf(item) !== second);
    yield { items: inTimestampOrder(ready), nextPageId: page.nextPageId };
  }
  if (carried.length > 0) yield { items: inTimestampOrder(carried), nextPageId: null };
}

/** The second of a page id that names a file by the second (servers before 1.31.1), as its 14 digits. */
function fileSecond(pageId: string | null): string | undefined {
  return pageId !== null && /^\d{14}_/.test(pageId) ? pageId.slice(0, 14) : undefined;
}

/** An event's second as such a file name spells it (`YYYYMMDDHHMMSS`, UTC as the server's timestamps). */
function secondOf(item: Positioned): string | undefined {
  return item.timestamp?.slice(0, 19).replace(/\D/g, '');
}

function inTimestampOrder(items: Positioned[]): Positioned[] {
  if (items.every((item) => item.timestamp !== undefined))
    items.sort((a, b) =>
      (a.timestamp as string) < (b.timestamp as string) ? -1 : a.timestamp === b.timestamp ? 0 : 1,
    );
  return items;
}
