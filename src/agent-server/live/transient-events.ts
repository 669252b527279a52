import { isServerErrorEvent, isStreamingDeltaEvent } from '../../models/guards.js';
import type { Event } from '../../models/index.js';
import { SubscriptionServerError } from '../errors.js';
import type { SafeEmitter } from './safe-emitter.js';

/**
 * Frames that are events but not persisted ones: a `ServerErrorEvent` goes to the `error` channel, a
 * `StreamingDeltaEvent` (the legacy socket's streamed output) to `delta`. True when the event was taken.
 */
export function divertTransient(event: Event, emitter: SafeEmitter): boolean {
  if (event.kind === 'ServerErrorEvent' && isServerErrorEvent(event)) {
    emitter.emit('error', new SubscriptionServerError(event.code, event.detail));
    return true;
  }
  if (event.kind === 'StreamingDeltaEvent' && isStreamingDeltaEvent(event)) {
    if (!emitter.listens('delta')) return true;
    const delta = { type: 'delta', itemId: undefined, attempt: 1, order: undefined } as const;
    if (event.reasoning_content)
      emitter.emit('delta', { ...delta, kind: 'reasoning', content: event.reasoning_content });
    if (event.content) emitter.emit('delta', { ...delta, kind: 'text', content: event.content });
    return true;
  }
  return false;
}

/** `/sockets/session`'s streamed output envelopes (`item_started`, `delta`, `item_aborted`) to `delta`. */
export function emitStreamEnvelope(envelope: Record<string, unknown>, emitter: SafeEmitter): void {
  if (!emitter.listens('delta')) return;
  const itemId = typeof envelope.item_id === 'string' ? envelope.item_id : undefined;
  const attempt = typeof envelope.attempt === 'number' ? envelope.attempt : 1;
  if (itemId === undefined) return;
  if (envelope.type === 'item_started') {
    const anchorSeq = typeof envelope.anchor_seq === 'number' ? envelope.anchor_seq : undefined;
    emitter.emit('delta', { type: 'item_started', itemId, attempt, anchorSeq });
  } else if (envelope.type === 'item_aborted') {
    const reason = typeof envelope.reason === 'string' ? envelope.reason : undefined;
    emitter.emit('delta', { type: 'item_aborted', itemId, attempt, reason });
  } else if (typeof envelope.content === 'string') {
    const order = typeof envelope.order === 'number' ? envelope.order : undefined;
    const kind = envelope.kind === 'reasoning' ? 'reasoning' : 'text';
    emitter.emit('delta', { type: 'delta', itemId, attempt, order, kind, content: envelope.content });
  }
}
