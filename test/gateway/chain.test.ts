import { beforeEach, describe, expect, it } from 'vitest';
import {
  type APIError,
  isAuthenticationError,
  isBadRequestError,
  isNotFoundError,
  isRequestValidationError,
} from '../../src/core/errors.js';
import {
  buildProxyConfig,
  diagnoseGatewayError,
  GatewayAdminClient,
  type GatewayModelEntryInput,
  gatewayModelEntry,
  profileExtraHeaders,
} from '../../src/gateway/index.js';
import {
  externalGatewayHandlers,
  GatewayStore,
  gatewayHandlers,
  type ReceivedUpstreamCall,
} from '../../src/testing.js';
import { useMswServer } from '../helpers/msw.js';

// The chain: client → built-in gateway → external gateway (same kind, or compatible).
const BUILTIN = 'http://builtin-gateway.test:4000';
const MASTER = 'sk-master-chain';
const SAME_KIND_URL = 'https://team-gw.example.com';
const COMPAT_URL = 'http://bifrost:8080';
const received: ReceivedUpstreamCall[] = [];

const { config } = buildProxyConfig({
  wildcard: { apiBase: COMPAT_URL, apiKey: { env: 'BIFROST_KEY' } },
  entries: [],
});
const store = new GatewayStore({
  config: config.proxy_config,
  env: { EXTERNAL_GW_KEY: 'sk-ext-good', BIFROST_KEY: 'bf-good', WRONG_KEY: 'sk-ext-wrong' },
});
useMswServer(
  ...gatewayHandlers({ baseUrl: BUILTIN, masterKey: MASTER, store }),
  ...externalGatewayHandlers({
    baseUrl: SAME_KIND_URL,
    kind: 'same-kind',
    keys: ['sk-ext-good'],
    models: ['claude-sonnet-4-5-20250929', 'gpt-4o'],
    received,
  }),
  ...externalGatewayHandlers({
    baseUrl: COMPAT_URL,
    kind: 'openai-compatible',
    keys: ['bf-good'],
    models: ['anthropic/claude-sonnet-4-5-20250929', 'openai/gpt-4o'],
    received,
  }),
);
const client = new GatewayAdminClient({ baseUrl: BUILTIN, masterKey: MASTER, logLevel: 'off' });
beforeEach(() => {
  store.database = true;
  store.reset();
  received.length = 0;
});

const sameKind = (over: Partial<GatewayModelEntryInput> = {}) =>
  gatewayModelEntry({
    modelName: 'sonnet-via-gateway',
    upstreamModel: 'claude-sonnet-4-5-20250929',
    gatewayKind: 'same-kind',
    apiBase: SAME_KIND_URL,
    apiKey: { env: 'EXTERNAL_GW_KEY' },
    ...over,
  });
const compat = (over: Partial<GatewayModelEntryInput> = {}) =>
  gatewayModelEntry({
    modelName: 'sonnet-via-bifrost',
    upstreamModel: 'claude-sonnet-4-5-20250929',
    gatewayKind: 'openai-compatible',
    provider: 'anthropic',
    apiBase: COMPAT_URL,
    apiKey: { env: 'BIFROST_KEY' },
    ...over,
  });

async function failure(run: Promise<unknown>): Promise<APIError> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!error) throw new Error('expected the call to fail');
  return error as APIError;
}

describe('entries built by gatewayModelEntry work through the chain', () => {
  it('same-kind: /chat/completions on the base (as the real gateway), model as the gateway names it, the gateway key', async () => {
    await client.addModel(sameKind());
    expect(await client.probeModel('sonnet-via-gateway')).toEqual({ model: 'claude-sonnet-4-5-20250929' });
    expect(received).toHaveLength(1);
    expect(received[0]!.path).toBe('/chat/completions');
    expect(received[0]!.body.model).toBe('claude-sonnet-4-5-20250929');
    expect(received[0]!.headers.authorization).toBe('Bearer sk-ext-good');
  });

  it('OpenAI-compatible: /chat/completions after the /v1 base, model <provider>/<model>', async () => {
    await client.addModel(compat());
    await client.probeModel('sonnet-via-bifrost');
    expect(received[0]!.path).toBe('/v1/chat/completions');
    expect(received[0]!.body.model).toBe('anthropic/claude-sonnet-4-5-20250929');
    expect(received[0]!.headers.authorization).toBe('Bearer bf-good');
  });

  it('the corrected bases work where the operator typed the wrong /v1 form', async () => {
    await client.addModel(sameKind({ modelName: 'a', apiBase: `${SAME_KIND_URL}/v1/` }));
    await client.addModel(compat({ modelName: 'b', apiBase: `${COMPAT_URL}/` }));
    await client.probeModel('a');
    await client.probeModel('b');
    expect(received.map((r) => r.path)).toEqual(['/chat/completions', '/v1/chat/completions']);
  });
});

