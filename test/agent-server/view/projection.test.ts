import { describe, expect, it } from 'vitest';
import { Projection, projectEvents } from '../../../src/agent-server/view/projection.js';
import type { Event } from '../../../src/models/index.js';
import { action, agentError, agentMessage, observation, stateUpdate, userMessage } from './fake-source.js';

const shape = (items: readonly { type: string; events: readonly Event[] }[]) =>
  items.map((item) => [item.type, ...item.events.map((event) => event.kind)]);

describe('Projection', () => {
  it('pairs parallel tool calls with their results, in the order of the actions', () => {
    const first = action('call-a');
    const second = action('call-b');
    const items = projectEvents([
      userMessage('go'),
      first,
      second,
      observation(second),
      agentError(first),
      agentMessage('done'),
    ]);
    expect(shape(items)).toEqual([
      ['user-message', 'MessageEvent'],
      ['tool-call', 'ActionEvent', 'AgentErrorEvent'],
      ['tool-call', 'ActionEvent', 'ObservationEvent'],
      ['agent-message', 'MessageEvent'],
    ]);
    expect(items[1]?.id).toBe(first.id);
    expect(items[3]?.text).toBe('done');
  });

  it('puts every event but state updates in exactly one item; unknown kinds are `other`', () => {
    const unknown = { id: 'u-1', timestamp: '2026-12-01T00:00:00', kind: 'FutureEvent', source: 'agent' };
    const conversationError = {
      id: 'ce-1',
      timestamp: '2026-12-01T00:00:01',
      kind: 'ConversationErrorEvent',
      source: 'environment',
      code: 'X',
      detail: 'boom',
    };
    const events = [
      stateUpdate('execution_status', 'running'),
      unknown,
      conversationError,
    ] as unknown as Event[];
    const items = projectEvents(events);
    expect(shape(items)).toEqual([
      ['other', 'FutureEvent'],
      ['error', 'ConversationErrorEvent'],
    ]);
  });

  it('drops duplicates by id, and identifies events without one by their content', () => {
    const projection = new Projection();
    const message = userMessage('once');
    const anonymous = { timestamp: '2026-12-01T00:00:02', kind: 'FutureEvent', source: 'agent', n: 1 };
    expect(projection.append([message, anonymous as unknown as Event])).toBe(true);
    const before = projection.items;
    expect(projection.append([message, { ...anonymous } as unknown as Event])).toBe(false);
    expect(projection.items).toBe(before);
    expect(projection.prepend([message])).toBe(false);
    expect(projection.items).toHaveLength(2);
  });

  it('replaces only the item that changed', () => {
    const projection = new Projection();
    const call = action();
    projection.append([userMessage('a'), call, agentMessage('b')]);
    const before = projection.items;
    projection.append([observation(call)]);
    const after = projection.items;
    expect(after).not.toBe(before);
    expect(after[0]).toBe(before[0]);
    expect(after[2]).toBe(before[2]);
    expect(after[1]).not.toBe(before[1]);
    expect(Object.isFrozen(after[1])).toBe(true);
    expect(before[1]?.events).toHaveLength(1);
  });
});
