// The server side of bench/view.ts, in a worker thread (so that its work is not the client's): the simulator's
// agent server (1.58.0: `/sockets/session`) on loopback, with conversations of the sizes asked for, each the
// scripted agent's runs (a user message, tool calls with their observations, an agent message, state updates).
// On `{publish: {id, count}}` it persists `count` agent messages to that conversation (each goes to its sockets as
// it is stored) and answers `{published: count}`.
import { parentPort, workerData } from 'node:worker_threads';

const hooks = './_ts-sources.ts';
await import(hooks);
const data = workerData as { sdk: string; sizes: number[] };
const { serveAgentServer } = (await import(
  `${data.sdk}/testing/agent-server/loopback.js`
)) as typeof import('../src/testing/agent-server/loopback.js');
const { ScriptedAgent } = (await import(
  `${data.sdk}/testing/agent-server/scripted-agent.js`
)) as typeof import('../src/testing/agent-server/scripted-agent.js');

const server = await serveAgentServer({ version: '1.58.0' });
const { store } = server;
const conversations: { id: string; events: number; jsonBytes: number }[] = [];
for (const [index, size] of data.sizes.entries()) {
  const id = store.addConversation().id;
  const agent = new ScriptedAgent({ seed: index + 1 });
  let jsonBytes = 0;
  let count = 0;
  for (let run = 0; count < size; run++) {
    for (const event of [agent.userMessage(`task ${run}`), ...agent.respond(`echo ${run}`)]) {
      if (count === size) break;
      // The store's timestamps: strictly increasing, as a real server's are in practice.
      const stored = { ...event, timestamp: store.timestamp() };
      store.appendEvent(id, stored);
      jsonBytes += JSON.stringify(stored).length;
      count++;
    }
  }
  conversations.push({ id, events: count, jsonBytes });
}
parentPort?.postMessage({ url: server.url, conversations });
parentPort?.on('message', (message: { publish?: { id: string; count: number } }) => {
  if (!message.publish) return;
  const { id, count } = message.publish;
  for (let i = 0; i < count; i++) store.publish(id, store.message(`live ${i}`, 'agent'));
  parentPort?.postMessage({ published: count });
});
