// GatewayAdminClient against a real built-in gateway with its database (PostgreSQL, LiteLLM's own migrations,
// Prisma's real query engine as WebAssembly behind test/peers/prisma-engine/), chained to a real external
// gateway in front of the fake upstream (test/conformance/gateway/database-chain.ts): models added, read,
// updated (both routes), called and deleted; a virtual key; spend logs with attribution. On the platform's
// version (1.94.1), the newest that installs as `litellm[proxy]` (1.108.7) and the newest release (1.110.2: its
// litellm-proxy-extras lags the proxy's schema, so test/conformance/gateway/database.ts adds the missing tables
// the way `prisma db push` would). docs/compatibility.md, "Model gateway", lists what this run showed.
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APIError, isNotFoundError } from '../../src/core/errors.js';
import { GatewayAdminClient, gatewayModelEntry, type SpendLogRow } from '../../src/gateway/index.js';
import { requirePeer, versionsUnderTest } from '../peers/peers.js';
import { EXTERNAL_MASTER_KEY, UPSTREAM_KEY } from './gateway/chain.js';
import { postgresInstalled } from './gateway/database.js';
import { type DatabaseChain, startDatabaseChain } from './gateway/database-chain.js';

/**
 * The versions the database run covers: the platform's, the newest that installs as `litellm[proxy]` and the
 * newest release (each start costs one to two minutes).
 */
const DATABASE_VERSIONS = new Set(['1.94.1', '1.108.7', '1.110.2']);
/** D1: versions whose `POST /model/update` stores the `model_info` it is sent (1.94.1 and 1.108.7 keep theirs). */
const POST_UPDATE_WRITES_MODEL_INFO = new Set(['1.110.2']);

function admin(chain: DatabaseChain, masterKey = chain.masterKey) {
  return new GatewayAdminClient({
    baseUrl: chain.builtin.url,
    masterKey,
    maxRetries: 0,
    timeout: 60_000,
    logLevel: 'off',
  });
}

async function failure(promise: Promise<unknown>): Promise<APIError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof APIError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