describe('gateway error rows', () => {
  it('model missing from the built-in gateway model list → 400 "Invalid model name" (as the real gateway, not 404)', async () => {
    // Pattern A only: without the wildcard, a name is either listed or missing.
    store.models = store.models.filter((m) => m.model_name !== '*');
    const error = await failure(client.probeModel('not-configured'));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/Invalid model name passed in model=not-configured/);
    expect(diagnoseGatewayError(error)).toMatchObject({ origin: 'built-in', failure: 'model-not-in-list' });
    expect(received).toHaveLength(0);
  });

  it('invalid key on the external gateway → 401 from the external gateway', async () => {
    await client.addModel(sameKind({ apiKey: { env: 'WRONG_KEY' } }));
    const error = await failure(client.probeModel('sonnet-via-gateway'));
    expect(isAuthenticationError(error)).toBe(true);
    const diagnosis = diagnoseGatewayError(error)!;
    expect(diagnosis).toMatchObject({ origin: 'external', failure: 'upstream-auth', status: 401 });
    expect(diagnosis.hint).toMatch(/virtual key/);
  });

  it('missing key (the referenced variable is not set on the gateway) → 401 from the external gateway', async () => {
    await client.addModel(compat({ apiKey: { env: 'UNSET_KEY' } }));
    const error = await failure(client.probeModel('sonnet-via-bifrost'));
    expect(isAuthenticationError(error)).toBe(true);
    expect(diagnoseGatewayError(error)?.failure).toBe('upstream-auth');
    expect(received[0]!.headers.authorization).toBeUndefined();
  });

  it('same-kind model string not matching the gateway model_name → 400 model not found', async () => {
    await client.addModel(sameKind({ upstreamModel: 'claude-sonnet' }));
    const error = await failure(client.probeModel('sonnet-via-gateway'));
    expect(isBadRequestError(error)).toBe(true);
    const diagnosis = diagnoseGatewayError(error)!;
    expect(diagnosis).toMatchObject({ origin: 'external', failure: 'upstream-model-not-found' });
    expect(diagnosis.hint).toContain('gateway_proxy/');
  });

  it('compatible gateway model without compat/<provider>/ → 400 model not found', async () => {
    await client.addModel({
      model_name: 'no-provider',
      gateway_params: {
        model: 'compat/claude-sonnet-4-5-20250929',
        api_base: `${COMPAT_URL}/v1`,
        api_key: 'os.environ/BIFROST_KEY',
      },
    });
    const error = await failure(client.probeModel('no-provider'));
    expect(isBadRequestError(error)).toBe(true);
    expect(diagnoseGatewayError(error)?.failure).toBe('upstream-model-not-found');
    expect(received[0]!.body.model).toBe('claude-sonnet-4-5-20250929');
  });

  it('bare name under the wildcard pattern → 400; the provider/model string is forwarded', async () => {
    const bare = await failure(client.probeModel('gpt-4o'));
    expect(isBadRequestError(bare)).toBe(true);
    expect(diagnoseGatewayError(bare)).toMatchObject({
      origin: 'external',
      failure: 'upstream-model-not-found',
    });
    expect(await client.probeModel('openai/gpt-4o')).toEqual({ model: 'openai/gpt-4o' });
  });

  it('unknown names under the wildcard are forwarded verbatim and rejected by the external gateway', async () => {
    const error = await failure(client.probeModel('openai/gpt-9-does-not-exist'));
    expect(isBadRequestError(error)).toBe(true);
    expect(received.at(-1)!.body.model).toBe('openai/gpt-9-does-not-exist');
  });

  it('a same-kind api_base ending in /v1 (hand-written) still works: a same-kind gateway serves both paths', async () => {
    await client.addModel({
      model_name: 'v1-twice',
      gateway_params: {
        model: 'gateway_proxy/gpt-4o',
        api_base: `${SAME_KIND_URL}/v1`,
        api_key: 'os.environ/EXTERNAL_GW_KEY',
      },
    });
    await client.probeModel('v1-twice');
    expect(received[0]!.path).toBe('/v1/chat/completions');
    expect(received[0]!.body.model).toBe('gpt-4o');
  });

  it('a compatible api_base without /v1 (hand-written) reaches no endpoint: 404 upstream', async () => {
    await client.addModel({
      model_name: 'no-v1',
      gateway_params: {
        model: 'compat/openai/gpt-4o',
        api_base: COMPAT_URL,
        api_key: 'os.environ/BIFROST_KEY',
      },
    });
    const error = await failure(client.probeModel('no-v1'));
    expect(diagnoseGatewayError(error)?.failure).toBe('upstream-endpoint-not-found');
    expect(received[0]!.path).toBe('/chat/completions');
  });

  it('a wrong master key is the built-in gateway refusing, not the external one', async () => {
    const wrong = new GatewayAdminClient({ baseUrl: BUILTIN, masterKey: 'sk-not-master', logLevel: 'off' });
    const error = await failure(wrong.probeModel('openai/gpt-4o'));
    expect(diagnoseGatewayError(error)).toMatchObject({ origin: 'built-in', failure: 'gateway-auth' });
  });

  it('diagnoses only HTTP answers', () => {
    expect(diagnoseGatewayError(new Error('x'))).toBeUndefined();
  });

  it('rejects an empty model name before any request', async () => {
    expect(isRequestValidationError(await client.probeModel('').catch((e: unknown) => e))).toBe(true);
  });
});

