// The demo of `npm run demo` and `agent-platform demo`: the SDK walked through as a user would, against a
// simulated platform on loopback. Prints progress, never a credential (they show as "set, not shown").
import { ConversationsClient } from '../agent-server/conversations-client.js';
import { EventsClient } from '../agent-server/events-client.js';
import { GatewayAdminClient } from '../gateway/admin-client.js';
import { gatewayModelEntry } from '../gateway/model-entry.js';
import { profileExtraHeaders } from '../gateway/profile-headers.js';
import { type Event, isConversationStateUpdateEvent, renderEvent } from '../models/index.js';
import { PlatformClient } from '../platform/platform-client.js';
import { RuntimeAdminClient } from '../runtime/client.js';
import { type LoopbackSimulatorOptions, type SimulatorInfo, startSimulator } from '../testing/simulator.js';
import { resolveTraceExport } from '../tracing/resolve-export.js';

// `agent-platform simulate` loads the simulator from here: this module is the part of the CLI that needs the
// optional peer dependencies msw and ws, loaded only when a command runs.
export { startSimulator } from '../testing/simulator.js';

export interface DemoOptions {
  /** Where progress lines go. Default: stdout. */
  out?: (line: string) => void;
  /** Options of the simulator it starts (loopback). Default: random ports and credentials. */
  simulator?: Omit<LoopbackSimulatorOptions, 'mode'>;
  /** Gives up after this many milliseconds. Default 50 000 (the demo takes about two seconds). */
  timeoutMs?: number;
}

const STEPS = 7;
const TERMINAL = new Set(['finished', 'error', 'stuck']);
const POOL_IMAGE = 'ghcr.io/acme/demo-agent:1.0';

