import { describe, expect, it } from 'vitest';
import { ScriptedAgent } from '../../src/testing.js';

const fixedClock = () => new Date('2026-02-05T11:24:45.000Z');

describe('ScriptedAgent', () => {
  it('answers with a realistic turn: running, terminal action/observation, message, finish, finished', () => {
    const events = new ScriptedAgent({ now: fixedClock }).respond('Run `pwd` please');
    expect(
      events.map((e) =>
        e.kind === 'ActionEvent' ? `Action:${(e.action as { kind: string }).kind}` : e.kind,
      ),
    ).toEqual([
      'ConversationStateUpdateEvent',
      'Action:TerminalAction',
      'ObservationEvent',
      'MessageEvent',
      'Action:FinishAction',
      'ObservationEvent',
      'ConversationStateUpdateEvent',
    ]);
    const [running, action, observation, , , , finished] = events;
    expect(running).toMatchObject({ key: 'execution_status', value: 'running' });
    expect(finished).toMatchObject({ key: 'execution_status', value: 'finished' });
    expect(action).toMatchObject({ tool_name: 'terminal', action: { command: 'pwd' } });
    expect(observation).toMatchObject({ action_id: action!.id, tool_call_id: action!.tool_call_id });
    expect((observation!.observation as { content: { text: string }[] }).content[0]!.text).toBe(
      '/workspace/project\n',
    );
    expect(JSON.parse((action!.tool_call as { arguments: string }).arguments)).toMatchObject({
      command: 'pwd',
    });
  });

  it('is deterministic for a seed and gives unique ids', () => {
    const a = new ScriptedAgent({ now: fixedClock, seed: 7 }).respond('hello');
    const b = new ScriptedAgent({ now: fixedClock, seed: 7 }).respond('hello');
    expect(a).toEqual(b);
    expect(new Set(a.map((e) => e.id)).size).toBe(a.length);
    expect(a[1]).toMatchObject({ action: { command: 'echo "hello"' } });
  });

  it('stores the user message in the server shape', () => {
    const message = new ScriptedAgent({ now: fixedClock }).userMessage('hi');
    expect(message).toMatchObject({
      kind: 'MessageEvent',
      source: 'user',
      timestamp: '2026-02-05T11:24:45.000',
      llm_message: { role: 'user', content: [{ type: 'text', text: 'hi' }] },
    });
  });
});
