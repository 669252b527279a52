/**
 * Kinds with no real sample: hand-made samples built from the spec tables (2.1-2.3), checking that
 * defaults are applied and that each constraint is enforced, in both modes.
 */
import { describe, expect, it } from 'vitest';
import { ResponseValidationError } from '../../src/core/errors.js';
import {
  type Event,
  isKnownEvent,
  type ParseMode,
  parseEvent,
  safeParseEvent,
  safeParseModel,
} from '../../src/models/index.js';
import { ActionSchema, ObservationSchema, ToolDefinitionSchema } from '../../src/models.js';

const MODES: ParseMode[] = ['strict', 'lenient'];
const common = { id: 'evt-1', timestamp: '2026-02-05T11:24:45.292853' };
const toolCall = { id: 'call_1', name: 'terminal', arguments: '{"command":"ls"}', origin: 'completion' };

/** Parses and returns the event as a plain record (for field access in assertions). */
const parse = (value: unknown, mode: ParseMode): Record<string, unknown> =>
  parseEvent(value, { mode }) as unknown as Record<string, unknown>;

/** Strict mode rejects it; lenient mode turns it into an unknown value (never a known event). */
function expectRejected(value: Record<string, unknown>, path: (string | number)[]): void {
  const strict = safeParseEvent(value, { mode: 'strict' });
  expect(strict.success).toBe(false);
  if (!strict.success) expect(strict.error.issues.map((i) => i.path)).toContainEqual(path);
  const lenient = parseEvent(value, { mode: 'lenient' });
  expect(isKnownEvent(lenient)).toBe(false);
}

