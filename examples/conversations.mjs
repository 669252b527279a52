// Agent server, conversations: start one, title it, run the agent and wait for it, find it in the search,
// pause and delete it.
//
//   node examples/conversations.mjs
//
// Environment (all or none; none = a simulated platform on loopback):
//   AGENT_SERVER_URL   base URL of the agent server
//   SESSION_API_KEY    its X-Session-API-Key
// Optional against a real platform:
//   LLM_MODEL, LLM_API_KEY, LLM_BASE_URL   the agent's LLM
//   EXAMPLES_WRITE=1   start, run, pause and delete a conversation (LLM cost); without it: search and count
import { ConversationsClient, EventsClient, isConflictError } from 'agent-platform-sdk';
import { connect, skipped, step } from './_platform.mjs';

const platform = await connect(['AGENT_SERVER_URL', 'SESSION_API_KEY']);
try {
  const { env } = platform;
  const options = { baseUrl: env.AGENT_SERVER_URL, sessionApiKey: env.SESSION_API_KEY };
  const conversations = new ConversationsClient(options);
  const events = new EventsClient(options);

  step('Search: the five most recently updated conversations');
  // The iterator fetches pages lazily: leaving the loop after five items sends no further request.
  let shown = 0;
  for await (const conversation of conversations.search({ sortOrder: 'UPDATED_AT_DESC', limit: 5 })) {
    console.log(
      `  ${conversation.id} ${conversation.execution_status} ${conversation.title ?? '(untitled)'}`,
    );
    if (++shown === 5) break;
  }
  if (shown === 0) console.log('  (none yet)');
  console.log(
    `  ${await conversations.count()} conversations, ${await conversations.count({ status: 'running' })} running`,
  );

  if (!platform.writes) {
    skipped('start, run, pause and delete a conversation');
  } else {
    step('Start a conversation with a first message, and title it');
    const llm = {
      model: env.LLM_MODEL ?? 'claude-sonnet-4-5',
      api_key: env.LLM_API_KEY,
      base_url: env.LLM_BASE_URL,
    };
    const { id } = await conversations.create({
      agent: { llm },
      workspace: { working_dir: 'workspace/project' },
      initial_message: 'Run `pwd`',
    });
    await conversations.setTitle(id, 'SDK example');
    const info = await conversations.get(id);
    console.log(`  ${info.id} "${info.title}" ${info.execution_status}`);

    // The server runs an initial message right away (whatever its `run` says): a run() now is a 409 while
    // that run lasts.
    step('The first message runs; wait until it is done');
    const again = await conversations.run(id).catch((error) => error);
    console.log(
      `  a second run while it runs: ${isConflictError(again) ? 'ConflictError (409)' : 'accepted'}`,
    );
    const status = await conversations.waitUntil(id, ['finished', 'error', 'stuck'], { timeout: 120_000 });
    console.log(`  status ${status}; ${await events.count(id)} events`);

    step('Pause and delete it');
    await conversations.pause(id);
    console.log(`  paused: ${(await conversations.get(id)).execution_status}`);
    await conversations.delete(id);
    const gone = await conversations.get(id).catch((error) => error);
    console.log(`  deleted: get → ${gone.constructor.name} ${gone.status}`);
  }
} finally {
  await platform.close();
}
