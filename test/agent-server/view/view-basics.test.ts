import { describe, expect, it } from 'vitest';
import { AgentServerClient } from '../../../src/agent-server/index.js';
import { ScriptedAgent } from '../../../src/testing.js';
// Not a React hook: biome's hook rule goes by the `use` prefix.
import { useMswServer as withMswServer } from '../../helpers/msw.js';
import { simulatedServer, until } from '../simulated.js';

const KEY = 'view-session-key-0001';
const sim = simulatedServer('view-basics.test', { version: '1.58.0', sessionApiKey: KEY });
withMswServer(...sim.handlers);

function client() {
  return new AgentServerClient({
    baseUrl: sim.baseUrl,
    sessionApiKey: KEY,
    logLevel: 'off',
    maxRetryDelay: 10,
  });
}

describe('ConversationView basics', () => {
  it('opens the newest page, follows a run live and pairs tool calls', async () => {
    const id = crypto.randomUUID();
    sim.store.addConversation(id);
    const agent = new ScriptedAgent({ seed: 77 });
    // Distinct timestamps (the scripted agent's are in milliseconds): "newest first" has one answer.
    for (const event of [agent.userMessage('echo hi'), ...agent.respond('echo hi')]) {
      sim.store.appendEvent(id, { ...event, timestamp: sim.store.timestamp() });
    }
    const view = client().conversation(id).view({ pageSize: 5 });
    await view.ready;
    const first = view.getSnapshot();
    expect(first.ready).toBe(true);
    expect(first.connection).toBe('live');
    expect(first.items.map((i) => i.type)).toEqual(['tool-call', 'agent-message', 'tool-call']);
    expect(first.hasOlder).toBe(true);
    expect(await view.loadOlder()).toBe(false);
    const all = view.getSnapshot();
    expect(all.items.map((i) => i.type)).toEqual(['user-message', 'tool-call', 'agent-message', 'tool-call']);
    expect(all.items[1]?.events.map((e) => e.kind)).toEqual(['ActionEvent', 'ObservationEvent']);
    expect(all.items[2]).toBe(first.items[1]);
    await view.send('echo again');
    await until(() => view.getSnapshot().items.length >= 8, 'the second run');
    const idle = await view.whenIdle();
    expect(idle.status).toBe('finished');
    expect(idle.items.some((i) => i.pending)).toBe(false);
    view.close();
    expect(view.getSnapshot().connection).toBe('closed');
  });
});
