// Platform application: an LLM profile whose extra headers attribute spend on the external gateway
// (recipes 2 and 4), and tags on a conversation (spec 2.8), set at the conversation's own URL.
//
//   node examples/platform.mjs
//
// Environment (APP_URL and APP_SESSION_API_KEY, or neither = a simulated platform on loopback):
//   APP_URL              the platform application, e.g. https://app.example.com
//   APP_SESSION_API_KEY  its X-Session-API-Key
//   GATEWAY_URL          optional: the built-in gateway, for the profile's base_url
//   EXAMPLES_WRITE=1     save the profile `sdk-example` and add, then remove, the tag `sdkexample` on the
//                        newest conversation
import { ConversationsClient, PlatformClient, profileExtraHeaders } from 'agent-platform-sdk';
import { connect, skipped, step } from './_platform.mjs';

const platform = await connect(['APP_URL', 'APP_SESSION_API_KEY']);
try {
  const { env } = platform;
  const app = new PlatformClient({ baseUrl: env.APP_URL, sessionApiKey: env.APP_SESSION_API_KEY });
  if (platform.simulated) {
    // A conversation for the app to list: the simulated app lists what its agent server has.
    const agent = new ConversationsClient({
      baseUrl: env.AGENT_SERVER_URL,
      sessionApiKey: env.SESSION_API_KEY,
    });
    await agent.create({
      agent: { llm: { model: 'claude-sonnet-4-5' } },
      workspace: { working_dir: 'workspace/project' },
    });
  }

  step('Attribution headers for a profile (forwarded by the gateway when header forwarding is on)');
  const { extra_headers, notes } = profileExtraHeaders({
    headers: { 'X-Team-Id': 'platform' },
    spendLogsMetadata: { user: 'sdk-example', project: 'examples' },
  });
  console.log(`  ${JSON.stringify(extra_headers)}`);
  for (const note of notes) console.log(`  note (${note.code}): ${note.message}`);

  if (platform.writes) {
    step('Save the profile sdk-example and read it back');
    const gatewayUrl = env.GATEWAY_URL ?? 'http://localhost:4000';
    await app.saveLlmProfile('sdk-example', {
      preserve_existing_api_key: true,
      llm: { model: 'claude-sonnet-4-5', base_url: `${gatewayUrl}/v1`, extra_headers },
    });
    const profile = await app.getLlmProfile('sdk-example');
    console.log(
      `  ${profile.name}: model ${profile.config.model}, headers ${Object.keys(profile.config.extra_headers ?? {}).join(', ')}`,
    );
  } else {
    skipped('saving the profile sdk-example');
  }

  step('Conversations the app lists, with their tags');
  const listed = [];
  for await (const conversation of app.listConversations({ pageSize: 20 })) {
    listed.push(conversation);
    if (listed.length === 20) break;
  }
  listed.sort((a, b) => (a.updated_at < b.updated_at ? 1 : -1));
  for (const c of listed.slice(0, 5))
    console.log(`  ${c.id} ${c.llm_model ?? '-'} tags ${JSON.stringify(c.tags)}`);
  const newest = listed[0];

  if (!newest?.conversation_url || !newest.session_api_key) {
    console.log('  no conversation to tag');
  } else if (platform.writes) {
    step(`Tag the newest conversation at its own URL, with its own key; then remove the tag`);
    const call = { sessionApiKey: newest.session_api_key };
    // Tags replace the whole map on the server: merge keeps the other tags.
    const tagged = await app.mergeConversationTags(newest.conversation_url, { sdkexample: 'yes' }, call);
    console.log(`  tags now ${JSON.stringify(tagged)}`);
    const restored = await app.mergeConversationTags(newest.conversation_url, { sdkexample: null }, call);
    console.log(`  tags again ${JSON.stringify(restored)}`);
  } else {
    skipped('tagging the newest conversation');
  }
} finally {
  await platform.close();
}
