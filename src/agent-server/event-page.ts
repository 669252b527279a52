import type { Decoder } from '../core/transport.js';
import { type Event, safeParseEvent } from '../models/index.js';
import type { Page } from '../core/paginate.js';

type Issue = { path: (string | number)[]; message: string; code?: string };

/**
 * `EventPage {items: Event[], next_page_id}` (OpenAPI). Items are parsed leniently (an event of a kind this
 * SDK does not know is kept as an UnknownEvent); `null` and an absent `next_page_id` both mean "last page"
 * (notes §1.2.8: newer servers omit nulls).
 */
export const decodeEventPage: Decoder<Page<Event>> = (input) => {
  if (typeof input !== 'object' || input === null || !Array.isArray((input as { items?: unknown }).items)) {
    return {
      success: false,
      error: { issues: [{ path: ['items'], message: 'expected an array of events' }] },
    };
  }
  const { items, next_page_id: next } = input as { items: unknown[]; next_page_id?: unknown };
  if (next !== undefined && next !== null && typeof next !== 'string') {
    return {
      success: false,
      error: { issues: [{ path: ['next_page_id'], message: 'expected a string or null' }] },
    };
  }
  const events: Event[] = [];
  const issues: Issue[] = [];
  items.forEach((item, index) => {
    const result = safeParseEvent(item, { mode: 'lenient' });
    if (result.success) events.push(result.data);
    else
      for (const issue of result.error.issues)
        issues.push({ ...issue, path: ['items', index, ...issue.path] });
  });
  if (issues.length > 0) return { success: false, error: { issues } };
  return { success: true, data: { items: events, nextPageId: typeof next === 'string' ? next : null } };
};

/** `GET …/count` answers a bare JSON integer. */
export const decodeCount: Decoder<number> = (input) =>
  typeof input === 'number' && Number.isInteger(input) && input >= 0
    ? { success: true, data: input }
    : { success: false, error: { issues: [{ path: [], message: 'expected a non-negative integer' }] } };

/** OpenAPI `Success {success: boolean = true}`. */
export const decodeSuccess: Decoder<boolean> = (input) => {
  if (typeof input !== 'object' || input === null) {
    return { success: false, error: { issues: [{ path: [], message: 'expected an object' }] } };
  }
  const value = (input as { success?: unknown }).success;
  if (value === undefined) return { success: true, data: true };
  return typeof value === 'boolean'
    ? { success: true, data: value }
    : { success: false, error: { issues: [{ path: ['success'], message: 'expected a boolean' }] } };
};
