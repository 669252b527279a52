// Agent server, events and streaming: start a conversation, follow it live over the websocket while the
// agent works, then page through its history.
//
//   node examples/agent-server-events.mjs
//
// Environment (all or none; none = a simulated platform on loopback):
//   AGENT_SERVER_URL   base URL of the agent server, e.g. https://agent.example.com
//   SESSION_API_KEY    its X-Session-API-Key
// Optional against a real platform:
//   CONVERSATION_ID    follow this conversation instead of the newest one (read-only) or a new one
//   LLM_MODEL, LLM_API_KEY, LLM_BASE_URL   the agent's LLM for a new conversation (EXAMPLES_WRITE=1)
//   EXAMPLES_WRITE=1   start a conversation and send it a message (the agent runs: LLM cost)
import {
  ConversationsClient,
  EventsClient,
  isConversationStateUpdateEvent,
  isTerminalExecutionStatus,
  renderEvent,
} from 'agent-platform-sdk';
import { connect, skipped, step } from './_platform.mjs';

const platform = await connect(['AGENT_SERVER_URL', 'SESSION_API_KEY']);
try {
  const { env } = platform;
  const options = { baseUrl: env.AGENT_SERVER_URL, sessionApiKey: env.SESSION_API_KEY };
  const conversations = new ConversationsClient(options);
  const events = new EventsClient(options);

  let id = env.CONVERSATION_ID;
  if (!id && platform.writes) {
    const llm = {
      model: env.LLM_MODEL ?? 'claude-sonnet-4-5',
      api_key: env.LLM_API_KEY,
      base_url: env.LLM_BASE_URL,
    };
    ({ id } = await conversations.create({
      agent: { llm },
      workspace: { working_dir: 'workspace/project' },
    }));
    step(`Started conversation ${id}`);
  } else if (!id) {
    for await (const conversation of conversations.search({ sortOrder: 'UPDATED_AT_DESC', limit: 1 })) {
      id = conversation.id;
      break;
    }
    if (!id) throw new Error('no conversation on this agent server: set CONVERSATION_ID or EXAMPLES_WRITE=1');
    step(`Newest conversation: ${id}`);
  }

  const render = (event) =>
    console.log(`  ${renderEvent(event, { timestamp: false, maxTextLength: 120 }).split('\n')[0]}`);
  if (platform.writes) {
    step('Subscribe, send a message, render the typed events as they arrive');
    const live = events.subscribe(id);
    // Start the loop first: a `for await` receives the events from its first step on.
    const turn = (async () => {
      for await (const event of live) {
        render(event);
        const ended =
          isConversationStateUpdateEvent(event) &&
          event.key === 'execution_status' &&
          isTerminalExecutionStatus(event.value);
        if (ended) break; // leaving the loop closes the socket
      }
    })();
    const state = await live.ready; // the server's full_state snapshot
    console.log(`  live; the conversation is ${state.execution_status}`);
    await events.send(id, { content: 'Run `ls` and tell me what you see', run: true });
    await turn;
  } else {
    step('Subscribe with the history first, render until caught up');
    const live = events.subscribe(id, { history: true });
    live.on('event', render);
    await new Promise((resolve, reject) => {
      live.on('open', resolve); // `open`: caught up, events from here on are live
      live.on('error', reject);
    });
    live.close();
    skipped('sending a message (the agent would run)');
  }

  step('Page through the history, 5 events per page');
  let pages = 0;
  for await (const page of events.pages(id, { limit: 5 })) {
    pages += 1;
    console.log(`  page ${pages}: ${page.items.map((event) => event.kind).join(', ')}`);
  }
  const actions = await events.count(id, { kind: 'ActionEvent' });
  console.log(`  ${await events.count(id)} events, ${actions} actions`);
} finally {
  await platform.close();
}