describe('Pattern B model list', () => {
  it('returns 200 or more entries: configured ones, a literal "*" and the registry', async () => {
    await client.addModel(sameKind());
    const ids = (await client.listModels()).map((m) => m.id);
    expect(ids.length).toBeGreaterThanOrEqual(200);
    expect(ids).toContain('*');
    expect(ids).toContain('sonnet-via-gateway');
    // As the real gateway lists its registry: with the compatible prefix.
    expect(ids.filter((id) => id.startsWith('compat/')).length).toBeGreaterThanOrEqual(200);
  });
});

describe('a gateway without a database (as the real one answers)', () => {
  it('addModel, deleteModel and spendLogs fail with errors that say so; diagnosed no-database', async () => {
    store.database = false;
    const added = await failure(client.addModel(sameKind()));
    expect(added.status).toBe(500);
    expect(added.message).toMatch(/no database/);
    expect(diagnoseGatewayError(added)).toMatchObject({ origin: 'built-in', failure: 'no-database' });
    const deleted = await failure(client.deleteModel('some-id'));
    expect(isNotFoundError(deleted)).toBe(false);
    expect(diagnoseGatewayError(deleted)?.failure).toBe('no-database');
    const spend = await failure(
      client.spendLogs({ startDate: '2026-01-01 00:00:00', endDate: '2026-01-02 00:00:00' }).pages().next(),
    );
    expect(spend.status).toBe(401);
    expect(spend.message).toMatch(/no database/);
    expect(diagnoseGatewayError(spend)?.failure).toBe('no-database');
  });

  it('any key but the master key is 400 "No connected db.", diagnosed gateway-auth', async () => {
    store.database = false;
    const wrong = new GatewayAdminClient({ baseUrl: BUILTIN, masterKey: 'sk-not-master', logLevel: 'off' });
    const error = await failure(wrong.listModels());
    expect(error.status).toBe(400);
    expect(diagnoseGatewayError(error)).toMatchObject({ origin: 'built-in', failure: 'gateway-auth' });
    expect(JSON.stringify(error) + String(error)).not.toContain('sk-not-master');
  });
});

