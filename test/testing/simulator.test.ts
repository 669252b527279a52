import { get as httpGet } from 'node:http';
import { build } from 'esbuild';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket as WsClient } from 'ws';
import { ConversationsClient, EventsClient } from '../../src/agent-server/index.js';
import { isAuthenticationError } from '../../src/core/errors.js';
import { GatewayAdminClient, gatewayModelEntry, profileExtraHeaders } from '../../src/gateway/index.js';
import { type Event, isConversationStateUpdateEvent } from '../../src/models/index.js';
import { PlatformClient } from '../../src/platform/index.js';
import { isAdminLoginError, RuntimeAdminClient } from '../../src/runtime/index.js';
import {
  type LoopbackSimulator,
  type MswSimulator,
  SIMULATED_SERVICES,
  type Simulator,
  startSimulator,
} from '../../src/testing.js';
import { resolveTraceExport } from '../../src/tracing.js';

const TERMINAL = ['finished', 'error', 'stuck'];

/** Sends a message and collects the live events until the turn ends (the scripted agent finishes). */
async function runTurn(sim: Simulator, conversationId: string, text: string) {
  const { url, sessionApiKey } = sim.info.agentServer;
  const events = new EventsClient({ baseUrl: url, sessionApiKey, logLevel: 'off' });
  const live = events.subscribe(conversationId);
  const seen: Event[] = [];
  // The loop starts before the message is sent: a `for await` buffers only from its first step on.
  const turn = (async () => {
    for await (const event of live) {
      seen.push(event);
      if (
        isConversationStateUpdateEvent(event) &&
        event.key === 'execution_status' &&
        TERMINAL.includes(String(event.value))
      )
        break;
    }
  })();
  await live.ready;
  await events.send(conversationId, { content: text, run: true });
  await turn;
  return { events, seen };
}