describe.each(MODES)('events without a real sample (%s)', (mode) => {
  it('Condensation: source environment, forgotten ids, optional summary and offset', () => {
    const e = parse({ ...common, kind: 'Condensation', llm_response_id: 'r1' }, mode);
    expect(e).toEqual({
      ...common,
      kind: 'Condensation',
      source: 'environment',
      forgotten_event_ids: [],
      llm_response_id: 'r1',
    });
    const full = parse(
      {
        ...common,
        kind: 'Condensation',
        llm_response_id: 'r1',
        forgotten_event_ids: ['a', 'b'],
        summary: 'sum',
        summary_offset: 0,
      },
      mode,
    );
    expect(full).toMatchObject({ forgotten_event_ids: ['a', 'b'], summary: 'sum', summary_offset: 0 });
  });

  it('CondensationRequest and CondensationSummaryEvent default to source environment', () => {
    expect(parse({ ...common, kind: 'CondensationRequest' }, mode)).toEqual({
      ...common,
      kind: 'CondensationRequest',
      source: 'environment',
    });
    expect(parse({ ...common, kind: 'CondensationSummaryEvent', summary: 's' }, mode)).toMatchObject({
      source: 'environment',
      summary: 's',
    });
  });

  it('ConversationErrorEvent has no default source', () => {
    const e = parse(
      { ...common, kind: 'ConversationErrorEvent', source: 'environment', code: 'LLMError', detail: 'boom' },
      mode,
    );
    expect(e).toMatchObject({ source: 'environment', code: 'LLMError', detail: 'boom' });
  });

  it('LLMCompletionLogEvent defaults model_name to "unknown" and usage_id to "default"', () => {
    const e = parse({ ...common, kind: 'LLMCompletionLogEvent', filename: 'a.json', log_data: '{}' }, mode);
    expect(e).toMatchObject({ source: 'environment', model_name: 'unknown', usage_id: 'default' });
  });

  it('AgentErrorEvent defaults to source agent', () => {
    const e = parse(
      { ...common, kind: 'AgentErrorEvent', tool_name: 't', tool_call_id: 'c', error: 'bad args' },
      mode,
    );
    expect(e).toEqual({
      ...common,
      kind: 'AgentErrorEvent',
      source: 'agent',
      tool_name: 't',
      tool_call_id: 'c',
      error: 'bad args',
    });
  });

  it('UserRejectObservation defaults rejection_reason and rejection_source "user"', () => {
    const e = parse(
      { ...common, kind: 'UserRejectObservation', tool_name: 't', tool_call_id: 'c', action_id: 'a' },
      mode,
    );
    expect(e).toMatchObject({
      source: 'environment',
      rejection_reason: 'User rejected the action',
      rejection_source: 'user',
    });
    expect(parse({ ...e, rejection_source: 'hook' }, mode)).toMatchObject({ rejection_source: 'hook' });
  });

  it('TokenEvent and PauseEvent', () => {
    expect(
      parse(
        { ...common, kind: 'TokenEvent', source: 'agent', prompt_token_ids: [1, 2], response_token_ids: [3] },
        mode,
      ),
    ).toMatchObject({
      prompt_token_ids: [1, 2],
      response_token_ids: [3],
    });
    expect(parse({ ...common, kind: 'PauseEvent' }, mode)).toEqual({
      ...common,
      kind: 'PauseEvent',
      source: 'user',
    });
  });

  it('ActionEvent defaults: source agent, security_risk UNKNOWN, thinking_blocks []', () => {
    const e = parse(
      {
        ...common,
        kind: 'ActionEvent',
        thought: [{ text: 'hm' }],
        tool_name: 'terminal',
        tool_call_id: 'call_1',
        tool_call: toolCall,
        llm_response_id: 'r1',
      },
      mode,
    );
    expect(e).toMatchObject({
      source: 'agent',
      security_risk: 'UNKNOWN',
      thinking_blocks: [],
      thought: [{ cache_prompt: false, type: 'text', text: 'hm' }],
    });
    expect(e.action).toBeUndefined();
  });

  it('MessageEvent defaults: activated_skills and extended_content []', () => {
    const e = parse(
      {
        ...common,
        kind: 'MessageEvent',
        source: 'user',
        llm_message: { role: 'tool', content: [{ image_urls: ['data:x'] }] },
      },
      mode,
    );
    expect(e).toMatchObject({
      activated_skills: [],
      extended_content: [],
      llm_message: {
        role: 'tool',
        content: [{ cache_prompt: false, type: 'image', image_urls: ['data:x'] }],
        thinking_blocks: [],
      },
    });
  });

  it('id and timestamp are filled in when absent, as the server model does', () => {
    const e = parse({ kind: 'PauseEvent' }, mode);
    expect(e.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(e.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/);
  });
});

describe('required source', () => {
  it.each(['ConversationErrorEvent', 'MessageEvent', 'TokenEvent'])(
    '%s without source is rejected',
    (kind) => {
      const values: Record<string, Record<string, unknown>> = {
        ConversationErrorEvent: { code: 'c', detail: 'd' },
        MessageEvent: { llm_message: { role: 'user' } },
        TokenEvent: { prompt_token_ids: [], response_token_ids: [] },
      };
      expectRejected({ ...common, kind, ...values[kind] }, ['source']);
    },
  );
});

describe('constraints on events', () => {
  const critic = (score: number) => ({
    ...common,
    kind: 'MessageEvent',
    source: 'agent',
    llm_message: { role: 'assistant' },
    critic_result: { score, message: null },
  });

  it('summary_offset >= 0', () => {
    expect(
      parse({ ...common, kind: 'Condensation', llm_response_id: 'r', summary_offset: 0 }, 'strict')
        .summary_offset,
    ).toBe(0);
    expectRejected({ ...common, kind: 'Condensation', llm_response_id: 'r', summary_offset: -1 }, [
      'summary_offset',
    ]);
    expectRejected({ ...common, kind: 'Condensation', llm_response_id: 'r', summary_offset: 1.5 }, [
      'summary_offset',
    ]);
  });

  it('critic score within 0..1', () => {
    for (const score of [0, 0.5, 1])
      expect(parse(critic(score), 'strict').critic_result).toEqual({ score, message: null });
    expectRejected(critic(1.01), ['critic_result', 'score']);
    expectRejected(critic(-0.01), ['critic_result', 'score']);
  });

  it('critic message is required but may be null; lenient mode reads an absent message as null', () => {
    const noMessage = { ...critic(0.5), critic_result: { score: 0.5 } };
    expect(safeParseEvent(noMessage, { mode: 'strict' }).success).toBe(false);
    expect(parse(noMessage, 'lenient').critic_result).toEqual({ score: 0.5, message: null });
  });

  it('enums: source, security_risk, rejection_source, tool call origin, message role', () => {
    expectRejected({ ...common, kind: 'PauseEvent', source: 'robot' }, ['source']);
    expectRejected(
      {
        ...common,
        kind: 'UserRejectObservation',
        tool_name: 't',
        tool_call_id: 'c',
        action_id: 'a',
        rejection_source: 'system',
      },
      ['rejection_source'],
    );
    expectRejected({ ...critic(0), llm_message: { role: 'robot' } }, ['llm_message', 'role']);
  });

  it('strict rejects unknown properties on every event; lenient keeps them', () => {
    const value = { ...common, kind: 'PauseEvent', parent_of: 'p-1' };
    const strict = safeParseEvent(value, { mode: 'strict' });
    expect(strict.success).toBe(false);
    if (!strict.success)
      expect(strict.error.issues[0]).toMatchObject({ path: [], code: 'unrecognized_keys' });
    const loose = parseEvent(value, { mode: 'lenient' }) as Event & { parent_of?: string };
    expect(isKnownEvent(loose)).toBe(true);
    expect(loose.parent_of).toBe('p-1');
  });
});

describe.each(MODES)('actions without a real sample (%s)', (mode) => {
  const action = (value: unknown) => {
    const result = safeParseModel(ActionSchema, value, { mode });
    if (!result.success) throw result.error;
    return result.data as Record<string, unknown>;
  };
  const rejected = (value: unknown, path: (string | number)[]) => {
    const result = safeParseModel(ActionSchema, value, { mode: 'strict' });
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error.issues.map((i) => i.path)).toContainEqual(path);
    expect(result.success || result.error instanceof ResponseValidationError).toBe(true);
  };

  it('browser defaults', () => {
    expect(action({ kind: 'BrowserClickAction', index: 0 })).toEqual({
      kind: 'BrowserClickAction',
      index: 0,
      new_tab: false,
    });
    expect(action({ kind: 'BrowserGetContentAction' })).toEqual({
      kind: 'BrowserGetContentAction',
      extract_links: false,
      start_from_char: 0,
    });
    expect(action({ kind: 'BrowserGetStateAction' })).toEqual({
      kind: 'BrowserGetStateAction',
      include_screenshot: false,
    });
    expect(action({ kind: 'BrowserNavigateAction', url: 'https://x' })).toEqual({
      kind: 'BrowserNavigateAction',
      url: 'https://x',
      new_tab: false,
    });
    expect(action({ kind: 'BrowserScrollAction' })).toEqual({
      kind: 'BrowserScrollAction',
      direction: 'down',
    });
    expect(
      action({ kind: 'BrowserSetStorageAction', storage_state: { cookies: [], origins: [] } }),
    ).toMatchObject({ storage_state: { cookies: [], origins: [] } });
    for (const kind of [
      'BrowserAction',
      'BrowserGetStorageAction',
      'BrowserGoBackAction',
      'BrowserListTabsAction',
      'BrowserStartRecordingAction',
      'BrowserStopRecordingAction',
    ]) {
      expect(action({ kind })).toEqual({ kind });
    }
  });

  it('other tools: defaults of MCP, think, edit, list, read, write, glob, task tracker, terminal', () => {
    expect(action({ kind: 'MCPToolAction' })).toEqual({ kind: 'MCPToolAction', data: {} });
    expect(action({ kind: 'ThinkAction', thought: 't' })).toEqual({ kind: 'ThinkAction', thought: 't' });
    expect(action({ kind: 'EditAction', file_path: 'f', old_string: 'a', new_string: 'b' })).toMatchObject({
      expected_replacements: 1,
    });
    expect(action({ kind: 'ListDirectoryAction' })).toEqual({
      kind: 'ListDirectoryAction',
      dir_path: '.',
      recursive: false,
    });
    expect(action({ kind: 'ReadFileAction', file_path: 'f', offset: 0, limit: 1 })).toMatchObject({
      offset: 0,
      limit: 1,
    });
    expect(action({ kind: 'WriteFileAction', file_path: 'f', content: '' })).toMatchObject({ content: '' });
    expect(action({ kind: 'GlobAction', pattern: '*.ts' })).toEqual({ kind: 'GlobAction', pattern: '*.ts' });
    expect(action({ kind: 'TaskTrackerAction', task_list: [{ title: 'x' }] })).toEqual({
      kind: 'TaskTrackerAction',
      command: 'view',
      task_list: [{ title: 'x', notes: '', status: 'todo' }],
    });
    expect(action({ kind: 'TerminalAction', command: '' })).toEqual({
      kind: 'TerminalAction',
      command: '',
      is_input: false,
      reset: false,
    });
  });

  it('file editors: command and path required, insert_line and view_range optional', () => {
    for (const kind of ['FileEditorAction', 'PlanningFileEditorAction']) {
      expect(action({ kind, command: 'insert', path: '/a', new_str: 'x', insert_line: 0 })).toMatchObject({
        insert_line: 0,
      });
      expect(action({ kind, command: 'view', path: '/a', view_range: [3, -1] })).toMatchObject({
        view_range: [3, -1],
      });
      rejected({ kind, command: 'view' }, ['path']);
      rejected({ kind, command: 'delete', path: '/a' }, ['command']);
    }
  });

  it('constraints: tab ids of 4 characters, index / start_from_char / insert_line >= 0', () => {
    expect(action({ kind: 'BrowserSwitchTabAction', tab_id: 'A1b2' })).toMatchObject({ tab_id: 'A1b2' });
    expect(action({ kind: 'BrowserCloseTabAction', tab_id: 'zzzz' })).toMatchObject({ tab_id: 'zzzz' });
    for (const kind of ['BrowserSwitchTabAction', 'BrowserCloseTabAction']) {
      rejected({ kind, tab_id: 'abc' }, ['tab_id']);
      rejected({ kind, tab_id: 'abcde' }, ['tab_id']);
    }
    rejected({ kind: 'BrowserClickAction', index: -1 }, ['index']);
    rejected({ kind: 'BrowserClickAction', index: 0.5 }, ['index']);
    rejected({ kind: 'BrowserTypeAction', index: -1, text: 'x' }, ['index']);
    rejected({ kind: 'BrowserGetContentAction', start_from_char: -1 }, ['start_from_char']);
    rejected({ kind: 'FileEditorAction', command: 'insert', path: '/a', insert_line: -1 }, ['insert_line']);
    rejected({ kind: 'ReadFileAction', file_path: 'f', limit: 0 }, ['limit']);
    rejected({ kind: 'TerminalAction', command: 'x', timeout: -1 }, ['timeout']);
    rejected(
      { kind: 'EditAction', file_path: 'f', old_string: 'a', new_string: 'b', expected_replacements: -1 },
      ['expected_replacements'],
    );
  });
});

