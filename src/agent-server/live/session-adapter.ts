import { decodeOwnedEvent } from '../../models/decode-event.js';
import { isConversationStateUpdateEvent } from '../../models/guards.js';
import type { Event, KnownEventMap } from '../../models/index.js';
import type { SafeParseResult } from '../../models/parse.js';
import { FULL_STATE_KEY } from '../../models/state-mirror.js';
import { SubscriptionError, SubscriptionServerError } from '../errors.js';
import { positionTimestamp } from './delivery-ledger.js';
import { positioned } from './legacy-events-adapter.js';
import { type Positioned, validSeq } from './positioned.js';
import { socketUrl } from './socket-url.js';

const LENIENT = { mode: 'lenient' } as const;

/**
 * What one `/sockets/session` frame is. The envelope is open (newer servers add types and fields): unknown
 * ones are `ignored`. Positions are checked here, never trusted: a `durable` whose `seq` is not an integer in
 * [0, 2^40] and a `sync` whose `through_seq` is neither that nor -1 are `bad-position`. `decodeSessionFrame`
 * answers with a promise while an event waits for zod's parsers (models/decode-event.ts).
 */
export type SessionFrame =
  | { type: 'durable'; item: Positioned & { seq: number } }
  | { type: 'sync'; through: number | undefined }
  | { type: 'snapshot'; event: KnownEventMap['ConversationStateUpdateEvent']; timestamp: string | undefined }
  | { type: 'state'; event: KnownEventMap['ConversationStateUpdateEvent']; timestamp: string | undefined }
  | { type: 'transient'; item: Positioned }
  | { type: 'stream'; envelope: Record<string, unknown> }
  | { type: 'server-error'; error: SubscriptionServerError }
  | { type: 'bad-position'; detail: string }
  | { type: 'invalid'; error: Error }
  | { type: 'ignored'; envelopeType: unknown };

export function decodeSessionFrame(text: string | undefined): SessionFrame | Promise<SessionFrame> {
  let envelope: Record<string, unknown> | undefined;
  try {
    const value: unknown = text === undefined ? undefined : JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      envelope = value as Record<string, unknown>;
  } catch {
    envelope = undefined;
  }
  if (envelope === undefined)
    return {
      type: 'invalid',
      error: new SubscriptionError('The server sent a frame that is not a JSON envelope'),
    };
  const bytes = (text as string).length;
  switch (envelope.type) {
    case 'durable': {
      const seq = envelope.seq;
      const raw = envelope.event;
      const parsed = decodeOwnedEvent(raw, LENIENT);
      return parsed instanceof Promise
        ? parsed.then((settled) => durableFrame(raw, settled, bytes, seq))
        : durableFrame(raw, parsed, bytes, seq);
    }
    case 'transient':
      return decodeTransient(envelope.event, bytes);
    case 'sync': {
      const through = envelope.through_seq;
      // Omitted by the server when its log is empty.
      if (through === undefined || through === null) return { type: 'sync', through: undefined };
      if (through !== -1 && !validSeq(through))
        return { type: 'bad-position', detail: `sync envelope with through_seq ${describe(through)}` };
      return { type: 'sync', through };
    }
    case 'item_started':
    case 'delta':
    case 'item_aborted':
      return { type: 'stream', envelope };
    case 'error': {
      const code = typeof envelope.code === 'string' ? envelope.code : String(envelope.code ?? 'error');
      const detail =
        typeof envelope.detail === 'string' ? envelope.detail : JSON.stringify(envelope.detail ?? '');
      return { type: 'server-error', error: new SubscriptionServerError(code, detail) };
    }
    default:
      return { type: 'ignored', envelopeType: envelope.type };
  }
}

function durableFrame(
  raw: unknown,
  parsed: SafeParseResult<Event>,
  bytes: number,
  seq: unknown,
): SessionFrame {
  if (!parsed.success) return { type: 'invalid', error: parsed.error };
  if (!validSeq(seq)) return { type: 'bad-position', detail: `durable envelope with seq ${describe(seq)}` };
  return { type: 'durable', item: positioned(raw, parsed.data, bytes, seq) as Positioned & { seq: number } };
}

function decodeTransient(raw: unknown, bytes: number): SessionFrame | Promise<SessionFrame> {
  const parsed = decodeOwnedEvent(raw, LENIENT);
  return parsed instanceof Promise
    ? parsed.then((settled) => transientFrame(raw, settled, bytes))
    : transientFrame(raw, parsed, bytes);
}

function transientFrame(raw: unknown, parsed: SafeParseResult<Event>, bytes: number): SessionFrame {
  if (!parsed.success) return { type: 'invalid', error: parsed.error };
  const event: Event = parsed.data;
  if (isConversationStateUpdateEvent(event)) {
    const timestamp = positionTimestamp((raw as { timestamp?: unknown }).timestamp);
    return { type: event.key === FULL_STATE_KEY ? 'snapshot' : 'state', event, timestamp };
  }
  return { type: 'transient', item: positioned(raw, event, bytes) };
}

function describe(value: unknown): string {
  return typeof value === 'number'
    ? String(value)
    : typeof value === 'string'
      ? JSON.stringify(value.slice(0, 40))
      : typeof value;
}

/**
 * `/sockets/session/{conversation_id}` (servers ≥ 1.45.0): `after_seq` replays the persisted events with a higher
 * `seq` (-1: all of them); without it the socket is live only. `auth`: the key's query parameter, if it goes
 * there (socket-auth.ts).
 */
export function sessionSocketUrl(
  baseUrl: string,
  conversationId: string,
  afterSeq: number | undefined,
  auth: Record<string, string>,
): string {
  return socketUrl(baseUrl, `/sockets/session/${encodeURIComponent(conversationId)}`, {
    ...(afterSeq === undefined ? {} : { after_seq: String(afterSeq) }),
    ...auth,
  });
}
