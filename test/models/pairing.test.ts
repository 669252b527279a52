/** Pairing results with their actions (`action_id`, `tool_call_id`) and grouping parallel calls. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ActionTracker,
  type Event,
  findActionFor,
  findResultFor,
  groupByLlmResponse,
  isActionEvent,
  isObservationEvent,
  pairActions,
  parseEvent,
} from '../../src/models/index.js';

const load = (name: string): Event =>
  parseEvent(readFileSync(new URL(`../fixtures/anchor-events/${name}`, import.meta.url), 'utf8'));

// The real conversation of the anchor samples: prompt, message, terminal action + observation, finish + observation.
const realConversation = [
  'SystemPromptEvent.json',
  'MessageEvent.user.json',
  'ActionEvent.TerminalAction.json',
  'ObservationEvent.TerminalObservation.json',
  'ActionEvent.FinishAction.json',
  'ObservationEvent.FinishObservation.json',
  'MessageEvent.agent.json',
].map(load);

const action = (id: string, toolCallId: string, llmResponseId: string): Event =>
  parseEvent({
    id,
    timestamp: 't',
    thought: [],
    tool_name: 'terminal',
    tool_call_id: toolCallId,
    tool_call: { id: toolCallId, name: 'terminal', arguments: '{}', origin: 'completion' },
    llm_response_id: llmResponseId,
    action: null,
    kind: 'ActionEvent',
  });
const agentError = (id: string, toolCallId: string): Event =>
  parseEvent({
    id,
    timestamp: 't',
    tool_name: 'terminal',
    tool_call_id: toolCallId,
    error: 'bad',
    kind: 'AgentErrorEvent',
  });
const reject = (id: string, actionId: string, toolCallId: string): Event =>
  parseEvent({
    id,
    timestamp: 't',
    tool_name: 'terminal',
    tool_call_id: toolCallId,
    action_id: actionId,
    kind: 'UserRejectObservation',
  });

describe('pairActions', () => {
  it('pairs the real actions with their real observations by action_id', () => {
    const { pairs, unmatchedResults } = pairActions(realConversation);
    expect(pairs.map((p) => [p.action.id, p.result?.id])).toEqual([
      ['fa7668e4-a43d-4fa4-b75c-ffd642afb5b5', '4fc3850a-621c-4e43-a6e3-b1820e80e058'],
      ['974caa29-4f4b-4c30-b4e1-5169f41e6d3d', '125cf15f-b389-4444-9605-293c8f1ef447'],
    ]);
    expect(unmatchedResults).toEqual([]);
  });

  it('pairs an AgentErrorEvent by tool_call_id and a UserRejectObservation by action_id', () => {
    const events = [
      action('a1', 'c1', 'r'),
      action('a2', 'c2', 'r'),
      reject('x2', 'a2', 'c2'),
      agentError('x1', 'c1'),
    ];
    const { pairs } = pairActions(events);
    expect(pairs.map((p) => [p.action.id, p.result?.kind])).toEqual([
      ['a1', 'AgentErrorEvent'],
      ['a2', 'UserRejectObservation'],
    ]);
  });

  it('leaves pending actions without a result and reports results whose action is missing', () => {
    const { pairs, unmatchedResults } = pairActions([action('a1', 'c1', 'r'), reject('x9', 'a9', 'c9')]);
    expect(pairs[0]?.result).toBeUndefined();
    expect(unmatchedResults.map((r) => r.id)).toEqual(['x9']);
  });
});

describe('ActionTracker (streams)', () => {
  it('returns the completed pair, handles a result before its action, and ignores duplicates', () => {
    const tracker = new ActionTracker();
    expect(tracker.add(reject('x1', 'a1', 'c1'))).toBeUndefined();
    const completed = tracker.add(action('a1', 'c1', 'r'));
    expect(completed?.result?.id).toBe('x1');
    expect(tracker.add(action('a2', 'c2', 'r'))).toBeUndefined();
    expect(tracker.pending().map((a) => a.id)).toEqual(['a2']);
    expect(tracker.add(agentError('x2', 'c2'))?.action.id).toBe('a2');
    expect(tracker.add(agentError('x2', 'c2'))).toBeUndefined();
    expect(tracker.add(action('a2', 'c2', 'r'))).toBeUndefined();
    expect(tracker.pending()).toEqual([]);
    expect(tracker.get('a1')?.result?.id).toBe('x1');
    expect(tracker.unmatchedResults()).toEqual([]);
  });
});

describe('find helpers', () => {
  it('findActionFor and findResultFor', () => {
    const [, , terminal, observation] = realConversation;
    if (!isActionEvent(terminal) || !isObservationEvent(observation)) throw new Error('fixture');
    expect(findActionFor(observation, realConversation)?.id).toBe(terminal.id);
    expect(findResultFor(terminal, realConversation)?.id).toBe(observation.id);
  });
});

describe('groupByLlmResponse', () => {
  it('groups parallel actions of one LLM response, in order', () => {
    const groups = groupByLlmResponse([
      action('a1', 'c1', 'r1'),
      action('a2', 'c2', 'r1'),
      action('a3', 'c3', 'r2'),
      agentError('x', 'c1'),
    ]);
    expect([...groups.entries()].map(([id, list]) => [id, list.map((a) => a.id)])).toEqual([
      ['r1', ['a1', 'a2']],
      ['r2', ['a3']],
    ]);
  });

  it('gives one group per real LLM response', () => {
    expect([...groupByLlmResponse(realConversation).keys()]).toEqual([
      'chatcmpl-D5rlWUdHeehJ1YAPoStNh1wWFayTf',
      'chatcmpl-D5rlXVHL3O2F73PrKIeJuVlLiGGRy',
    ]);
  });
});
