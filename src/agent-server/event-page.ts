import type { Page } from '../core/paginate.js';
import type { Decoder, LazyDecoder } from '../core/transport.js';
import { decodeOwnedEvent } from '../models/decode-event.js';
import type { Event } from '../models/index.js';
import { pageDecoder } from './page-decoder.js';

/**
 * `EventPage {items: Event[], next_page_id}` (OpenAPI). Items are parsed leniently: an event of a kind this
 * SDK does not know is kept as an UnknownEvent.
 */
export const decodeEventPage: LazyDecoder<Page<Event>> = pageDecoder((item) =>
  decodeOwnedEvent(item, { mode: 'lenient' }),
);

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
