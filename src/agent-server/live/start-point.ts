import type { CatchUp, LiveProtocol } from './connection.js';
import type { DeliveryLedger, ResumePosition } from './delivery-ledger.js';
import type { SubscribeOptions } from './types.js';

export interface StartPoint {
  catchUp: CatchUp;
  floor: ResumePosition | undefined;
  afterSeq: number | undefined;
}

export interface StartState {
  /** 0 for the first connection. */
  connections: number;
  resume: boolean;
  ledger: DeliveryLedger;
  /** Session protocol: the `seq` of the last persisted event delivered. */
  lastSeq: number | undefined;
  /** A position could not be trusted: the next connection catches up over REST instead of replaying. */
  resync: boolean;
}

/**
 * Where the next connection starts. The caller's `after`/`history` first; then where delivery stands. A
 * live-only subscription delivers at least everything persisted after `subscribe()` returned, on both sockets
 * alike: its connections catch up over REST from the server's time at `subscribe()` until something was
 * delivered (docs/events-and-streaming.md, "What a subscription delivers").
 *
 * No socket is asked to resend (`/sockets/events`' `resend_mode` / `resend_all`, `/sockets/bash-events`'
 * `resend_all`): every start from a position catches up over REST, which reads all a resend would bring, and
 * the live frames complete it. A resend was the same events parsed twice and mostly dropped; with large events,
 * hundreds of MiB that starved the catch-up on a WebSocket that cannot pause (docs/events-and-streaming.md,
 * "Slow consumers and bounds"); on the bash socket, the whole bash log again on every reconnect.
 */
export function startPoint(protocol: LiveProtocol, options: SubscribeOptions, state: StartState): StartPoint {
  const { after, history } = options;
  const { ledger } = state;
  const wantsHistory = after !== undefined || history === true;
  const afterPosition: ResumePosition | undefined =
    after === undefined ? undefined : typeof after === 'string' ? { timestamp: after, eventIds: [] } : after;
  const rest = (since: string | undefined, floor: ResumePosition | undefined): StartPoint => ({
    catchUp: { type: 'rest', since },
    floor,
    afterSeq: undefined,
  });
  const liveOnly: StartPoint = {
    catchUp: { type: 'none' },
    floor: undefined,
    afterSeq: undefined,
  };
  if (state.connections > 0 && !state.resume) return liveOnly;
  if (protocol === 'session' && !state.resync) {
    // `seq` says exactly what was delivered: the server replays from there, in order.
    const replay = (afterSeq: number, floor: ResumePosition | undefined): StartPoint => ({
      catchUp: { type: 'none' },
      floor,
      afterSeq,
    });
    if (state.lastSeq !== undefined) return replay(state.lastSeq, undefined);
    if (typeof after === 'object' && typeof after.seq === 'number') return replay(after.seq, undefined);
    if (wantsHistory && !ledger.delivered) return replay(-1, afterPosition);
  }
  if (ledger.delivered) {
    // No floor: what was delivered is dropped by id, and nothing new is dropped by its timestamp. The read
    // starts at the oldest remembered event when the server's clock went back (DeliveryLedger.catchUpSince),
    // or earlier: at the server's time of the last contact (a clock set back during the outage).
    return {
      catchUp: { type: 'contact', since: ledger.catchUpSince(), delivered: true },
      floor: undefined,
      afterSeq: undefined,
    };
  }
  if (wantsHistory) return rest(afterPosition?.timestamp, afterPosition);
  return {
    catchUp: { type: 'contact', since: undefined, delivered: false },
    floor: undefined,
    afterSeq: undefined,
  };
}
