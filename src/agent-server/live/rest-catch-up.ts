import type { Page } from '../../core/paginate.js';
import type { Decoder } from '../../core/transport.js';
import { safeParseOwnedEvent } from '../../models/parse.js';
import { pageDecoder } from '../page-decoder.js';
import { positioned } from './legacy-events-adapter.js';
import type { Positioned } from './positioned.js';

/**
 * The pages of a REST catch-up read (`GET …/events/search`, oldest first) decoded straight into positioned
 * items: the identity is the raw item's (an event without an id gets the same canonical identity as its frame),
 * the size its JSON text when a byte bound needs it.
 */
export function catchUpPageDecoder(measure: boolean): Decoder<Page<Positioned>> {
  return pageDecoder((raw) => {
    const parsed = safeParseOwnedEvent(raw, { mode: 'lenient' });
    if (!parsed.success) return parsed;
    return { success: true, data: positioned(raw, parsed.data, measure ? JSON.stringify(raw).length : 0) };
  });
}
