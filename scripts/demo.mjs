// `npm run demo`: starts a local mock agent server on loopback and fetches one typed event from it with
// the SDK, exactly as an app would against a real agent server.
import { EventsClient, isNotFoundError } from 'agent-platform-sdk';
import { AgentServerStore, agentServerHandlers, serveHandlers } from 'agent-platform-sdk/testing';

const conversationId = crypto.randomUUID();
const sessionApiKey = `demo-${crypto.randomUUID()}`;
const store = new AgentServerStore();
store.appendEvent(conversationId, {
  id: crypto.randomUUID(),
  timestamp: new Date().toISOString().replace('Z', ''),
  source: 'user',
  kind: 'MessageEvent',
  llm_message: { role: 'user', content: [{ type: 'text', text: 'Hello from the demo!' }] },
});

const step = (text) => console.log(`\n▸ ${text}`);
step('Starting the local mock agent server');
const agentServer = await serveHandlers(agentServerHandlers({ sessionApiKey, store }));
console.log(`  agent server: ${agentServer.url} (session key: set, not shown)`);

try {
  const events = new EventsClient({ baseUrl: agentServer.url, sessionApiKey });
  const [stored] = store.getConversation(conversationId).events;

  step(`GET /api/conversations/${conversationId}/events/${stored.id}`);
  const event = await events.get(conversationId, stored.id);
  console.log(`  ${event.kind} from ${event.source} at ${event.timestamp}`);
  console.log(`  ${JSON.stringify(event)}`);

  step('An unknown event id is a typed NotFoundError');
  const error = await events.get(conversationId, 'no-such-event').catch((e) => e);
  console.log(`  isNotFoundError: ${isNotFoundError(error)} (${error.message})`);
} finally {
  await agentServer.close();
}
console.log('\n✔ demo finished');
