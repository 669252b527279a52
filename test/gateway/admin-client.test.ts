import { inspect } from 'node:util';
import { HttpResponse, http } from 'msw/http';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  type APIError,
  isAuthenticationError,
  isInternalServerError,
  isNotFoundError,
  isRequestValidationError,
  isResponseValidationError,
} from '../../src/core/errors.js';
import { GatewayAdminClient, gatewayModelEntry, readGatewayError } from '../../src/gateway/index.js';
import { GatewayStore, gatewayHandlers } from '../../src/testing.js';
import { useMswServer } from '../helpers/msw.js';
import { neutral, readJsonFixture } from './fixtures.js';

const BASE = 'http://builtin-gateway.test:4000';
const MASTER = 'sk-master-0123456789';
const shapes = neutral(readJsonFixture('litellm-proxy-shapes.json')) as Record<string, unknown>;
const fixture = (prefix: string) => shapes[Object.keys(shapes).find((k) => k.startsWith(prefix))!];

const store = new GatewayStore({
  config: {
    model_list: [
      {
        model_name: 'claude-sonnet-4-5',
        gateway_params: {
          model: 'gateway_proxy/claude-sonnet-4-5-20250929',
          api_base: 'http://gw:4000',
          api_key: 'os.environ/EXTERNAL_GW_KEY',
        },
      },
    ],
  },
});
const { server, requests } = useMswServer(...gatewayHandlers({ baseUrl: BASE, masterKey: MASTER, store }));
const client = new GatewayAdminClient({
  baseUrl: BASE,
  masterKey: MASTER,
  logLevel: 'off',
  maxRetryDelay: 5,
});
beforeEach(() => store.reset());

const entry = (modelName: string, apiKey = 'sk-upstream-secret-42') =>
  gatewayModelEntry({
    modelName,
    upstreamModel: 'claude-haiku-4-5-20251001',
    gatewayKind: 'same-kind',
    apiBase: 'http://gw:4000',
    apiKey,
  });

