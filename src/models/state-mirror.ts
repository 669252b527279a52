/**
 * The conversation state's statuses and the state mirror the live layer keeps, without the state's schema (in
 * conversation-state.ts): a client needs these up front, zod only to check a value that fails its predicate.
 */
import type { ConversationStateUpdateEvent } from './schemas.js';
import type { ConversationState, ExecutionStatus } from './types.generated.js';
import { isRecord } from './unknown.js';

export const EXECUTION_STATUSES = [
  'idle',
  'running',
  'paused',
  'waiting_for_confirmation',
  'finished',
  'error',
  'stuck',
  'deleting',
] as const;

/** Statuses a run ends in (as the Python SDK decides): `idle` is not terminal. */
export const TERMINAL_EXECUTION_STATUSES = [
  'finished',
  'error',
  'stuck',
] as const satisfies readonly ExecutionStatus[];
export type TerminalExecutionStatus = (typeof TERMINAL_EXECUTION_STATUSES)[number];

export function isTerminalExecutionStatus(status: unknown): status is TerminalExecutionStatus {
  return (TERMINAL_EXECUTION_STATUSES as readonly unknown[]).includes(status);
}

/** The `key` of a ConversationStateUpdateEvent that carries the whole state. */
export const FULL_STATE_KEY = 'full_state';

/**
 * A client-side mirror of the conversation state: any subset of the state's fields (updates can name fields a
 * newer server added).
 */
export type ConversationStateMirror = Partial<ConversationState> & { readonly [field: string]: unknown };

/**
 * Applies a ConversationStateUpdateEvent to a state mirror and returns the new mirror (the input is not changed).
 * `full_state` replaces the mirror with the event's value; any other key sets that one field (an absent or
 * `null` value sets `null`). An update without a `key` changes nothing.
 */
export function applyStateUpdate(
  state: ConversationStateMirror | undefined,
  event: Pick<ConversationStateUpdateEvent, 'key' | 'value'>,
): ConversationStateMirror {
  const current = state ?? {};
  const { key, value } = event;
  if (key === undefined) return current;
  if (key === FULL_STATE_KEY) return isRecord(value) ? { ...value } : current;
  return { ...current, [key]: value === undefined ? null : value };
}

/** True when a ConversationStateUpdateEvent carries the whole state (`key: "full_state"`). */
export function isFullStateUpdate(event: Pick<ConversationStateUpdateEvent, 'key'>): boolean {
  return event.key === FULL_STATE_KEY;
}
