/** ConversationStateUpdateEvent handling for state mirrors, with the real samples. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  applyStateUpdate,
  type ConversationStateUpdateEvent,
  isConversationStateUpdateEvent,
  isFullStateUpdate,
  isTerminalExecutionStatus,
  parseConversationState,
  parseEvent,
  TERMINAL_EXECUTION_STATUSES,
} from '../../src/models/index.js';

const read = (name: string) =>
  readFileSync(new URL(`../fixtures/anchor-events/${name}`, import.meta.url), 'utf8');
const update = (name: string): ConversationStateUpdateEvent => {
  const event = parseEvent(read(name));
  if (!isConversationStateUpdateEvent(event)) throw new Error(`${name} is not a state update`);
  return event;
};
const baseState = JSON.parse(read('nested/ConversationState.persisted-base_state.json')) as Record<
  string,
  unknown
>;
const fullState = (): ConversationStateUpdateEvent =>
  parseEvent({
    id: 'f',
    timestamp: 't',
    key: 'full_state',
    value: baseState,
    kind: 'ConversationStateUpdateEvent',
  }) as ConversationStateUpdateEvent;

describe('applyStateUpdate', () => {
  it('full_state replaces the mirror; per-key updates set one field; the input is not changed', () => {
    const first = applyStateUpdate(undefined, fullState());
    expect(isFullStateUpdate(fullState())).toBe(true);
    expect(first).toEqual(baseState);
    expect(first).not.toBe(baseState);
    expect(first.execution_status).toBe('finished');

    const running = applyStateUpdate(
      first,
      update('ConversationStateUpdateEvent.execution_status.with-nulls.json'),
    );
    expect(running.execution_status).toBe('running');
    expect(first.execution_status).toBe('finished');

    const withStats = applyStateUpdate(running, update('ConversationStateUpdateEvent.stats.with-nulls.json'));
    expect(Object.keys((withStats.stats as { usage_to_metrics: object }).usage_to_metrics)).toEqual([
      'default',
      'condenser',
    ]);
    expect(withStats.id).toBe(baseState.id);
  });

  it('an absent value (null on the wire) sets null; an update without key changes nothing', () => {
    const state = applyStateUpdate(
      { last_user_message_id: 'u1' },
      { key: 'last_user_message_id', value: undefined },
    );
    expect(state).toEqual({ last_user_message_id: null });
    const same = { execution_status: 'idle' as const };
    expect(applyStateUpdate(same, { key: undefined, value: 1 })).toBe(same);
  });

  it('keys of newer servers are kept', () => {
    expect(applyStateUpdate({}, { key: 'goal', value: { text: 'x' } })).toEqual({ goal: { text: 'x' } });
  });

  it('a full_state value can be validated with parseConversationState', () => {
    const state = parseConversationState(fullState().value);
    expect(state.stats?.usage_to_metrics.agent?.accumulated_token_usage?.prompt_tokens).toBe(11583);
    expect(() => parseConversationState({ id: 'x' }, { mode: 'strict' })).toThrow(/agent/);
  });
});

describe('execution status', () => {
  it('terminal statuses are finished, error and stuck (idle is not terminal)', () => {
    expect([...TERMINAL_EXECUTION_STATUSES].sort()).toEqual(['error', 'finished', 'stuck']);
    expect(isTerminalExecutionStatus('idle')).toBe(false);
    expect(isTerminalExecutionStatus('stuck')).toBe(true);
    expect(isTerminalExecutionStatus(undefined)).toBe(false);
  });
});