describe('GatewayAdminClient.addModel / listModels', () => {
  it('a model added is listed at once, next to the configured ones', async () => {
    const added = await client.addModel(entry('haiku-via-gateway'));
    expect(added.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(added.model_name).toBe('haiku-via-gateway');
    const names = (await client.listModels()).map((m) => m.id);
    expect(names).toEqual(['claude-sonnet-4-5', 'haiku-via-gateway']);
  });

  it('posts the entry as JSON with the master key as bearer', async () => {
    const body = entry('posted');
    await client.addModel(body);
    const request = requests[0]!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe(`${BASE}/model/new`);
    expect(request.headers.get('authorization')).toBe(`Bearer ${MASTER}`);
    expect(request.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await request.json()).toEqual(body);
  });

  it('an API-added model survives a gateway restart (it lives in the database); reset empties the database', async () => {
    await client.addModel(entry('persisted'));
    store.restart();
    expect((await client.listModels()).map((m) => m.id)).toEqual(['claude-sonnet-4-5', 'persisted']);
    store.reset();
    expect((await client.listModels()).map((m) => m.id)).toEqual(['claude-sonnet-4-5']);
  });

  it('typed list entries do not carry created or owned_by', async () => {
    const [model] = await client.listModels();
    expect(model).toEqual({ id: 'claude-sonnet-4-5', object: 'model' });
  });

  it('reads the documented list shapes (fixtures), wildcard sample included', async () => {
    for (const name of ['GET /v1/models 200 (wildcard', 'GET /v1/models 200 (explicit']) {
      server.use(http.get(`${BASE}/v1/models`, () => HttpResponse.json(fixture(name) as object)));
      const ids = (await client.listModels()).map((m) => m.id);
      expect(ids).toEqual((fixture(name) as { data: { id: string }[] }).data.map((d) => d.id));
    }
  });

  it('reads the documented /model/new answer (fixture) without keeping encrypted parameters', async () => {
    server.use(
      http.post(`${BASE}/model/new`, () => HttpResponse.json(fixture('POST /model/new 200') as object)),
    );
    const added = await client.addModel(entry('x'));
    expect(added).toEqual({ id: '3f1e...uuid', model_name: 'claude-sonnet-4-5-via-gateway' });
  });

  it('a list answer without data is a ResponseValidationError', async () => {
    server.use(http.get(`${BASE}/v1/models`, () => HttpResponse.json({ object: 'list' })));
    expect(isResponseValidationError(await client.listModels().catch((e: unknown) => e))).toBe(true);
  });

  it('rejects a malformed entry before any request', async () => {
    const error = await client
      .addModel({ model_name: '', gateway_params: { model: 'gateway_proxy/x' } } as never)
      .catch((e: unknown) => e);
    expect(isRequestValidationError(error)).toBe(true);
    expect((error as Error).message).toContain('entry.model_name');
    expect((error as Error).message).toContain('entry.gateway_params.api_base');
    expect(requests).toHaveLength(0);
  });

  it('logs a warning for an entry that breaks the /v1 rule', async () => {
    const lines: string[] = [];
    const logged = new GatewayAdminClient({
      baseUrl: BASE,
      masterKey: MASTER,
      logger: { error() {}, warn: (m: string) => lines.push(m), info() {}, debug() {} },
    });
    await logged.addModel({
      model_name: 'bad-base',
      gateway_params: {
        model: 'compat/anthropic/claude',
        api_base: 'http://bifrost:8080',
        api_key: 'os.environ/K',
      },
    });
    expect(lines.join('\n')).toMatch(/needs api_base ending in \/v1/);
  });

  it('a gateway without a model database answers 500 (fixture); not retried', async () => {
    const noDb = new GatewayStore({ storeModelInDb: false });
    server.use(...gatewayHandlers({ baseUrl: BASE, masterKey: MASTER, store: noDb }));
    const error = (await client.addModel(entry('x')).catch((e: unknown) => e)) as APIError;
    expect(isInternalServerError(error)).toBe(true);
    const documented = (
      fixture('error: /model/new without STORE_MODEL_IN_DB') as { error: { message: string } }
    ).error;
    expect(readGatewayError(error)).toEqual({
      message: documented.message,
      type: 'auth_error',
      param: null,
      code: '500',
    });
    expect(error.message).toContain('STORE_MODEL_IN_DB');
    expect(requests).toHaveLength(1);
  });
});

describe('GatewayAdminClient.getModel: a model missing from the list', () => {
  it('returns a listed model', async () => {
    expect((await client.getModel('claude-sonnet-4-5')).id).toBe('claude-sonnet-4-5');
  });

  it('is a NotFoundError (404) for a model missing from the list', async () => {
    const error = (await client.getModel('gpt-5').catch((e: unknown) => e)) as APIError;
    expect(isNotFoundError(error)).toBe(true);
    expect(error.status).toBe(404);
    expect(error.message).toContain('"gpt-5"');
  });
});

describe('GatewayAdminClient.modelInfo / deleteModel', () => {
  it('model info carries ids and parameters, never the key', async () => {
    await client.addModel(entry('with-info'));
    const info = await client.modelInfo();
    const added = info.find((m) => m.model_name === 'with-info')!;
    expect(added.model_info.db_model).toBe(true);
    expect(added.gateway_params).toEqual({
      model: 'gateway_proxy/claude-haiku-4-5-20251001',
      api_base: 'http://gw:4000',
    });
    expect(JSON.stringify(info)).not.toContain('sk-upstream-secret-42');
  });

  it('reads the documented /model/info shape (fixture)', async () => {
    server.use(
      http.get(`${BASE}/model/info`, () => HttpResponse.json(fixture('GET /model/info 200') as object)),
    );
    const [first] = await client.modelInfo();
    expect(first).toEqual({
      model_name: 'claude-sonnet-4-5',
      gateway_params: { model: 'gateway_proxy/claude-sonnet-4-5-20250929', api_base: 'http://gw:4000' },
      model_info: { id: '3f1e...uuid', db_model: false },
    });
  });

  it('a deleted model leaves the list', async () => {
    const { id } = await client.addModel(entry('doomed'));
    expect(await client.deleteModel(id!)).toMatchObject({ id, deleted: true });
    expect((await client.listModels()).map((m) => m.id)).not.toContain('doomed');
    expect(await requests.at(-2)!.json()).toEqual({ id });
  });

  it("the gateway's 400 for an unknown id (fixture envelope) is a NotFoundError", async () => {
    const error = (await client.deleteModel('nope').catch((e: unknown) => e)) as APIError;
    expect(isNotFoundError(error)).toBe(true);
    expect(error.status).toBe(400);
    expect(error.message).toContain('Model with id=nope not found in db');
  });

  it('rejects an empty id before any request', async () => {
    expect(isRequestValidationError(await client.deleteModel('').catch((e: unknown) => e))).toBe(true);
    expect(requests).toHaveLength(0);
  });
});

describe('GatewayAdminClient auth and secrets', () => {
  it('a wrong master key is an AuthenticationError carrying the envelope (fixture shape)', async () => {
    const wrong = new GatewayAdminClient({ baseUrl: BASE, masterKey: 'sk-wrong-master', logLevel: 'off' });
    const error = (await wrong.listModels().catch((e: unknown) => e)) as APIError;
    expect(isAuthenticationError(error)).toBe(true);
    const envelope = readGatewayError(error)!;
    expect(envelope).toMatchObject({ type: 'auth_error', code: '401', param: null });
    expect(Object.keys(envelope).sort()).toEqual(
      Object.keys((fixture('error envelope') as { error: object }).error).sort(),
    );
  });

  it('requires a master key', () => {
    expect(() => new GatewayAdminClient({ baseUrl: BASE, masterKey: '' })).toThrow(/masterKey/);
  });

  it('accepts a master key function, resolved per call', async () => {
    const lazy = new GatewayAdminClient({ baseUrl: BASE, masterKey: async () => MASTER, logLevel: 'off' });
    expect((await lazy.listModels()).length).toBeGreaterThan(0);
  });

  it('never shows the master key or an added key in errors, inspect or JSON', async () => {
    server.use(
      http.post(`${BASE}/model/new`, async ({ request }) =>
        HttpResponse.json(
          {
            error: {
              message: `bad request: ${JSON.stringify(await request.json())} auth ${MASTER}`,
              type: null,
              param: 'None',
              code: '400',
            },
          },
          { status: 400 },
        ),
      ),
    );
    const error = (await client
      .addModel(entry('leaky', 'sk-upstream-secret-42'))
      .catch((e: unknown) => e)) as APIError;
    const shown = `${error.message} ${JSON.stringify(error)} ${inspect(error)} ${inspect(client)} ${JSON.stringify(client)}`;
    expect(shown).not.toContain(MASTER);
    expect(shown).not.toContain('sk-upstream-secret-42');
    expect(shown).toContain('[redacted]');
  });
});
