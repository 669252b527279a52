// The runtime smoke suite (issue 33): the same checks in every runtime the SDK promises (Node 22 and 24, Bun,
// Deno, workerd, Chromium), against the packed package as an app installs it. It uses nothing but the SDK and
// web APIs: each runtime's host (cli-host.ts, worker-host.ts, browser-host.ts) hands it its configuration and
// reports what it returns. scripts/test-runtimes.mjs runs the matrix and prints one line per cell; it turns the
// imports of ../../src/*.js into imports of the installed package (agent-platform-sdk, /models, /tracing).
import {
  ConversationsClient,
  type Event,
  EventsClient,
  GatewayAdminClient,
  isAgentServerVersionError,
  isAPIConnectionError,
  isAuthenticationError,
  isConversationStateUpdateEvent,
  isNotFoundError,
  isRequestValidationError,
  isSubscriptionEndpointNotFoundError,
  isTerminalExecutionStatus,
  RuntimeAdminClient,
  type SubscribeOptions,
} from '../../src/index.js';
import { parseEvent } from '../../src/models.js';
import { resolveTraceExport } from '../../src/tracing.js';

type LiveProtocol = 'session' | 'events';

export interface SmokeConfig {
  agentServer: { url: string; sessionApiKey: string; version: string };
  /** The body of `conversations.create` (no initial message: the smoke sends it once subscribed). */
  conversation: Record<string, unknown>;
  /** A loopback port nothing listens on. */
  closedPort: number;
  /** The simulator's other services; absent against a real agent server alone. */
  runtimeApi?: { url: string; adminPassword: string };
  gateway?: { url: string; masterKey: string };
  tracingEnv?: Record<string, string>;
  /** Bound of the whole run, milliseconds. */
  timeoutMs?: number;
}