describe('header forwarding and attribution through the chain', () => {
  const conversationId = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
  const { extra_headers } = profileExtraHeaders({
    headers: { 'X-Team-Id': 'alpha', 'Team-Plain': 'no', 'x-stainless-os': 'Linux' },
    spendLogsMetadata: { team: 'alpha', project: 'p-42' },
  });
  const headers = { ...extra_headers, 'x-gateway-session-id': conversationId };

  it('with forwarding on, x-* headers except x-stainless-* reach the external gateway', async () => {
    store.forwardClientHeaders = true;
    await client.addModel(sameKind());
    await client.probeModel('sonnet-via-gateway', { headers, user: 'user-alice' });
    const upstream = received[0]!.headers;
    expect(upstream['x-team-id']).toBe('alpha');
    expect(upstream['x-gateway-session-id']).toBe(conversationId);
    expect(JSON.parse(upstream['x-gateway-spend-logs-metadata']!)).toEqual({
      team: 'alpha',
      project: 'p-42',
    });
    expect(upstream['x-stainless-os']).toBeUndefined();
    expect(upstream['team-plain']).toBeUndefined();
    expect(upstream.authorization).toBe('Bearer sk-ext-good');
  });

  it('with forwarding off, none of them does', async () => {
    await client.addModel(sameKind());
    await client.probeModel('sonnet-via-gateway', { headers });
    expect(Object.keys(received[0]!.headers).filter((h) => h.startsWith('x-'))).toEqual([]);
  });

  it('the body user is recorded in the built-in spend logs, passed on to a same-kind gateway only', async () => {
    await client.addModel(compat());
    await client.probeModel('sonnet-via-bifrost', { user: 'user-bob' });
    expect(received[0]!.body.user).toBeUndefined();
    received.length = 0;
    store.spendLogs = [];
    await client.addModel(sameKind());
    await client.probeModel('sonnet-via-gateway', { headers, user: 'user-alice' });
    expect(received[0]!.body.user).toBe('user-alice');
    const rows = [];
    for await (const row of client.spendLogs({
      startDate: new Date(Date.now() - 3_600_000),
      endDate: new Date(Date.now() + 3_600_000),
    })) {
      rows.push(row);
    }
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      user: 'user-alice',
      session_id: conversationId,
      model_group: 'sonnet-via-gateway',
    });
    expect(rows[0]!.metadata).toEqual({ spend_logs_metadata: { team: 'alpha', project: 'p-42' } });
  });
});

describe('GatewayAdminClient.spendLogs', () => {
  it('walks every page', async () => {
    await client.addModel(sameKind());
    for (let i = 0; i < 5; i++) await client.probeModel('sonnet-via-gateway');
    const ids = [];
    for await (const row of client.spendLogs({
      startDate: '2000-01-01 00:00:00',
      endDate: '2999-01-01 00:00:00',
      pageSize: 2,
    })) {
      ids.push(row.request_id);
    }
    expect(new Set(ids).size).toBe(5);
  });

  it.each([
    [{ startDate: '2026-01-01T00:00:00Z', endDate: '2026-01-02 00:00:00' }, 'startDate'],
    [{ startDate: new Date(Number.NaN), endDate: '2026-01-02 00:00:00' }, 'startDate'],
    [{ startDate: '2026-01-01', endDate: '2026-01-02 00:00:00' }, 'startDate'],
    [{ startDate: '2026-01-01 00:00:00', endDate: 5 }, 'endDate'],
    [{ startDate: '2026-01-01 00:00:00', endDate: '2026-01-02 00:00:00', pageSize: 101 }, 'pageSize'],
    [{ startDate: '2026-01-01 00:00:00', endDate: '2026-01-02 00:00:00', pageSize: 0 }, 'pageSize'],
  ])('rejects %j before any request', async (query, field) => {
    // Checked when called, before any request.
    const error = await (async () => client.spendLogs(query as never))().catch((e: unknown) => e);
    expect(isRequestValidationError(error)).toBe(true);
    expect((error as Error).message).toContain(field);
  });
});
