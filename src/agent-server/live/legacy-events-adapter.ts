import { decodeOwnedEvent } from '../../models/decode-event.js';
import { isConversationStateUpdateEvent } from '../../models/guards.js';
import type { Event, KnownEventMap } from '../../models/index.js';
import type { SafeParseResult } from '../../models/parse.js';
import { FULL_STATE_KEY } from '../../models/state-mirror.js';
import { SubscriptionError } from '../errors.js';
import { positionTimestamp } from './delivery-ledger.js';
import { canonicalContentId } from './event-identity.js';
import type { Positioned } from './positioned.js';
import { socketUrl } from './socket-url.js';

/** Frames are parsed leniently (one options object for all of them). */
const LENIENT = { mode: 'lenient' } as const;

/** What one `/sockets/events` (or `/sockets/bash-events`) frame is. */
export type LegacyFrame =
  | { type: 'event'; item: Positioned }
  | { type: 'snapshot'; event: KnownEventMap['ConversationStateUpdateEvent']; timestamp: string | undefined }
  | { type: 'invalid'; error: Error };

/**
 * The legacy socket's frames are bare events: no envelope, no sequence number. The event's identity is its
 * `id` as the server sent it; an event without one is identified by its content, canonically (keys sorted,
 * nulls dropped), so the same event read again over REST (serialised differently by some versions) is
 * recognised (docs/events-and-streaming.md, "Legacy servers"). A promise while the event waits for zod's parsers
 * (models/decode-event.ts).
 */
export function decodeLegacyFrame(text: string | undefined): LegacyFrame | Promise<LegacyFrame> {
  if (text === undefined)
    return { type: 'invalid', error: new SubscriptionError('The server sent a binary frame') };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    raw = text;
  }
  const parsed = decodeOwnedEvent(raw, LENIENT);
  return parsed instanceof Promise
    ? parsed.then((settled) => legacyFrame(raw, settled, text.length))
    : legacyFrame(raw, parsed, text.length);
}

function legacyFrame(raw: unknown, parsed: SafeParseResult<Event>, bytes: number): LegacyFrame {
  if (!parsed.success) return { type: 'invalid', error: parsed.error };
  const event = parsed.data;
  if (
    event.kind === 'ConversationStateUpdateEvent' &&
    isConversationStateUpdateEvent(event) &&
    event.key === FULL_STATE_KEY
  )
    return {
      type: 'snapshot',
      event,
      timestamp: positionTimestamp((raw as { timestamp?: unknown }).timestamp),
    };
  return { type: 'event', item: positioned(raw, event, bytes) };
}

/**
 * A parsed event with the identity and position the server gave it (`raw`: the JSON value as received, which
 * the parser may have completed with a generated id or timestamp).
 */
export function positioned(raw: unknown, event: Event, bytes: number, seq?: number): Positioned {
  const fields = raw as { id?: unknown; timestamp?: unknown };
  return {
    event,
    id: typeof fields.id === 'string' ? fields.id : canonicalContentId(raw),
    timestamp: positionTimestamp(fields.timestamp),
    bytes,
    seq,
  };
}

/**
 * `/sockets/events/{conversation_id}` (every version), live frames only: the SDK never asks it to resend
 * (`resend_mode=since` from 1.15.0, `resend_all` before; start-point.ts says why). `auth`: the key's query
 * parameter, if it goes there (socket-auth.ts).
 */
export function eventsSocketUrl(
  baseUrl: string,
  conversationId: string,
  auth: Record<string, string>,
): string {
  return socketUrl(baseUrl, `/sockets/events/${encodeURIComponent(conversationId)}`, auth);
}