/** Everything a user of the SDK does against one platform, checked against the simulator's state. */
function endToEnd(start: () => Promise<Simulator>) {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await start();
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('a conversation runs end to end: start, subscribe, send, live events, history', async () => {
    const { url, sessionApiKey } = sim.info.agentServer;
    const conversations = new ConversationsClient({ baseUrl: url, sessionApiKey, logLevel: 'off' });
    const started = await conversations.create({
      agent: { llm: { model: 'simulated/model', api_key: 'sk-never-echoed' } },
      workspace: { working_dir: 'workspace/project' },
    });
    expect(sim.stores.agentServer.getConversation(started.id)).toBeDefined();

    const { events, seen } = await runTurn(sim, started.id, 'Run `ls`');
    const kinds = seen.map((event) => event.kind);
    expect(kinds[0]).toBe('MessageEvent'); // the user's message comes back over the socket
    expect(kinds).toContain('ActionEvent');
    expect(kinds).toContain('ObservationEvent');
    expect(seen.filter((e) => e.kind === 'MessageEvent' && e.source === 'agent')).toHaveLength(1);
    const last = seen.at(-1) as Event & { value?: unknown };
    expect(last.value).toBe('finished');

    // Every persisted event exactly once, in the order the REST history has them.
    const history: string[] = [];
    for await (const event of events.search(started.id, { limit: 3 })) history.push(String(event.id));
    expect(seen.map((e) => e.id)).toEqual(history);
    expect(await events.count(started.id)).toBe(history.length);
    expect((await conversations.get(started.id)).execution_status).toBe('finished');
  });

  it('refuses a wrong session key like the real server (401)', async () => {
    const events = new EventsClient({
      baseUrl: sim.info.agentServer.url,
      sessionApiKey: 'wrong',
      logLevel: 'off',
      maxRetries: 0,
    });
    const error = await events.count(crypto.randomUUID()).catch((e: unknown) => e);
    expect(isAuthenticationError(error)).toBe(true);
  });

  it('runtime API: PBKDF2 login with the admin password, template, save, the effective set', async () => {
    const { url, adminPassword, apiKey, installerConfigs } = sim.info.runtimeApi;
    expect(installerConfigs).toEqual(['v1_current']);
    const runtime = new RuntimeAdminClient({ baseUrl: url, adminPassword, env: false, logLevel: 'off' });
    const body = await runtime.template('v1_current', { image: 'ghcr.io/acme/sim:1', count: 2 });
    await runtime.saveWarmRuntimeConfig('sim-pool', body);
    const configs = await new RuntimeAdminClient({
      baseUrl: url,
      apiKey,
      env: false,
    }).listWarmRuntimeConfigs();
    expect(configs.map((c) => [c.name, c.source])).toEqual(
      expect.arrayContaining([
        ['v1_current', 'file'],
        ['sim-pool', 'db'],
      ]),
    );
    expect(sim.stores.runtimeApi.db.get('sim-pool')?.image).toBe('ghcr.io/acme/sim:1');

    const wrong = new RuntimeAdminClient({
      baseUrl: url,
      adminPassword: 'nope',
      env: false,
      logLevel: 'off',
    });
    expect(isAdminLoginError(await wrong.login().catch((e: unknown) => e))).toBe(true);
  });

  it('gateway: a model added with gatewayModelEntry is listed and answers through the external gateway', async () => {
    const { gateway, externalGateway } = sim.info;
    const admin = new GatewayAdminClient({
      baseUrl: gateway.url,
      masterKey: gateway.masterKey,
      logLevel: 'off',
    });
    const entry = gatewayModelEntry({
      modelName: 'claude-sonnet-4-5',
      upstreamModel: externalGateway.models[0]!,
      gatewayKind: externalGateway.kind,
      apiBase: externalGateway.url,
      apiKey: { env: externalGateway.apiKeyEnv },
    });
    await admin.addModel(entry);
    const names = (await admin.listModels()).map((model) => model.id);
    expect(names).toEqual([...gateway.configuredModels, 'claude-sonnet-4-5']);

    await admin.probeModel('claude-sonnet-4-5', { headers: { 'x-team-id': 'sim' } });
    const call = sim.stores.upstreamCalls.at(-1);
    expect(call?.body.model).toBe(externalGateway.models[0]);
    expect(call?.headers.authorization).toBe(`Bearer ${externalGateway.apiKey}`);
    expect(call?.headers['x-team-id']).toBe('sim'); // forwarding is on in the proxy configuration
  });

  it('platform: a profile with attribution headers, and tags on the agent-server conversation', async () => {
    const { app, agentServer } = sim.info;
    const platform = new PlatformClient({
      baseUrl: app.url,
      sessionApiKey: app.sessionApiKey,
      logLevel: 'off',
    });
    const { extra_headers } = profileExtraHeaders({
      headers: { 'X-Team-Id': 'alpha' },
      spendLogsMetadata: { user: 'alice', project: 'sim' },
    });
    await platform.saveLlmProfile('alice', {
      llm: { model: 'claude-sonnet-4-5', base_url: `${sim.info.gateway.url}/v1`, extra_headers },
    });
    expect((await platform.getLlmProfile('alice')).config.extra_headers).toEqual(extra_headers);

    const conversations = new ConversationsClient({
      baseUrl: agentServer.url,
      sessionApiKey: agentServer.sessionApiKey,
    });
    const { id } = await conversations.create({
      agent: { llm: { model: 'claude-sonnet-4-5' } },
      workspace: { working_dir: 'workspace/project' },
    });
    const listed = [];
    for await (const conversation of platform.listConversations()) listed.push(conversation);
    const record = listed.find((conversation) => conversation.id === id);
    expect(record?.conversation_url).toBe(`${agentServer.url}/api/conversations/${id}`);
    expect(record?.llm_model).toBe('claude-sonnet-4-5');

    const options = { sessionApiKey: record!.session_api_key! };
    await platform.updateConversationTags(record!.conversation_url!, { team: 'alpha', cost: 'c1' }, options);
    await platform.mergeConversationTags(record!.conversation_url!, { cost: null, project: 'sim' }, options);
    expect(await platform.getConversationTags(record!.conversation_url!, options)).toEqual({
      team: 'alpha',
      project: 'sim',
    });
    // A title still reaches the agent server: the bridge only takes tag updates.
    await conversations.setTitle(id, 'Tagged');
    expect((await conversations.get(id)).title).toBe('Tagged');
    for await (const conversation of platform.listConversations()) {
      if (conversation.id === id) expect(conversation.tags).toEqual({ team: 'alpha', project: 'sim' });
    }
  });

  it('tracing: the simulated pod environment resolves to an OTLP export with a hidden header', () => {
    const config = resolveTraceExport(sim.info.tracing.env);
    expect(config.destination).toBe('otlp');
    expect(config.protocol).toBe('http/protobuf');
    expect(Object.keys(config.headers)).toEqual(['x-api-key']);
    expect(JSON.stringify(config)).not.toContain(config.headers['x-api-key']);
  });

  it('info is plain JSON and env carries the same addresses and credentials', () => {
    expect(JSON.parse(JSON.stringify(sim.info))).toEqual(sim.info);
    expect(sim.env.AGENT_SERVER_URL).toBe(sim.info.agentServer.url);
    expect(sim.env.SESSION_API_KEY).toBe(sim.info.agentServer.sessionApiKey);
    expect(sim.env.ADMIN_PASSWORD).toBe(sim.info.runtimeApi.adminPassword);
    expect(sim.env.MASTER_KEY).toBe(sim.info.gateway.masterKey);
    expect(sim.env.APP_SESSION_API_KEY).toBe(sim.info.app.sessionApiKey);
  });
}

