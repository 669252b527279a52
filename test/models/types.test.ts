/**
 * Typing: `switch (event.kind)` narrows exhaustively once unknown values are set aside (checked by `tsc`, run by
 * this test at runtime on the real samples), and the public types match the schemas.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type Action,
  type ActionEvent,
  type EVENT_KINDS,
  type Event,
  isUnknownAction,
  isUnknownEvent,
  type KnownEvent,
  type KnownEventKind,
  parseEvent,
  type UnknownAction,
} from '../../src/models/index.js';

/** One line per event; the `never` default makes tsc fail if a kind is not handled or not narrowed. */
function summarise(event: Event): string {
  if (isUnknownEvent(event)) return `unknown ${event.kind}`;
  switch (event.kind) {
    case 'Condensation':
      return `${event.forgotten_event_ids.length} forgotten`;
    case 'CondensationRequest':
      return 'request';
    case 'CondensationSummaryEvent':
      return event.summary;
    case 'ConversationErrorEvent':
      return event.code;
    case 'ConversationStateUpdateEvent':
      return String(event.key);
    case 'LLMCompletionLogEvent':
      return event.model_name;
    case 'ActionEvent':
      return describeAction(event.action);
    case 'MessageEvent':
      return event.llm_message.role;
    case 'AgentErrorEvent':
      return event.error;
    case 'ObservationEvent':
      return String(event.observation.kind);
    case 'UserRejectObservation':
      return event.rejection_source;
    case 'SystemPromptEvent':
      return event.tools.map((t) => t.kind).join(',');
    case 'TokenEvent':
      return String(event.prompt_token_ids.length);
    case 'PauseEvent':
      return 'pause';
    case 'InterruptEvent':
      return 'interrupt';
    case 'ServerErrorEvent':
      return event.code;
    case 'ACPToolCallEvent':
      return event.title;
    case 'HookExecutionEvent':
      return event.hook_event_type;
    case 'SecurityAnalysisEvent':
      return event.analyzer;
    case 'StreamingDeltaEvent':
      return event.content ?? '';
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

function describeAction(action: ActionEvent['action']): string {
  if (action === null || action === undefined) return 'none';
  if (isUnknownAction(action)) return `unknown ${action.kind}`;
  switch (action.kind) {
    case 'TerminalAction':
      return action.command;
    case 'FinishAction':
      return action.message;
    default:
      return action.kind;
  }
}

describe('narrowing', () => {
  it('summarises every real sample through the exhaustive switch', () => {
    const dir = new URL('../fixtures/anchor-events/', import.meta.url);
    const lines = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => summarise(parseEvent(readFileSync(new URL(f, dir), 'utf8'))));
    expect(lines).toContain('pwd > tool_output.txt');
    expect(lines).toContain('TerminalTool,FinishTool,ThinkTool');
    expect(summarise(parseEvent({ kind: 'HookExecutionEvent' }))).toBe('unknown HookExecutionEvent');
  });

  it('public types', () => {
    expectTypeOf<KnownEvent['kind']>().toEqualTypeOf<KnownEventKind>();
    expectTypeOf<(typeof EVENT_KINDS)[number]>().toEqualTypeOf<KnownEventKind>();
    expectTypeOf<ActionEvent['action']>().toEqualTypeOf<Action | UnknownAction | null | undefined>();
    expectTypeOf<ActionEvent['security_risk']>().toEqualTypeOf<'UNKNOWN' | 'LOW' | 'MEDIUM' | 'HIGH'>();
    expectTypeOf<ActionEvent['id']>().toEqualTypeOf<string>();
    expectTypeOf(parseEvent).returns.toEqualTypeOf<Event>();
  });
});

/** Narrowing without a guard: the unknown kind is opaque, so comparing `kind` with a known name narrows. */
function withoutGuard(event: Event): string {
  if (event.kind === 'ConversationStateUpdateEvent') return `${event.key}`;
  switch (event.kind) {
    case 'ActionEvent':
      return event.action?.kind === 'TerminalAction' ? event.action.command : 'action';
    case 'MessageEvent':
      return event.llm_message.role;
    default: {
      // Every other known kind, and the unknown ones, whose kind reads as text with String().
      const rest: Exclude<Event, { kind: 'ActionEvent' | 'MessageEvent' | 'ConversationStateUpdateEvent' }> =
        event;
      return String(rest.kind);
    }
  }
}

describe('narrowing on kind without a guard', () => {
  it('narrows known kinds with === and switch, and leaves unknown kinds to default', () => {
    expect(
      withoutGuard(parseEvent({ id: 'e1', timestamp: 't', source: 'agent', kind: 'HookishNewEvent', x: 1 })),
    ).toBe('HookishNewEvent');
    const message = parseEvent({
      id: 'e2',
      timestamp: '2026-02-05T11:24:45',
      source: 'user',
      kind: 'MessageEvent',
      llm_message: { role: 'user', content: [{ type: 'text', text: 'hi' }] },
    });
    expect(withoutGuard(message)).toBe('user');
    expectTypeOf<Extract<Event, { kind: 'MessageEvent' }>>().toEqualTypeOf<
      Extract<KnownEvent, { kind: 'MessageEvent' }>
    >();
  });
});
