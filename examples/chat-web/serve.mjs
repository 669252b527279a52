// The chat page (React) against the simulator, or a real agent server: `npm run example:chat`.
//
//   npm run example:chat            # then open the printed URL; Ctrl-C stops
//   node examples/chat-web/serve.mjs [--port 4173]
//
// Environment (all or none; none = a simulated platform on loopback, see examples/README.md):
//   AGENT_SERVER_URL   base URL of the agent server (it must allow the page's origin: the real server allows
//                      loopback origins by default, docs/runtimes.md)
//   SESSION_API_KEY    its X-Session-API-Key (written into the page: keep the page on loopback)
// Optional against a real platform:
//   CONVERSATION_ID    the conversation to show (default: the newest one)
//
// Against the simulator it starts a conversation and runs three turns of the scripted agent first, so that
// "Load older" has something to load (the page shows 20 events per page).
import { ConversationsClient } from 'agent-platform-sdk';
import { connect, step } from '../_platform.mjs';
import { serveChatPage } from './page-server.mjs';

const portArgument = process.argv.indexOf('--port');
const port = portArgument > 0 ? Number(process.argv[portArgument + 1]) : Number(process.env.PORT ?? 4173);

const platform = await connect(['AGENT_SERVER_URL', 'SESSION_API_KEY']);
const { env } = platform;
const options = { baseUrl: env.AGENT_SERVER_URL, sessionApiKey: env.SESSION_API_KEY };
const conversations = new ConversationsClient(options);

let conversationId = env.CONVERSATION_ID;
if (platform.simulated) {
  ({ id: conversationId } = await conversations.create({
    agent: { llm: { model: 'scripted' } },
    workspace: { working_dir: 'workspace/project' },
  }));
  step(`Started conversation ${conversationId}; three turns of the scripted agent`);
  const { AgentServerClient } = await import('agent-platform-sdk');
  const conversation = new AgentServerClient(options).conversation(conversationId);
  const view = conversation.view();
  try {
    await view.ready;
    for (const text of ['Run `ls`', 'Run `pwd`', 'Run `ls -la`']) {
      await view.send(text);
      await view.whenIdle({ signal: AbortSignal.timeout(30_000) });
    }
  } finally {
    view.close();
  }
} else if (!conversationId) {
  for await (const conversation of conversations.search({ sortOrder: 'UPDATED_AT_DESC', limit: 1 })) {
    conversationId = conversation.id;
    break;
  }
  if (!conversationId) throw new Error('no conversation on this agent server: set CONVERSATION_ID');
}

const page = await serveChatPage({
  config: {
    agentServerUrl: env.AGENT_SERVER_URL,
    sessionApiKey: env.SESSION_API_KEY,
    conversationId,
    pageSize: 20,
  },
  port,
});
step(`The chat page: ${page.url}  (Ctrl-C stops)`);

await new Promise((resolve) => process.once('SIGINT', resolve));
await page.close();
await platform.close();
