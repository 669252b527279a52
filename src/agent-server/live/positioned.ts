import type { Event } from '../../models/index.js';

/**
 * One persisted event as an adapter hands it to the delivery core: the event, its identity and position
 * timestamp as the server sent them (not as the parser normalised them), its size (frame text length, for
 * the byte bounds) and, on `/sockets/session`, its `seq` (the index in the conversation's log).
 */
export interface Positioned {
  event: Event;
  id: string;
  timestamp: string | undefined;
  bytes: number;
  seq: number | undefined;
}

/** The largest `seq` taken as a position: a log longer than this is a fault, not a conversation. */
export const MAX_SEQ = 2 ** 40;

/** A `seq` usable as a position: an integer in [0, MAX_SEQ]. Anything else is a fault to resync from. */
export function validSeq(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_SEQ;
}
