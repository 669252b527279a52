/**
 * Lenient mode (the default) against newer servers: unknown kinds and fields are carried through
 * untouched, `null` counts as absent, and objects with a string `kind` never make the parser throw.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isResponseValidationError } from '../../src/core/errors.js';
import {
  type Event,
  getUnknownInfo,
  isActionEvent,
  isKnownEvent,
  isObservationEvent,
  isSystemPromptEvent,
  isUnknownAction,
  isUnknownEvent,
  isUnknownObservation,
  isUnknownToolDefinition,
  parseAction,
  parseEvent,
  parseObservation,
  safeParseEvent,
} from '../../src/models/index.js';

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/anchor-events/${name}`, import.meta.url), 'utf8')) as Record<
    string,
    unknown
  >;
const actionEvent = fixture('ActionEvent.TerminalAction.json');
const observationEvent = fixture('ObservationEvent.TerminalObservation.json');
const systemPrompt = fixture('SystemPromptEvent.json');

describe('event kinds of newer servers', () => {
  const hook = {
    id: 'h1',
    timestamp: '2026-06-16T05:39:48.701247',
    source: 'hook',
    hook_event_type: 'PreToolUse',
    hook_command: 'check.sh',
    tool_name: null,
    success: true,
    blocked: false,
    exit_code: 0,
    stdout: '',
    stderr: '',
    kind: 'HookExecutionEvent',
  };

  it('HookExecutionEvent (source "hook") is a known event in both modes and serialises unchanged', () => {
    for (const mode of ['lenient', 'strict'] as const) {
      const event = parseEvent(hook, { mode });
      expect(isKnownEvent(event)).toBe(true);
      expect(JSON.parse(JSON.stringify(event))).toEqual(hook);
    }
  });

  it('an unknown kind becomes an UnknownEvent keeping its kind and every field untouched', () => {
    const future = { ...hook, kind: 'FutureEvent' };
    const event = parseEvent(future);
    expect(isUnknownEvent(event)).toBe(true);
    expect(isKnownEvent(event)).toBe(false);
    expect(event).toEqual(future);
    expect(JSON.parse(JSON.stringify(event))).toEqual(future);
    expect(getUnknownInfo(event)).toEqual({ reason: 'unknown-kind', issues: [] });
  });

  it('is the default mode, accepts JSON text, and copies rather than aliases the input', () => {
    const event = parseEvent(
      JSON.stringify({ kind: 'StreamingDeltaEvent', source: 'agent', content: 'tok' }),
    );
    expect(event).toMatchObject({ kind: 'StreamingDeltaEvent', source: 'agent', content: 'tok' });
    expect(isKnownEvent(event)).toBe(true);
    const input = { kind: 'InterruptEvent' };
    expect(parseEvent(input)).not.toBe(input);
  });

  it('strict mode rejects unknown kinds with a ResponseValidationError naming `kind`', () => {
    const future = { ...hook, kind: 'FutureEvent' };
    const result = safeParseEvent(future, { mode: 'strict' });
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(isResponseValidationError(result.error)).toBe(true);
      expect(result.error.issues[0]?.path).toEqual(['kind']);
    }
    expect(() => parseEvent(future, { mode: 'strict' })).toThrow(/kind/);
  });
});

describe('newer fields', () => {
  it('keeps parent_id, classification and ObservationEvent extended_content untouched', () => {
    const classification = { kind: 'rate_limit', retryable: true, user_action: 'retry', error_id: 'e1' };
    const agentError = {
      id: 'a',
      timestamp: 't',
      source: 'agent',
      tool_name: 'terminal',
      tool_call_id: 'c',
      error: 'limited',
      parent_id: null,
      classification,
      kind: 'AgentErrorEvent',
    };
    const event = parseEvent(agentError);
    expect(isKnownEvent(event)).toBe(true);
    expect(event).toEqual(agentError);

    const observation = parseEvent({ ...observationEvent, extended_content: [{ type: 'text', text: 'x' }] });
    expect(isObservationEvent(observation)).toBe(true);
    expect(observation).toMatchObject({ extended_content: [{ type: 'text', text: 'x' }] });
  });

  it('keeps unknown fields inside known nested objects', () => {
    const event = parseEvent({
      ...actionEvent,
      tool_call: { ...(actionEvent.tool_call as object), responses_item_id: 'ri' },
      action: { command: 'ls', kind: 'TerminalAction', new_flag: 1 },
    });
    expect(event).toMatchObject({
      tool_call: { responses_item_id: 'ri' },
      action: { new_flag: 1, is_input: false },
    });
  });
});

describe('unknown nested kinds', () => {
  it('an unknown action kind becomes an UnknownAction inside a known ActionEvent', () => {
    const action = { kind: 'ACPAction', payload: { a: null } };
    const event = parseEvent({ ...actionEvent, action });
    expect(isActionEvent(event)).toBe(true);
    if (!isActionEvent(event)) return;
    expect(isUnknownAction(event.action)).toBe(true);
    expect(event.action).toEqual(action);
  });

  it('an unknown observation kind becomes an UnknownObservation inside a known ObservationEvent', () => {
    const observation = { kind: 'ACPToolObservation', content: [], extra: 1 };
    const event = parseEvent({ ...observationEvent, observation });
    expect(isObservationEvent(event)).toBe(true);
    if (isObservationEvent(event)) {
      expect(isUnknownObservation(event.observation)).toBe(true);
      expect(event.observation).toEqual(observation);
    }
  });

  it('an unknown tool kind becomes an UnknownToolDefinition, the other tools stay typed', () => {
    const tools = [...(systemPrompt.tools as object[]), { kind: 'InvokeSkillTool', title: 'skill' }];
    const event = parseEvent({ ...systemPrompt, tools });
    expect(isSystemPromptEvent(event)).toBe(true);
    if (isSystemPromptEvent(event)) {
      expect(event.tools.map((t) => isUnknownToolDefinition(t))).toEqual([false, false, false, true]);
    }
  });

  it('a known nested kind with invalid fields becomes unknown with its issues; the event stays typed', () => {
    const event = parseEvent({ ...actionEvent, action: { kind: 'TerminalAction', command: 42 } });
    expect(isActionEvent(event)).toBe(true);
    if (!isActionEvent(event)) return;
    expect(isUnknownAction(event.action)).toBe(true);
    expect(getUnknownInfo(event.action)).toMatchObject({
      reason: 'invalid',
      issues: [{ path: ['command'] }],
    });
    expect(event.action).toEqual({ kind: 'TerminalAction', command: 42 });
  });

  it('strict mode rejects the same values', () => {
    expect(
      safeParseEvent({ ...actionEvent, action: { kind: 'ACPAction' } }, { mode: 'strict' }).success,
    ).toBe(false);
    expect(
      safeParseEvent({ ...actionEvent, action: { kind: 'TerminalAction', command: 42 } }, { mode: 'strict' })
        .success,
    ).toBe(false);
  });
});

describe('null counts as absent', () => {
  it('a null in a field with a default gives the default', () => {
    const event = parseEvent({ ...actionEvent, security_risk: null, thinking_blocks: null, source: null });
    expect(event).toMatchObject({ security_risk: 'UNKNOWN', thinking_blocks: [], source: 'agent' });
    const reject = parseEvent({
      id: 'r',
      timestamp: 't',
      tool_name: 't',
      tool_call_id: 'c',
      action_id: 'a',
      rejection_reason: null,
      rejection_source: null,
      kind: 'UserRejectObservation',
    });
    expect(reject).toMatchObject({
      source: 'environment',
      rejection_reason: 'User rejected the action',
      rejection_source: 'user',
    });
  });

  it('a null in a nested known field gives its default too', () => {
    const event = parseEvent({
      ...observationEvent,
      observation: {
        kind: 'TerminalObservation',
        command: 'ls',
        content: null,
        is_error: null,
        timeout: null,
        metadata: { pid: null },
      },
    });
    expect(event).toMatchObject({
      observation: { content: [], is_error: false, timeout: false, metadata: { pid: -1 } },
    });
  });

  it('a null in a nullable field is kept as null (absent and null mean the same)', () => {
    expect(parseEvent({ ...actionEvent, summary: null })).toMatchObject({ summary: null });
  });

  it('a null in a required field makes the event invalid: lenient gives an unknown value, strict an error', () => {
    const value = { ...actionEvent, tool_name: null };
    const event = parseEvent(value);
    expect(isUnknownEvent(event)).toBe(true);
    expect(getUnknownInfo(event)).toMatchObject({ reason: 'invalid', issues: [{ path: ['tool_name'] }] });
    expect(event).toEqual(value);
    expect(safeParseEvent(value, { mode: 'strict' }).success).toBe(false);
  });

  it('strict mode rejects null where the schema has no null', () => {
    const result = safeParseEvent({ ...actionEvent, security_risk: null }, { mode: 'strict' });
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error.issues.map((i) => i.path)).toEqual([['security_risk']]);
  });

  it('free-form values keep their nulls', () => {
    const event = parseEvent({
      ...actionEvent,
      action: { kind: 'MCPToolAction', data: { query: null } },
    });
    expect(event).toMatchObject({ action: { data: { query: null } } });
    const update = parseEvent({
      id: 'u',
      timestamp: 't',
      key: 'security_analyzer',
      value: null,
      kind: 'ConversationStateUpdateEvent',
    });
    expect(update).toMatchObject({ key: 'security_analyzer', value: null });
  });
});

describe('errors', () => {
  const bad: [string, unknown][] = [
    ['invalid JSON text', '{"kind": '],
    ['a JSON text that is not an object', '[1,2]'],
    ['null', null],
    ['a number', 7],
    ['an object without kind', { id: 'x' }],
    ['an object with a non-string kind', { kind: 3 }],
  ];

  it.each(bad)('%s throws ResponseValidationError in both modes', (_label, value) => {
    for (const mode of ['strict', 'lenient'] as const) {
      let thrown: unknown;
      try {
        parseEvent(value, { mode });
      } catch (error) {
        thrown = error;
      }
      expect(isResponseValidationError(thrown)).toBe(true);
      const result = safeParseEvent(value, { mode });
      expect(result.success).toBe(false);
      if (!result.success) expect(result.error.issues.length).toBeGreaterThan(0);
    }
  });

  it('invalid JSON is reported without quoting the text', () => {
    const result = safeParseEvent('{"secret": "hunter2" oops}');
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(result.error.message).not.toContain('hunter2');
      expect(result.error.issues[0]).toMatchObject({ path: [], code: 'invalid_json' });
    }
  });

  it('the raw body of an error never carries encrypted_content', () => {
    const value = {
      ...actionEvent,
      tool_name: 5,
      responses_reasoning_item: { summary: [], encrypted_content: 'TOP-SECRET-BLOB' },
    };
    for (const input of [value, JSON.stringify(value)]) {
      const result = safeParseEvent(input, { mode: 'strict' });
      expect(result.success).toBe(false);
      if (!result.success) {
        expect(result.error.rawBody).toBeDefined();
        expect(result.error.rawBody).not.toContain('TOP-SECRET-BLOB');
        expect(result.error.message).not.toContain('TOP-SECRET-BLOB');
      }
    }
  });

  it('issue paths and messages are what the HTTP transport reads', () => {
    const result = safeParseEvent({ ...actionEvent, tool_call: { id: 1 } }, { mode: 'strict' });
    expect(result.success).toBe(false);
    if (!result.success) {
      const paths = result.error.issues.map((i) => i.path.join('.'));
      expect(paths).toEqual(
        expect.arrayContaining(['tool_call.id', 'tool_call.name', 'tool_call.arguments', 'tool_call.origin']),
      );
      for (const issue of result.error.issues) expect(issue.message).toMatch(/\w/);
    }
  });

  it('Event narrowing: every known guard is false for an unknown value', () => {
    const event: Event = parseEvent({ kind: 'ActionEvent' });
    expect(isUnknownEvent(event)).toBe(true);
    expect(isActionEvent(event)).toBe(false);
  });
});

describe('parseAction and parseObservation', () => {
  it('parse nested values on their own, with unknown kinds in lenient mode only', () => {
    expect(parseAction({ kind: 'TerminalAction', command: 'ls', timeout: null })).toEqual({
      kind: 'TerminalAction',
      command: 'ls',
      timeout: null,
      is_input: false,
      reset: false,
    });
    expect(isUnknownAction(parseAction({ kind: 'FutureAction' }))).toBe(true);
    expect(() => parseAction({ kind: 'FutureAction' }, { mode: 'strict' })).toThrow(/kind/);
    expect(isUnknownObservation(parseObservation('{"kind": "FutureObservation"}'))).toBe(true);
    expect(parseObservation({ kind: 'FinishObservation', content: null }, { mode: 'lenient' })).toEqual({
      kind: 'FinishObservation',
      content: [],
      is_error: false,
    });
    expect(() => parseObservation({ kind: 'FinishObservation', content: null }, { mode: 'strict' })).toThrow(
      /content/,
    );
    expect(() => parseAction(5)).toThrow(/action/);
  });
});
