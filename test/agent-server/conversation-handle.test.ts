// The conversation handle on the simulated agent server (REST and event socket doubles plus the API doubles):
// ask() sends, follows this run to its end and reads the final answer; twice in a row on one conversation.
import { describe, expect, it, vi } from 'vitest';
import { AgentServerClient, isRequestValidationError, isWaitTimeoutError } from '../../src/index.js';
import { agentServerApiHandlers } from '../../src/testing.js';
import { useMswServer } from '../helpers/msw.js';
import { simulatedServer } from './simulated.js';

const KEY = 'handle-key-42';
const sim = simulatedServer('handle.test', { version: '1.58.0', sessionApiKey: KEY });
useMswServer(
  ...agentServerApiHandlers({ baseUrl: sim.baseUrl, sessionApiKey: KEY, store: sim.store }),
  ...sim.handlers,
);
const client = new AgentServerClient({ baseUrl: sim.baseUrl, sessionApiKey: KEY, logLevel: 'off' });

function lastAgentText(conversationId: string): string {
  const events = sim.store.getConversation(conversationId)?.events ?? [];
  for (const event of [...events].reverse()) {
    const action = event.action as { kind?: string; message?: string } | undefined;
    if (action?.kind === 'FinishAction') return action.message ?? '';
    if (event.kind === 'MessageEvent' && event.source === 'agent') {
      const content = (event.llm_message as { content: { type: string; text?: string }[] }).content;
      return content.map((part) => part.text ?? '').join('');
    }
  }
  return '';
}

describe('client.conversation(id)', () => {
  it('ask() resolves with this run’s status and the final answer, twice in a row', async () => {
    const id = sim.store.addConversation().id;
    const conversation = client.conversation(id);
    const first = await conversation.ask('Run `pwd` please', { timeout: 10_000 });
    expect(first.status).toBe('finished');
    expect(first.response).toBe(lastAgentText(id));
    expect(first.response).not.toBe('');
    const eventsAfterFirst = sim.store.getConversation(id)?.events.length ?? 0;
    const second = await conversation.ask({ content: 'And again' }, { timeout: 10_000 });
    expect(second.status).toBe('finished');
    // The second answer comes after the second run's events, not from the first run.
    expect(sim.store.getConversation(id)?.events.length ?? 0).toBeGreaterThan(eventsAfterFirst);
    expect(second.response).toBe(lastAgentText(id));
  });

  it('ask() leaves no timer behind once it resolved (a pending timeout would keep Node running)', async () => {
    const id = sim.store.addConversation().id;
    const TIMEOUT = 987_654;
    const set = vi.spyOn(globalThis, 'setTimeout');
    const cleared = vi.spyOn(globalThis, 'clearTimeout');
    try {
      await client.conversation(id).ask('Run `pwd` please', { timeout: TIMEOUT });
      const timers = set.mock.results.filter((_, call) => set.mock.calls[call]?.[1] === TIMEOUT);
      expect(timers).toHaveLength(1);
      expect(cleared.mock.calls.map(([handle]) => handle)).toContain(timers[0]?.value);
    } finally {
      set.mockRestore();
      cleared.mockRestore();
    }
  });

  it('ask() rejects with WaitTimeoutError when the run does not end in time', async () => {
    const id = sim.store.addConversation().id;
    const slow = new AgentServerClient({ baseUrl: sim.baseUrl, sessionApiKey: KEY, logLevel: 'off' });
    await expect(slow.conversation(id).ask('go', { timeout: 1 })).rejects.toSatisfy(isWaitTimeoutError);
  });

  it('the handle validates its id; fork gives a handle on the copy', async () => {
    expect(() => client.conversation('nope')).toThrow();
    try {
      client.conversation('nope');
    } catch (error) {
      expect(isRequestValidationError(error)).toBe(true);
    }
    const id = sim.store.addConversation().id;
    const fork = await client.conversation(id).fork({ title: 'copy' });
    expect((await fork.info()).title).toBe('copy');
    expect(JSON.stringify(fork)).toBe(JSON.stringify({ conversation: fork.id }));
  });
});