describe.each(MODES)('observations and tools without a real sample (%s)', (mode) => {
  const observation = (value: unknown) => {
    const result = safeParseModel(ObservationSchema, value, { mode });
    if (!result.success) throw result.error;
    return result.data as Record<string, unknown>;
  };

  it('every observation has content [] and is_error false by default', () => {
    expect(observation({ kind: 'ThinkObservation' })).toEqual({
      kind: 'ThinkObservation',
      content: [],
      is_error: false,
    });
    expect(observation({ kind: 'MCPToolObservation', tool_name: 'x' })).toMatchObject({
      content: [],
      is_error: false,
    });
  });

  it('observation defaults', () => {
    expect(observation({ kind: 'FileEditorObservation', command: 'view' })).toMatchObject({
      prev_exist: true,
    });
    expect(observation({ kind: 'EditObservation' })).toMatchObject({
      is_new_file: false,
      replacements_made: 0,
    });
    expect(observation({ kind: 'ListDirectoryObservation' })).toMatchObject({
      entries: [],
      total_count: 0,
      is_truncated: false,
    });
    expect(observation({ kind: 'ReadFileObservation', file_path: 'f', lines_shown: [1, 2] })).toMatchObject({
      file_content: '',
      is_truncated: false,
      lines_shown: [1, 2],
    });
    expect(observation({ kind: 'GlobObservation', files: [], pattern: '*', search_path: '/' })).toMatchObject(
      { truncated: false },
    );
    expect(observation({ kind: 'TaskTrackerObservation', command: 'plan' })).toMatchObject({ task_list: [] });
    expect(observation({ kind: 'BrowserObservation', screenshot_data: 'aGk=' })).toMatchObject({
      screenshot_data: 'aGk=',
    });
    expect(observation({ kind: 'TerminalObservation', command: null, metadata: {} })).toMatchObject({
      timeout: false,
      metadata: { exit_code: -1, pid: -1, prefix: '', suffix: '' },
    });
  });

  it('ListDirectoryObservation entries need all five fields', () => {
    const entry = {
      name: 'a',
      path: '/a',
      is_directory: false,
      size: 1,
      modified_time: '2026-02-05T11:24:45.292853',
    };
    expect(observation({ kind: 'ListDirectoryObservation', entries: [entry] })).toMatchObject({
      entries: [entry],
    });
    const result = safeParseModel(
      ObservationSchema,
      { kind: 'ListDirectoryObservation', entries: [{ ...entry, size: undefined }] },
      { mode },
    );
    expect(result.success).toBe(false);
  });

  it('MCPToolDefinition: mcp_tool required, annotations defaults from the SDK', () => {
    const tool = {
      kind: 'MCPToolDefinition',
      title: 'fetch',
      description: 'd',
      action_type: 'MCPToolAction',
      annotations: {},
      mcp_tool: { name: 'fetch', inputSchema: { type: 'object' } },
    };
    const result = safeParseModel(ToolDefinitionSchema, tool, { mode });
    expect(result.success && result.data).toMatchObject({
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
      mcp_tool: { name: 'fetch', inputSchema: { type: 'object' } },
    });
    const { mcp_tool: _omit, ...withoutTool } = tool;
    expect(safeParseModel(ToolDefinitionSchema, withoutTool, { mode }).success).toBe(false);
  });
});