describe('mode msw: in-process, with the msw server it sets up', () => {
  endToEnd(() => startSimulator({ mode: 'msw', onUnhandledRequest: 'error' }));
});

describe('mode loopback: real HTTP and websocket servers', () => {
  endToEnd(() => startSimulator({ mode: 'loopback' }));
});

describe('mode msw with your own msw server (listen: false)', () => {
  let sim: MswSimulator;
  const server = setupServer();
  beforeAll(async () => {
    sim = await startSimulator({ mode: 'msw', listen: false, stepDelayMs: 1 });
    server.use(...sim.handlers.all);
    server.listen({ onUnhandledFrame: 'error' });
  });
  afterAll(async () => {
    server.close();
    await sim?.close();
  });

  it('returns the http and ws handlers and sets up no server itself', async () => {
    expect(sim.server).toBeUndefined();
    expect(sim.handlers.all).toEqual([...sim.handlers.http, ...sim.handlers.ws]);
    expect(sim.handlers.ws.length).toBeGreaterThan(0);
    const { id } = sim.stores.agentServer.addConversation();
    const { seen } = await runTurn(sim, id, 'Run `pwd`');
    expect(seen.some((event) => event.kind === 'ObservationEvent')).toBe(true);
  });
});

describe('loopback specifics', () => {
  let sim: LoopbackSimulator;
  beforeAll(async () => {
    sim = await startSimulator({ stepDelayMs: 1 });
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('serves each service on its own 127.0.0.1 port over plain node:http', async () => {
    const urls = SIMULATED_SERVICES.map((service) => new URL(sim.info[service].url));
    expect(new Set(urls.map((url) => url.port)).size).toBe(SIMULATED_SERVICES.length);
    for (const url of urls) expect(url.hostname).toBe('127.0.0.1');
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      httpGet(`${sim.info.agentServer.url}/server_info`, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      }).on('error', reject);
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).version).toBe(sim.info.agentServer.version);
  });

  it('serves the event socket over a real websocket (ws client, first-message auth)', async () => {
    const { id } = sim.stores.agentServer.addConversation();
    const socketUrl = sim.info.agentServer.socketUrl.replace('{conversation_id}', id);
    expect(socketUrl.startsWith('ws://127.0.0.1:')).toBe(true);
    const client = new WsClient(socketUrl);
    const first = await new Promise<Record<string, unknown>>((resolve, reject) => {
      client.on('open', () =>
        client.send(JSON.stringify({ type: 'auth', session_api_key: sim.info.agentServer.sessionApiKey })),
      );
      client.on('message', (data) => resolve(JSON.parse(String(data))));
      client.on('error', reject);
    });
    expect(first).toMatchObject({ kind: 'ConversationStateUpdateEvent', key: 'full_state' });
    expect(sim.connections()).toBe(1);
    const closed = new Promise((resolve) => client.on('close', resolve));
    client.close();
    await closed;
  });

  it('takes consecutive ports from `port`, and close() frees them', async () => {
    const probe = await startSimulator();
    const base = Number(new URL(probe.info.agentServer.url).port);
    await probe.close();
    const fixed = await startSimulator({ port: base }).catch(() => undefined);
    // Another process may have taken one of the five ports meanwhile; only check when they were free.
    if (fixed) {
      expect(SIMULATED_SERVICES.map((service) => Number(new URL(fixed.info[service].url).port))).toEqual(
        SIMULATED_SERVICES.map((_, index) => base + index),
      );
      await fixed.close();
      const error = await fetch(`${fixed.info.agentServer.url}/server_info`).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TypeError); // connection refused: nothing listens any more
    }
  });

  it('a port in use is an error, and nothing stays bound', async () => {
    const taken = Number(new URL(sim.info.gateway.url).port);
    const error = await startSimulator({ ports: { gateway: taken } }).catch((e: unknown) => e);
    expect((error as NodeJS.ErrnoException).code).toBe('EADDRINUSE');
  });
});

describe('agent-platform-sdk/testing in a browser bundle', () => {
  it('bundles for the browser: Node-only modules are loaded at run time, never imported statically', async () => {
    const result = await build({
      entryPoints: [new URL('../../src/testing.ts', import.meta.url).pathname],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      logLevel: 'silent',
      metafile: true,
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((path) => path.endsWith('src/testing/simulator.ts'))).toBe(true);
    expect(inputs.some((path) => /node_modules\/msw\/lib\/node\//.test(path))).toBe(false);
    const code = result.outputFiles[0]!.text;
    expect(code).not.toMatch(/from\s*["']node:/);
  }, 60_000);
});
