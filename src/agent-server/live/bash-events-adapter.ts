import type { Event } from '../../models/index.js';
import { type BashEvent, decodeCommand, decodeEvent, decodeOutput } from '../api/bash-events.js';
import { SubscriptionError, SubscriptionProtocolError } from '../errors.js';
import { positionTimestamp } from './delivery-ledger.js';
import { canonicalContentId } from './event-identity.js';
import type { Positioned } from './positioned.js';
import { socketUrl } from './socket-url.js';

/** What one `/sockets/bash-events` frame is: a persisted bash event, the server's error reply, or neither. */
export type BashFrame =
  | { type: 'event'; item: Positioned }
  | { type: 'server-error'; error: SubscriptionProtocolError }
  | { type: 'invalid'; error: Error };

/**
 * `/sockets/bash-events` sends bare `BashCommand` / `BashOutput` events (`model_dump(mode="json")`, no
 * envelope, no snapshot, no sequence number), all of them again on `resend_all` (which the SDK never asks for),
 * and answers a request it could not run with a `BashError` (`{kind, code, detail}`, not persisted). Command and
 * output frames are checked with the same decoders as the REST reads; another kind with an id is kept as it came
 * (a newer server's event), the way the event model keeps unknown kinds.
 */
export function decodeBashFrame(text: string | undefined): BashFrame {
  if (text === undefined)
    return { type: 'invalid', error: new SubscriptionError('The server sent a binary frame') };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { type: 'invalid', error: new SubscriptionError('The server sent a frame that is not JSON') };
  }
  const kind = (raw as { kind?: unknown } | null)?.kind;
  if (kind === 'BashError') {
    const { code, detail } = raw as { code?: unknown; detail?: unknown };
    return {
      type: 'server-error',
      error: new SubscriptionProtocolError(
        `The bash socket refused a request: ${String(code)}: ${String(detail)}`,
      ),
    };
  }
  const decode = kind === 'BashCommand' ? decodeCommand : kind === 'BashOutput' ? decodeOutput : decodeEvent;
  const parsed = decode(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || '(frame)'}: ${issue.message}`,
    );
    return {
      type: 'invalid',
      error: new SubscriptionError(`A bash frame was malformed (${issues.join('; ')})`),
    };
  }
  return { type: 'event', item: positionedBashEvent(parsed.data, text.length) };
}

/**
 * A bash event as the delivery core takes it. The core only reads `kind` (for the emitter's per-kind names,
 * none of which a bash kind matches) and hands the value on as it is: the bash stream's public type says what
 * it really is.
 */
export function positionedBashEvent(event: BashEvent, bytes: number): Positioned {
  return {
    event: event as unknown as Event,
    id: typeof event.id === 'string' ? event.id : canonicalContentId(event),
    timestamp: positionTimestamp(event.timestamp),
    bytes,
    seq: undefined,
  };
}

/**
 * `/sockets/bash-events` (server-wide: no conversation id), live frames only: it could only resend all or
 * nothing (`resend_all`), and every connection that resumes catches up over REST from where delivery stands
 * (start-point.ts). `auth`: the key's query parameter, if it goes there (socket-auth.ts).
 */
export function bashEventsSocketUrl(baseUrl: string, auth: Record<string, string>): string {
  return socketUrl(baseUrl, '/sockets/bash-events', auth);
}
