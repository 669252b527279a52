import type { Event } from '../../models/index.js';
import { canonicalContentId, idOf, timestampOf } from '../live/event-identity.js';

const keys = new WeakMap<Event, string>();

/**
 * The identity of an event: its `id`, or for an event sent without one the live layer's identity of its
 * canonical content (the same whether it came live or over REST).
 */
export function eventKey(event: Event): string {
  const id = idOf(event);
  if (id !== undefined) return id;
  let key = keys.get(event);
  if (key === undefined) {
    key = canonicalContentId(event);
    keys.set(event, key);
  }
  return key;
}

/** The event's timestamp text ('' when it has none: such an event sorts first). */
export function eventTime(event: Event): string {
  return timestampOf(event) ?? '';
}