async function raw(
  chain: DatabaseChain,
  method: string,
  path: string,
  body?: unknown,
  key = chain.masterKey,
) {
  const response = await fetch(`${chain.builtin.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: response.status, json: json as Record<string, unknown> };
}

const window = () => ({
  startDate: new Date(Date.now() - 3_600_000),
  endDate: new Date(Date.now() + 3_600_000),
});

/** Spend rows are written in batches (about every 10 s): poll until every id is there. */
async function spendRows(chain: DatabaseChain, ids: string[], timeoutMs = 90_000): Promise<SpendLogRow[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows: SpendLogRow[] = [];
    for await (const row of admin(chain).spendLogs(window())) rows.push(row);
    if (ids.every((id) => rows.some((row) => row.request_id === id)) || Date.now() > deadline) return rows;
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

for (const { version } of versionsUnderTest('gateway').filter((entry) =>
  DATABASE_VERSIONS.has(entry.version),
)) {
  const venv = requirePeer('gateway', version);

  describe.skipIf(!venv || !postgresInstalled())(`real gateway with its database, LiteLLM ${version}`, () => {
    let chain: DatabaseChain;
    let modelId = '';

    beforeAll(async () => {
      const started = Date.now();
      chain = await startDatabaseChain(venv as string, version);
      console.log(
        `gateway ${version} with database: ready in ${Date.now() - started} ms ${JSON.stringify(chain.timings)}`,
      );
    }, 420_000);
    afterAll(async () => {
      await chain?.close();
    });

    it('addModel stores the model (parameters encrypted in the row), listModels, getModel and modelInfo read it', async () => {
      const gateway = admin(chain);
      const entry = gatewayModelEntry({
        modelName: 'db-same-kind',
        upstreamModel: 'up-model',
        gatewayKind: 'same-kind',
        apiBase: chain.external.url,
        apiKey: EXTERNAL_MASTER_KEY,
      });
      const added = await gateway.addModel(entry);
      expect(added.model_name).toBe('db-same-kind');
      expect(typeof added.id).toBe('string');
      modelId = added.id as string;
      const row = chain.database.sql(
        `SELECT model_name, litellm_params::text FROM "LiteLLM_ProxyModelTable" WHERE model_id = '${modelId}'`,
      );
      expect(row).toContain('db-same-kind');
      expect(row).not.toContain(EXTERNAL_MASTER_KEY);

      expect((await gateway.getModel('db-same-kind')).id).toBe('db-same-kind');
      const info = (await gateway.modelInfo()).find((item) => item.model_name === 'db-same-kind');
      expect(info?.model_info.id).toBe(modelId);
      expect(info?.model_info.db_model).toBe(true);
      expect(info?.gateway_params).toEqual({ model: 'gateway_proxy/up-model', api_base: chain.external.url });
      expect(JSON.stringify(info)).not.toContain(EXTERNAL_MASTER_KEY);
    });

    it('a chat call to the stored model goes built-in → external → upstream with the stored key', async () => {
      const answer = await admin(chain).probeModel('db-same-kind', { user: 'alice' });
      expect(answer.model).toBe('db-same-kind');
      const hop = chain.external.received.at(-1);
      expect(hop?.path).toBe('/chat/completions');
      expect(hop?.body.model).toBe('up-model');
      expect(hop?.headers.authorization).toBe(`Bearer ${EXTERNAL_MASTER_KEY}`);
      expect(chain.upstream.received.at(-1)?.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`);
    });

    it('the two update routes: updateModel (PATCH /model/{id}/update) and POST /model/update', async () => {
      const gateway = admin(chain);
      const patched = await gateway.updateModel(modelId, { model_info: { description: 'patched' } });
      expect(patched).toEqual({ id: modelId, model_name: 'db-same-kind' });
      const patchedInfo = (await gateway.modelInfo()).find((item) => item.model_info.id === modelId);
      expect(patchedInfo?.model_info.description).toBe('patched');
      // The stored key and parameters are kept: only the fields given change.
      expect(patchedInfo?.gateway_params).toEqual({
        model: 'gateway_proxy/up-model',
        api_base: chain.external.url,
      });
      const postUpdated = await raw(chain, 'POST', '/model/update', {
        model_name: 'db-same-kind',
        litellm_params: { model: 'litellm_proxy/up-model', api_base: chain.external.url },
        model_info: { id: modelId, description: 'posted' },
      });
      const description = (await raw(chain, 'GET', `/model/info?litellm_model_id=${modelId}`)).json;
      console.log(
        `gateway ${version}: POST update ${postUpdated.status}, description now ${JSON.stringify((description.data as { model_info: { description?: string } }[])?.[0]?.model_info.description)}`,
      );
      expect(postUpdated.status).toBe(200);
      // D1: the POST route answers 200; up to 1.108.7 it leaves the stored model_info (the description as the
      // PATCH route set it), from 1.110.2 it writes the model_info fields it is sent.
      expect(
        (description.data as { model_info: { description?: string } }[])[0]?.model_info.description,
      ).toBe(POST_UPDATE_WRITES_MODEL_INFO.has(version) ? 'posted' : 'patched');
      // The model still answers through the chain with its stored key after both updates.
      await admin(chain).probeModel('db-same-kind');
      expect(chain.external.received.at(-1)?.headers.authorization).toBe(`Bearer ${EXTERNAL_MASTER_KEY}`);
    });

    it('updateModel: a renamed model answers under its new name; an unknown id is a NotFoundError', async () => {
      const gateway = admin(chain);
      const renamed = await gateway.updateModel(modelId, { model_name: 'db-renamed' });
      expect(renamed.model_name).toBe('db-renamed');
      expect((await gateway.listModels()).map((model) => model.id)).toContain('db-renamed');
      expect((await gateway.probeModel('db-renamed')).model).toBe('db-renamed');
      await gateway.updateModel(modelId, { model_name: 'db-same-kind' });
      const unknown = await gateway
        .updateModel('00000000-0000-4000-8000-000000000000', { model_info: { description: 'x' } })
        .catch((e: unknown) => e);
      console.log(`gateway ${version}: updateModel unknown id: ${String(unknown).slice(0, 200)}`);
      expect(isNotFoundError(unknown)).toBe(true);
    });

    it('a virtual key: generated with metadata, accepted as the caller key, deleted', async () => {
      const generated = await raw(chain, 'POST', '/key/generate', {
        key_alias: `conformance-${version}`,
        metadata: { team: 'alpha' },
        models: ['db-same-kind'],
      });
      expect(generated.status).toBe(200);
      const key = generated.json.key as string;
      expect(key).toMatch(/^sk-/);
      const caller = admin(chain, key);
      try {
        expect((await caller.probeModel('db-same-kind')).model).toBe('db-same-kind');
      } catch (error) {
        console.log(chain.logs());
        throw error;
      }
      const info = await raw(chain, 'GET', `/key/info?key=${encodeURIComponent(key)}`);
      expect(info.status).toBe(200);
      expect(JSON.stringify(info.json)).toContain('conformance-');
      const deleted = await raw(chain, 'POST', '/key/delete', { keys: [key] });
      expect(deleted.status).toBe(200);
      const refused = await failure(caller.probeModel('db-same-kind'));
      expect([400, 401, 403]).toContain(refused.status);
      expect(inspect(refused) + JSON.stringify(refused)).not.toContain(key);
    });

    it('spend logs: rows carry the spend metadata and session id headers (batched writes, polled)', async () => {
      const gateway = admin(chain);
      const ids: string[] = [];
      const call = async (headers: Record<string, string>) => {
        const response = await fetch(`${chain.builtin.url}/v1/chat/completions`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${chain.masterKey}`,
            'content-type': 'application/json',
            ...headers,
          },
          body: JSON.stringify({
            model: 'db-same-kind',
            messages: [{ role: 'user', content: 'hi' }],
            max_tokens: 1,
          }),
        });
        expect(response.status).toBe(200);
        // The gateway's call id (the spend row's request_id).
        ids.push((await response.json()).id as string);
      };
      await call({
        'x-gateway-spend-logs-metadata': '{"user":"alice","project":"p1"}',
        'x-gateway-session-id': 'conversation-0001',
      });
      // G10: the trace id header wins over the session id header.
      await call({ 'x-gateway-session-id': 'conversation-0002', 'x-gateway-trace-id': 'trace-0002' });
      // G10: any x-*-session-id of 8+ [A-Za-z0-9_-] is a fallback.
      await call({ 'x-acme-session-id': 'fallback-0003' });
      const rows = await spendRows(chain, ids);
      const byId = new Map(rows.map((row) => [row.request_id, row]));
      const [first, second, third] = ids.map((id) => byId.get(id));
      console.log(
        `gateway ${version}: spend rows ${rows.length}; session ids ${JSON.stringify([first?.session_id, second?.session_id, third?.session_id])}`,
      );
      expect(first?.model_group).toBe('db-same-kind');
      expect(JSON.stringify(first?.metadata)).toContain(
        '"spend_logs_metadata":{"user":"alice","project":"p1"}',
      );
      expect(first?.session_id).toBe('conversation-0001');
      expect(second?.session_id).toBe('trace-0002');
      expect(third?.session_id).toBe('fallback-0003');

      // G6: newest first; page by page (one row a page) gives every row once while no call is made.
      const starts = rows.map((row) => Date.parse(row.startTime));
      expect([...starts].sort((a, b) => b - a)).toEqual(starts);
      const paged: string[] = [];
      for await (const row of gateway.spendLogs({ ...window(), pageSize: 1 })) paged.push(row.request_id);
      expect(paged.sort()).toEqual(rows.map((row) => row.request_id).sort());
    });

    it('deleteModel removes the row; a second delete is a NotFoundError', async () => {
      const gateway = admin(chain);
      const deleted = await gateway.deleteModel(modelId);
      expect(deleted.id).toBe(modelId);
      expect(
        chain.database
          .sql(`SELECT count(*) FROM "LiteLLM_ProxyModelTable" WHERE model_id = '${modelId}'`)
          .trim(),
      ).toBe('0');
      expect(isNotFoundError(await failure(gateway.deleteModel(modelId)))).toBe(true);
      expect((await gateway.listModels()).map((model) => model.id)).not.toContain('db-same-kind');
    });

    it('G3: a model of a provider the gateway does not know is stored; the answer says whether it is live', async () => {
      // Not reachable through gatewayModelEntry (its models are gateway_proxy/ or compat/, both known): raw.
      const answer = await raw(chain, 'POST', '/model/new', {
        model_name: 'db-unknown-provider',
        litellm_params: {
          model: 'nosuchprovider/x',
          api_base: chain.upstream.url,
          api_key: 'sk-literal-unknown',
        },
      });
      const rows = chain.database
        .sql(`SELECT count(*) FROM "LiteLLM_ProxyModelTable" WHERE model_name = 'db-unknown-provider'`)
        .trim();
      const message = JSON.stringify(answer.json).slice(0, 400);
      console.log(
        `gateway ${version}: unknown provider: /model/new ${answer.status} ${message}; rows ${rows}`,
      );
      // Either way the row exists: a 500 here is not a failure to create.
      expect(rows).toBe('1');
      if (answer.status !== 200) {
        expect(answer.status).toBe(500);
        expect(message).toMatch(/not live/);
      }
      expect(message).not.toContain('sk-literal-unknown');

      // The same through addModel (an entry written out by hand): the 500 carries the code an app tests.
      const error = await admin(chain)
        .addModel({
          model_name: 'db-unknown-provider-2',
          gateway_params: {
            model: 'nosuchprovider/y',
            api_base: chain.upstream.url,
            api_key: 'sk-literal-unknown',
          },
        })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      if (answer.status === 200) expect(error).toBeUndefined();
      else expect((error as { code?: string }).code).toBe('GATEWAY_MODEL_SAVED_NOT_LIVE');
    });
  });
}
