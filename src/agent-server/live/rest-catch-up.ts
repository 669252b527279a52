import type { Page } from '../../core/paginate.js';
import type { DecodeResult, LazyDecoder } from '../../core/transport.js';
import { decodeOwnedEvent } from '../../models/decode-event.js';
import type { Event } from '../../models/index.js';
import type { SafeParseResult } from '../../models/parse.js';
import { pageDecoder } from '../page-decoder.js';
import { positioned } from './legacy-events-adapter.js';
import type { Positioned } from './positioned.js';

const LENIENT = { mode: 'lenient' } as const;

/**
 * The pages of a REST catch-up read (`GET …/events/search`, oldest first) decoded straight into positioned
 * items: the identity is the raw item's (an event without an id gets the same canonical identity as its frame),
 * the size its JSON text when a byte bound needs it.
 */
export function catchUpPageDecoder(measure: boolean): LazyDecoder<Page<Positioned>> {
  return pageDecoder((raw) => {
    const parsed = decodeOwnedEvent(raw, LENIENT);
    return parsed instanceof Promise
      ? parsed.then((settled) => catchUpItem(raw, settled, measure))
      : catchUpItem(raw, parsed, measure);
  });
}

function catchUpItem(
  raw: unknown,
  parsed: SafeParseResult<Event>,
  measure: boolean,
): DecodeResult<Positioned> {
  if (!parsed.success) return parsed;
  return { success: true, data: positioned(raw, parsed.data, measure ? JSON.stringify(raw).length : 0) };
}