export interface SmokeCheck {
  name: string;
  ok: boolean;
  detail: string;
}

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** The socket protocols a server of this version has: the session socket from 1.45.0. */
function protocolsOf(version: string): LiveProtocol[] {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > 1 || (major === 1 && minor >= 45) ? ['session', 'events'] : ['events'];
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

export async function smoke(config: SmokeConfig): Promise<SmokeCheck[]> {
  const checks: SmokeCheck[] = [];
  const signal = AbortSignal.timeout(config.timeoutMs ?? 60_000);
  const check = async (name: string, body: () => Promise<string>): Promise<void> => {
    try {
      checks.push({ name, ok: true, detail: await body() });
    } catch (error) {
      checks.push({ name, ok: false, detail: describe(error) });
    }
  };
  const server = config.agentServer;
  const options = { baseUrl: server.url, sessionApiKey: server.sessionApiKey, logLevel: 'off' as const };
  const events = new EventsClient(options);
  const conversations = new ConversationsClient(options);

  await check('rest: serverInfo', async () => {
    const info = await events.serverInfo({ signal });
    if (info.version !== server.version)
      throw new Error(`version ${info.version}, expected ${server.version}`);
    return `version ${info.version}`;
  });

  await check('rest: typed errors (404, 401, unreachable)', async () => {
    const { id } = await conversations.create(config.conversation as never, { signal });
    // An unknown conversation (a 404 on every version). Not an unknown event: servers up to 1.45.0 answer that
    // with an unhandled 500 that carries no CORS headers, a network error in a browser (docs/runtimes.md).
    const missing = await conversations.get(UNKNOWN_ID, { signal }).catch((error: unknown) => error);
    if (!isNotFoundError(missing)) throw new Error(`an unknown conversation: ${describe(missing)}`);
    const wrongKey = new EventsClient({ ...options, sessionApiKey: 'not-the-key', maxRetries: 0 });
    const refused = await wrongKey.count(id, {}, { signal }).catch((error: unknown) => error);
    if (!isAuthenticationError(refused)) throw new Error(`a wrong key: ${describe(refused)}`);
    const closed = new EventsClient({
      ...options,
      baseUrl: `http://127.0.0.1:${config.closedPort}`,
      maxRetries: 0,
    });
    const unreachable = await closed.serverInfo({ signal }).catch((error: unknown) => error);
    if (!isAPIConnectionError(unreachable)) throw new Error(`a closed port: ${describe(unreachable)}`);
    return `NotFoundError, AuthenticationError, APIConnectionError (${(unreachable as { reason: string }).reason})`;
  });

  for (const protocol of protocolsOf(server.version)) {
    await check(`live: a run over the ${protocol} socket, exactly the REST history`, async () =>
      liveRun(events, conversations, config, protocol, signal),
    );
  }

  if (config.runtimeApi) {
    const runtimeApi = config.runtimeApi;
    await check('runtime API: admin PBKDF2 login', async () => {
      const admin = new RuntimeAdminClient({
        baseUrl: runtimeApi.url,
        adminPassword: runtimeApi.adminPassword,
        env: false,
        logLevel: 'off',
      });
      const token = await admin.login({ signal });
      if (typeof token !== 'string' || token.length === 0) throw new Error('no token');
      const body = await admin.template(
        'v1_current',
        { image: 'ghcr.io/acme/smoke:1', count: 1 },
        { signal },
      );
      return `logged in; template image ${body.image}`;
    });
  }

  if (config.gateway) {
    const gateway = config.gateway;
    await check('gateway: models', async () => {
      const admin = new GatewayAdminClient({
        baseUrl: gateway.url,
        masterKey: gateway.masterKey,
        logLevel: 'off',
      });
      const models = await admin.listModels({ signal });
      return `${models.length} models`;
    });
  }

  // Options left out are read from the environment, where the runtime may refuse it (Deno without
  // --allow-env): an unset variable, so the client's own default or typed error.
  await check('options: left out, the environment read or refused', async () => {
    const admin = new RuntimeAdminClient({
      baseUrl: 'http://127.0.0.1:9',
      adminPassword: 'x',
      logLevel: 'off',
    });
    let thrown: unknown;
    try {
      new EventsClient({ logLevel: 'off' });
    } catch (error) {
      thrown = error;
    }
    if (!isRequestValidationError(thrown) || !thrown.message.includes('baseUrl'))
      throw new Error(`EventsClient without baseUrl: ${describe(thrown)}`);
    return `RuntimeAdminClient at ${admin.baseUrl}; RequestValidationError naming baseUrl`;
  });

  await check('entries: /models and /tracing', async () => {
    const event = parseEvent(
      JSON.stringify({
        id: 'e1',
        timestamp: '2026-02-05T11:24:45.292853',
        source: 'user',
        kind: 'PauseEvent',
      }),
    );
    if (event.kind !== 'PauseEvent') throw new Error(`parseEvent gave ${event.kind}`);
    const trace = resolveTraceExport(config.tracingEnv ?? {});
    return `parseEvent ${event.kind}; trace export ${trace.destination}`;
  });

  // A server without the session socket: forcing it ends with the typed error (the handshake is refused 404,
  // which each runtime's WebSocket reports in its own way), forcing first-message auth with the version error.
  if (!protocolsOf(server.version).includes('session')) {
    await check('live: what the server is too old for, typed', async () => {
      const { id } = await conversations.create(config.conversation as never, { signal });
      const session = events.subscribe(id, { protocol: 'session', signal });
      const missing = await session.ready.catch((caught: unknown) => caught);
      if (!isSubscriptionEndpointNotFoundError(missing))
        throw new Error(`protocol session: ${describe(missing)}`);
      const firstMessage = events.subscribe(id, { auth: 'first-message', signal });
      const tooOld = await firstMessage.ready.catch((caught: unknown) => caught);
      if (!isAgentServerVersionError(tooOld)) throw new Error(`auth first-message: ${describe(tooOld)}`);
      return 'SubscriptionEndpointNotFoundError, AgentServerVersionError';
    });
  }
  return checks;
}

/**
 * Subscribes, sends a message with `run: true`, reads until the execution status is terminal, then compares
 * with the REST history: every persisted event up to the terminal one delivered live, once each, in order.
 */
async function liveRun(
  events: EventsClient,
  conversations: ConversationsClient,
  config: SmokeConfig,
  protocol: LiveProtocol,
  signal: AbortSignal,
): Promise<string> {
  const { id } = await conversations.create(config.conversation as never, { signal });
  const subscribeOptions: SubscribeOptions = { protocol, history: true, signal };
  const sub = events.subscribe(id, subscribeOptions);
  const live: Event[] = [];
  let auth = '';
  sub.on('open', (info) => {
    auth = info.auth;
  });
  const reading = (async () => {
    for await (const event of sub) {
      live.push(event);
      if (
        isConversationStateUpdateEvent(event) &&
        event.key === 'execution_status' &&
        isTerminalExecutionStatus(event.value as never)
      )
        break;
    }
  })();
  await sub.ready;
  await events.send(id, { content: 'smoke: run echo', run: true }, { signal });
  await reading;
  const history: Event[] = [];
  for await (const event of events.search(id, {}, { signal })) history.push(event);
  const liveIds = live.map((event) => event.id);
  if (new Set(liveIds).size !== liveIds.length)
    throw new Error(`an event delivered twice: ${liveIds.join(',')}`);
  const last = liveIds.at(-1);
  const end = history.findIndex((event) => event.id === last);
  if (end < 0) throw new Error(`the terminal event ${last} is not in the REST history`);
  const expected = history.slice(0, end + 1).map((event) => event.id);
  if (expected.join(',') !== liveIds.join(',')) {
    throw new Error(`live ${liveIds.length} events [${liveIds.join(',')}], REST [${expected.join(',')}]`);
  }
  return `${liveIds.length} events, auth ${auth}`;
}