/** Runs the demo; resolves with the exit code (0 when every step worked). */
export async function runDemo(options: DemoOptions = {}): Promise<number> {
  const out = options.out ?? ((line: string) => void process.stdout.write(`${line}\n`));
  const started = performance.now();
  const signal = AbortSignal.timeout(options.timeoutMs ?? 50_000);
  let step = 0;
  const next = (title: string) => out(`\n▸ ${++step}/${STEPS} ${title}`);

  out('agent-platform demo: the SDK against a simulated platform on this machine');
  next('Starting the simulator: real HTTP and websocket servers on loopback');
  // The scripted agent takes 100 ms per step, so its events are seen arriving one by one.
  const sim = await startSimulator({ stepDelayMs: 100, ...options.simulator, mode: 'loopback' });
  try {
    showAddresses(sim.info, out);
    const context: DemoContext = { info: sim.info, out, signal };
    next('Agent server: start a conversation, subscribe, send a message, watch the agent live');
    const conversationId = await liveConversation(context);
    next('History: page through the persisted events');
    await history(context, conversationId);
    next('Runtime API: admin login, template and save a warm pool, the effective set');
    await warmPools(context);
    next('Gateway: add a model that chains to the external gateway, list the models');
    await gateway(context);
    next('Platform: an LLM profile with attribution headers, tags on the conversation');
    await platform(context, conversationId);
    next("Tracing: resolve the runtime pod's trace-export environment");
    tracing(context);
  } catch (error) {
    out(`\n✘ demo failed at step ${step}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await sim.close();
  }
  out(`\n✔ demo finished in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return 0;
}

interface DemoContext {
  info: SimulatorInfo;
  out: (line: string) => void;
  signal: AbortSignal;
}

function showAddresses(info: SimulatorInfo, out: (line: string) => void): void {
  const rows: [string, string, string][] = [
    [
      'agent server',
      info.agentServer.url,
      `version ${info.agentServer.version}; session key: set, not shown`,
    ],
    ['runtime API', info.runtimeApi.url, 'admin password and API key: set, not shown'],
    ['gateway', info.gateway.url, 'master key: set, not shown'],
    ['external gateway', info.externalGateway.url, 'key: set, not shown'],
    ['platform app', info.app.url, 'session key: set, not shown'],
  ];
  for (const [name, url, note] of rows) out(`  ${name.padEnd(17)}${url.padEnd(25)} ${note}`);
}

async function liveConversation({ info, out, signal }: DemoContext): Promise<string> {
  const options = { baseUrl: info.agentServer.url, sessionApiKey: info.agentServer.sessionApiKey };
  const conversations = new ConversationsClient(options);
  const events = new EventsClient(options);
  const conversation = await conversations.create(
    {
      agent: { llm: { model: 'claude-sonnet-4-5' } },
      workspace: { working_dir: 'workspace/project' },
    },
    { signal },
  );
  out(`  started conversation ${conversation.id} (status ${conversation.execution_status})`);

  const live = events.subscribe(conversation.id, { signal });
  live.on('open', ({ auth, serverVersion }) =>
    out(`  subscribed: socket live (auth ${auth}, agent server ${serverVersion})`),
  );
  // The loop starts before the message is sent: a `for await` receives the events from its first step on.
  const turn = (async () => {
    let count = 0;
    for await (const event of live) {
      count += 1;
      const [first, ...more] = renderEvent(event, { timestamp: false, maxTextLength: 100 })
        .trimEnd()
        .split('\n');
      out(`  │ ${first}`);
      for (const line of more) out(`  │     ${line}`);
      if (isTurnEnd(event)) break; // leaving the loop closes the socket
    }
    return count;
  })();
  await live.ready;
  const text = 'Run `ls` in the project';
  out(`  sending "${text}" (run: true); the typed events as they arrive:`);
  await events.send(conversation.id, { content: text, run: true }, { signal });
  const count = await turn;
  out(`  the turn ended: ${count} events live, status ${live.state?.execution_status ?? 'finished'}`);
  return conversation.id;
}

function isTurnEnd(event: Event): boolean {
  return (
    isConversationStateUpdateEvent(event) &&
    event.key === 'execution_status' &&
    TERMINAL.has(String(event.value))
  );
}

async function history({ info, out, signal }: DemoContext, conversationId: string): Promise<void> {
  const events = new EventsClient({
    baseUrl: info.agentServer.url,
    sessionApiKey: info.agentServer.sessionApiKey,
  });
  let number = 0;
  for await (const page of events.pages(conversationId, { limit: 3 }, { signal })) {
    number += 1;
    const next = page.nextPageId ? `next_page_id ${page.nextPageId}` : 'the last page';
    out(`  page ${number}: ${page.items.map((event) => event.kind).join(', ')} (${next})`);
  }
  const actions = await events.count(conversationId, { kind: 'ActionEvent' }, { signal });
  out(`  ${await events.count(conversationId, {}, { signal })} events in all, ${actions} of them actions`);
}

async function warmPools({ info, out, signal }: DemoContext): Promise<void> {
  const runtime = new RuntimeAdminClient({
    baseUrl: info.runtimeApi.url,
    adminPassword: info.runtimeApi.adminPassword,
    env: false,
  });
  await runtime.login({ signal });
  out('  logged in: PBKDF2 challenge-response; the admin JWT is kept by the client, not shown');
  const body = await runtime.template('v1_current', { image: POOL_IMAGE, count: 2 }, { signal });
  out(
    `  template from v1_current: image ${body.image}, count ${body.count}, command ${body.command.join(' ')}`,
  );
  const saved = await runtime.saveWarmRuntimeConfig('demo-pool', body, { signal });
  out(`  saved ${saved.name}`);
  out('  the effective set (GET /api/warm-runtime-configs with the API key):');
  for (const config of await runtime.listWarmRuntimeConfigs({ signal })) {
    out(
      `    ${config.name.padEnd(12)} source ${String(config.source).padEnd(5)} ${config.image} count ${config.count ?? 'default'}`,
    );
  }
}

async function gateway({ info, out, signal }: DemoContext): Promise<void> {
  const admin = new GatewayAdminClient({ baseUrl: info.gateway.url, masterKey: info.gateway.masterKey });
  const entry = gatewayModelEntry({
    modelName: 'claude-sonnet-4-5',
    upstreamModel: info.externalGateway.models[0]!,
    gatewayKind: info.externalGateway.kind,
    apiBase: info.externalGateway.url,
    apiKey: { env: info.externalGateway.apiKeyEnv },
  });
  const params = entry.gateway_params;
  out(`  entry ${entry.model_name}: ${params.model} at ${params.api_base}, key ${params.api_key}`);
  await admin.addModel(entry, { signal });
  const models = await admin.listModels({ signal });
  out(`  models: ${models.map((model) => model.id).join(', ')}`);
  const probe = await admin.probeModel('claude-sonnet-4-5', { signal });
  out(`  probe through both gateways: answered by ${probe.model ?? 'the external gateway'}`);
}

async function platform({ info, out, signal }: DemoContext, conversationId: string): Promise<void> {
  const client = new PlatformClient({ baseUrl: info.app.url, sessionApiKey: info.app.sessionApiKey });
  const { extra_headers } = profileExtraHeaders({
    headers: { 'X-Team-Id': 'platform' },
    spendLogsMetadata: { user: 'demo-user', project: 'sdk-demo' },
  });
  await client.saveLlmProfile(
    'demo-team',
    { llm: { model: 'claude-sonnet-4-5', base_url: `${info.gateway.url}/v1`, extra_headers } },
    { signal },
  );
  const profile = await client.getLlmProfile('demo-team', { signal });
  out(
    `  saved profile demo-team; read back with headers ${Object.keys(profile.config.extra_headers ?? {}).join(', ')}`,
  );

  let conversation: { conversation_url?: string | null; session_api_key?: string | null } | undefined;
  for await (const item of client.listConversations({}, { signal })) {
    if (item.id === conversationId) conversation = item;
  }
  if (!conversation?.conversation_url || !conversation.session_api_key) {
    throw new Error(`the platform does not list conversation ${conversationId}`);
  }
  const call = { sessionApiKey: conversation.session_api_key, signal };
  await client.updateConversationTags(
    conversation.conversation_url,
    { team: 'platform', project: 'sdkdemo' },
    call,
  );
  const tags = await client.getConversationTags(conversation.conversation_url, call);
  out(`  tagged the conversation at its URL (its own key, not shown): ${JSON.stringify(tags)}`);
}

function tracing({ info, out }: DemoContext): void {
  const config = resolveTraceExport(info.tracing.env);
  out(`  destination ${config.destination}, protocol ${config.protocol}, endpoint ${config.endpoint}`);
  // config.headers holds the values in clear (to configure an exporter); print the names only.
  out(`  headers: ${Object.keys(config.headers).join(', ')} (values: set, not shown)`);
  for (const warning of config.warnings) out(`  warning: ${warning}`);
}
