// The interrupt double records what the real 1.58.2 server records (test/fixtures/real/1.58.2/interrupt.json):
// an InterruptEvent from the user, then the run is `paused`.
import { describe, expect, it } from 'vitest';
import { AgentServerClient } from '../../src/index.js';
import { AgentServerStore, agentServerApiHandlers, agentServerHandlers } from '../../src/testing.js';
import { useMswServer } from '../helpers/msw.js';

const BASE = 'http://interrupt-double.test';
const store = new AgentServerStore();
useMswServer(
  ...agentServerApiHandlers({ baseUrl: BASE, store }),
  ...agentServerHandlers({ baseUrl: BASE, store }),
);
const client = new AgentServerClient({ baseUrl: BASE, logLevel: 'off', maxRetries: 0 });

describe('interrupt on the doubles', () => {
  it('records an InterruptEvent and pauses a running conversation', async () => {
    const { id } = store.addConversation(undefined, { execution_status: 'running' });
    await client.conversation(id).interrupt();
    const kinds = store.getConversation(id)?.events.map((event) => event.kind);
    expect(kinds?.[0]).toBe('InterruptEvent');
    expect((await client.conversations.get(id)).execution_status).toBe('paused');
  });

  it('leaves an idle conversation as it is', async () => {
    const { id } = store.addConversation(undefined, { execution_status: 'idle' });
    await client.conversation(id).interrupt();
    expect(store.getConversation(id)?.events).toEqual([]);
  });
});
