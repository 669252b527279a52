import { eventKindToModulePath } from '../../models/index.js';
import type { StoredEvent } from './store.js';

export interface SimulatedEventFilter {
  kind?: string | null;
  source?: string | null;
  body?: string | null;
  timestampGte?: string | null;
  timestampLt?: string | null;
}

/**
 * The anchor server's filters (the SDK's `_search_events_sync`): `kind` is compared with the event's
 * module path (a short kind matches nothing), `body` is a case-insensitive substring of a MessageEvent's
 * text, timestamps are compared as strings.
 */
export function filterEvents(events: readonly StoredEvent[], filter: SimulatedEventFilter): StoredEvent[] {
  const gte = filter.timestampGte ? serverLocal(filter.timestampGte) : undefined;
  const lt = filter.timestampLt ? serverLocal(filter.timestampLt) : undefined;
  const body = filter.body?.toLowerCase();
  return events.filter((event) => {
    if (filter.kind && modulePathOf(event) !== filter.kind) return false;
    if (filter.source && event.source !== filter.source) return false;
    if (body !== undefined && !messageText(event).toLowerCase().includes(body)) return false;
    if (gte !== undefined && event.timestamp < gte) return false;
    if (lt !== undefined && event.timestamp >= lt) return false;
    return true;
  });
}

/** Sorted by timestamp string (stable), then one page; `next_page_id` is the first id of the next page. */
export function pageOf<T>(
  items: readonly T[],
  idOf: (item: T) => string,
  pageId: string | null,
  limit: number,
): { items: T[]; next_page_id: string | null } {
  // An unknown page_id silently restarts from the beginning.
  const found = pageId ? items.findIndex((item) => idOf(item) === pageId) : -1;
  const start = found === -1 ? 0 : found;
  const page = items.slice(start, start + limit);
  const next = items[start + limit];
  return { items: page, next_page_id: next === undefined ? null : idOf(next) };
}

export function sortByTimestamp(events: readonly StoredEvent[], descending: boolean): StoredEvent[] {
  const sorted = [...events].sort((a, b) =>
    a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : 0,
  );
  return descending ? sorted.reverse() : sorted;
}

function modulePathOf(event: StoredEvent): string {
  try {
    return eventKindToModulePath(event.kind);
  } catch {
    return event.kind;
  }
}

function messageText(event: StoredEvent): string {
  if (event.kind !== 'MessageEvent') return '';
  const texts = (content: unknown) =>
    Array.isArray(content)
      ? content.map((item) => (typeof item?.text === 'string' ? (item.text as string) : '')).filter(Boolean)
      : [];
  const message = event.llm_message as { content?: unknown } | undefined;
  const parts = [...texts(message?.content), ...texts(event.extended_content)];
  if (typeof event.reasoning_content === 'string') parts.push(event.reasoning_content);
  return parts.join(' ');
}

/**
 * A naive value is taken as server-local; an aware one is converted to server-local time. The
 * simulated server's local time is UTC.
 */
function serverLocal(value: string): string {
  if (!/(Z|[+-]\d{2}:?\d{2})$/.test(value)) return value;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const iso = date.toISOString().slice(0, 23);
  return iso.endsWith('.000') ? iso.slice(0, 19) : `${iso}000`;
}
