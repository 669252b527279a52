// Conformance of the gateway area against the real model gateway: two real LiteLLM proxies chained
// (built-in → external) in front of a fake upstream, the SDK talking to the built-in one through the
// neutral-name bridge (test/conformance/gateway/). Every version of the matrix; no database (the
// database-backed endpoints answer as a gateway without one does; their success paths run against the real
// gateway with its database in gateway-database.test.ts). docs/compatibility.md, "Model gateway", lists what
// this run showed.
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APIError, BadRequestError, InternalServerError, isNotFoundError } from '../../src/core/errors.js';
import {
  diagnoseGatewayError,
  forwardedClientHeaders,
  GatewayAdminClient,
  gatewayModelEntry,
  readGatewayError,
} from '../../src/gateway/index.js';
import { requirePeer, versionsUnderTest } from '../peers/peers.js';
import { mapHeaderName } from './gateway/bridge.js';
import { EXTERNAL_MASTER_KEY, type GatewayChain, startGatewayChain, UPSTREAM_KEY } from './gateway/chain.js';
import { compareVersions } from './support/record.js';

/** What a client of the built-in gateway sends besides the model call: forwarded or not, by the real rule. */
const CLIENT_HEADERS: Record<string, string> = {
  'x-team-id': 'alpha',
  'X-Request-Source': 'conformance',
  'x-gateway-spend-logs-metadata': '{"user":"alice","project":"p1"}',
  'x-gateway-session-id': 'conversation-0001',
  'anthropic-beta': 'tools-2024-04-04',
  'anthropic-version': '2023-06-01',
  'openai-organization': 'org-1',
  xfoo: 'no dash',
  'x-stainless-custom': 'client telemetry',
  'x-api-key': 'sk-header-secret-1',
  'x-goog-api-key': 'header-secret-2',
  'api-key': 'header-secret-3',
  'ocp-apim-subscription-key': 'header-secret-4',
  'x-mcp-auth': 'header-secret-5',
  'x-mcp-servers': 'srv',
  'x-mcp-access-groups': 'grp',
};

interface Captured {
  lines: string[];
}

function client(chain: GatewayChain, base: string, masterKey = chain.masterKey, log?: Captured) {
  return new GatewayAdminClient({
    baseUrl: base,
    masterKey,
    maxRetries: 0,
    timeout: 30_000,
    ...(log
      ? {
          logLevel: 'debug' as const,
          logger: {
            error: (m: string) => log.lines.push(m),
            warn: (m: string) => log.lines.push(m),
            info: (m: string) => log.lines.push(m),
            debug: (m: string) => log.lines.push(m),
          },
        }
      : {}),
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

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function expectNoSecret(chain: GatewayChain, ...values: unknown[]) {
  for (const value of values) {
    const text = [String(value), JSON.stringify(value), inspect(value, { depth: 8 })].join('\n');
    expect(text).not.toContain(chain.masterKey);
    expect(text).not.toContain(EXTERNAL_MASTER_KEY);
    expect(text).not.toContain(UPSTREAM_KEY);
  }
}

/** The last request the fake upstream (or the recorder in front of the external gateway) received. */
const last = <T>(list: T[]): T => {
  expect(list.length).toBeGreaterThan(0);
  return list[list.length - 1]!;
};

for (const { version } of versionsUnderTest('gateway')) {
  const venv = requirePeer('gateway', version);

  // Up to 1.108 the wildcard lists the compatible family's registry as `compat/<model>`; 1.110 lists it under the
  // bare names a caller sends, which `*` maps to `compat/<model>` (docs/compatibility.md, G13).
  const listsBareNames = compareVersions(version, '1.110.0') >= 0;
  const registryNames = (ids: string[]) =>
    listsBareNames
      ? ids.filter((id) => id !== 'chained-same-kind' && id !== '*')
      : ids.filter((id) => id.startsWith('compat/'));
  describe.skipIf(!venv)(`real gateway chain, LiteLLM ${version}`, () => {
    let chain: GatewayChain;
    let started = 0;

    beforeAll(async () => {
      started = Date.now();
      chain = await startGatewayChain(venv as string, version);
      console.log(`gateway ${version}: chain of three proxies ready in ${Date.now() - started} ms`);
    });
    afterAll(async () => {
      await chain?.close();
    });

    it('lists the configured entries of both routing prefixes, and getModel / modelInfo read them', async () => {
      const gateway = client(chain, chain.builtin.url);
      const ids = (await gateway.listModels()).map((model) => model.id);
      expect(ids.sort()).toEqual(
        ['chained-compat', 'chained-same-kind', 'chained-unknown', 'direct-bad-key', 'direct-compat'].sort(),
      );
      expect((await gateway.getModel('direct-compat')).id).toBe('direct-compat');
      const missing = await failure(gateway.getModel('not-configured'));
      expect(isNotFoundError(missing)).toBe(true);

      const info = await gateway.modelInfo();
      const byName = Object.fromEntries(info.map((entry) => [entry.model_name, entry]));
      expect(byName['chained-same-kind']?.gateway_params).toEqual({
        model: 'gateway_proxy/up-model',
        api_base: chain.external.url,
      });
      expect(byName['chained-compat']?.gateway_params).toEqual({
        model: 'compat/anthropic/claude-z',
        api_base: `${chain.external.url}/v1`,
      });
      expect(byName['direct-compat']?.gateway_params.model).toBe('compat/acme/model-d');
      for (const entry of info) {
        expect(entry.model_info.db_model).toBe(false);
        expect(typeof entry.model_info.id).toBe('string');
      }
      // The real answer carries no key at all (keys are popped, not masked).
      const raw = await fetch(`${chain.builtin.url}/model/info`, {
        headers: { authorization: `Bearer ${chain.masterKey}` },
      });
      const text = await raw.text();
      expect(text).not.toContain(EXTERNAL_MASTER_KEY);
      expect(text).not.toContain(UPSTREAM_KEY);
      expect(text).not.toMatch(/"api_key"\s*:/);
    });

    it('same-kind (gateway_proxy/): the external gateway gets POST {api_base}/chat/completions, the model as it names it, its key', async () => {
      const gateway = client(chain, chain.builtin.url);
      const before = chain.external.received.length;
      const answer = await gateway.probeModel('chained-same-kind', { user: 'alice' });
      expect(answer.model).toBe('chained-same-kind');
      const hop = last(chain.external.received);
      expect(chain.external.received.length).toBe(before + 1);
      expect(hop.method).toBe('POST');
      // Not /v1/chat/completions: the real client appends /chat/completions to api_base.
      expect(hop.path).toBe('/chat/completions');
      expect(hop.body.model).toBe('up-model');
      expect(hop.headers.authorization).toBe(`Bearer ${EXTERNAL_MASTER_KEY}`);
      // The body `user` reaches a same-kind gateway (its spend logs record it too), not a compat/ provider.
      expect(hop.body.user).toBe('alice');
      const final = last(chain.upstream.received);
      expect(final.path).toBe('/v1/chat/completions');
      expect(final.body.model).toBe('up-model');
      expect(final.body).not.toHaveProperty('user');
    });

    it('openai-compatible (compat/<provider>/): the gateway gets POST {api_base}/chat/completions with <provider>/<model>', async () => {
      const gateway = client(chain, chain.builtin.url);
      await gateway.probeModel('chained-compat', { user: 'alice' });
      const hop = last(chain.external.received);
      expect(hop.path).toBe('/v1/chat/completions');
      // Split on the first slash: the provider segment stays in the model the external gateway receives.
      expect(hop.body.model).toBe('anthropic/claude-z');
      expect(hop.body).not.toHaveProperty('user');
      expect(last(chain.upstream.received).body.model).toBe('anthropic/claude-z');

      const externalCalls = chain.external.received.length;
      await gateway.probeModel('direct-compat', { user: 'alice' });
      expect(chain.external.received.length).toBe(externalCalls);
      const direct = last(chain.upstream.received);
      expect(direct.path).toBe('/v1/chat/completions');
      expect(direct.body.model).toBe('acme/model-d');
      expect(direct.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`);
      expect(direct.body).not.toHaveProperty('user');
      expect(direct.body.max_tokens).toBe(1);
    });

    it('forwards exactly the client headers forwardedClientHeaders predicts (forward_client_headers_to_llm_api on)', async () => {
      const gateway = client(chain, chain.builtin.url);
      await gateway.probeModel('direct-compat', { headers: CLIENT_HEADERS });
      const received = last(chain.upstream.received).headers;
      const predicted = forwardedClientHeaders(CLIENT_HEADERS);
      for (const [name, value] of Object.entries(CLIENT_HEADERS)) {
        const real = mapHeaderName(name, 'toReal').toLowerCase();
        if (name in predicted) expect(received[real], `${name} forwarded`).toBe(value);
        else if (received[real] !== undefined)
          expect(received[real], `${name} not forwarded`).not.toBe(value);
      }
      expect(Object.keys(predicted).sort()).toEqual(
        [
          'X-Request-Source',
          'anthropic-beta',
          'x-gateway-session-id',
          'x-gateway-spend-logs-metadata',
          'x-team-id',
        ].sort(),
      );
      // Two hops: what the built-in forwards to a same-kind gateway, that one forwards again.
      await gateway.probeModel('chained-same-kind', { headers: CLIENT_HEADERS });
      const hop = last(chain.external.received).headers;
      const final = last(chain.upstream.received).headers;
      for (const name of Object.keys(predicted)) {
        const real = mapHeaderName(name, 'toReal').toLowerCase();
        expect(hop[real], `${name} at the external gateway`).toBe(CLIENT_HEADERS[name]);
        expect(final[real], `${name} at the upstream`).toBe(CLIENT_HEADERS[name]);
      }
      expect(hop['x-api-key']).toBeUndefined();
      expect(final['x-api-key']).toBeUndefined();
    });

    it('a model missing from the built-in list: 400 "Invalid model name…" in the error envelope → model-not-in-list', async () => {
      const log: Captured = { lines: [] };
      const gateway = client(chain, chain.builtin.url, chain.masterKey, log);
      const upstreamCalls = chain.upstream.received.length;
      const error = await failure(gateway.probeModel('not-configured'));
      expect(error).toBeInstanceOf(BadRequestError);
      expect(error.status).toBe(400);
      const body = error.body as { error: Record<string, unknown> };
      expect(Object.keys(body.error)).toEqual(expect.arrayContaining(['code', 'message', 'param', 'type']));
      expect(body.error.code).toBe('400');
      const envelope = readGatewayError(error);
      expect(envelope?.message).toMatch(/Invalid model name passed in model=not-configured/);
      expect(envelope?.code).toBe('400');
      const diagnosis = diagnoseGatewayError(error);
      expect(diagnosis).toMatchObject({ origin: 'built-in', failure: 'model-not-in-list', status: 400 });
      expect(chain.upstream.received.length).toBe(upstreamCalls);
      expectNoSecret(chain, error, log.lines);
    });

    it('errors of the external gateway and the upstream are diagnosed as external', async () => {
      const gateway = client(chain, chain.builtin.url);
      const unknown = await failure(gateway.probeModel('chained-unknown'));
      expect(unknown.status).toBe(400);
      expect(last(chain.external.received).body.model).toBe('not-on-the-external-gateway');
      expect(diagnoseGatewayError(unknown)).toMatchObject({
        origin: 'external',
        failure: 'upstream-model-not-found',
      });
      const badKey = await failure(gateway.probeModel('direct-bad-key'));
      expect(badKey.status).toBe(401);
      expect(diagnoseGatewayError(badKey)).toMatchObject({ origin: 'external', failure: 'upstream-auth' });
      expectNoSecret(chain, unknown, badKey);
    });

    it('a wrong master key is diagnosed as gateway-auth, the key never shown', async () => {
      const wrong = `sk-wrong-${chain.masterKey.slice(-6)}x`;
      const log: Captured = { lines: [] };
      const gateway = client(chain, chain.builtin.url, wrong, log);
      const error = await failure(gateway.listModels());
      expect(diagnoseGatewayError(error)).toMatchObject({ origin: 'built-in', failure: 'gateway-auth' });
      const probe = await failure(gateway.probeModel('direct-compat'));
      expect(diagnoseGatewayError(probe)).toMatchObject({ origin: 'built-in', failure: 'gateway-auth' });
      // The gateway's own key header is read as the caller's key, in place of Authorization.
      const right = client(chain, chain.builtin.url);
      const keyHeader = await failure(
        right.probeModel('direct-compat', { headers: { 'x-gateway-api-key': wrong } }),
      );
      expect(diagnoseGatewayError(keyHeader)).toMatchObject({ origin: 'built-in', failure: 'gateway-auth' });
      for (const value of [error, probe, keyHeader, log.lines]) {
        expect([String(value), JSON.stringify(value), inspect(value, { depth: 8 })].join('\n')).not.toContain(
          wrong,
        );
      }
    });

    it('Pattern B: /v1/models lists the configured names and the compatible registry; the wildcard route itself on request', async () => {
      const gateway = client(chain, chain.wildcard.url);
      const ids = (await gateway.listModels()).map((model) => model.id);
      expect(ids).toContain('chained-same-kind');
      const registry = registryNames(ids);
      expect(registry.length).toBeGreaterThanOrEqual(200);
      expect(ids.length).toBeGreaterThanOrEqual(200);
      const withRoutes = await fetch(`${chain.wildcard.url}/v1/models?return_wildcard_routes=true`, {
        headers: { authorization: `Bearer ${chain.masterKey}` },
      });
      const routeIds = ((await withRoutes.json()) as { data: { id: string }[] }).data.map((m) => m.id);
      expect(routeIds).toContain('*');
      console.log(
        `gateway ${version}: wildcard list ${ids.length} entries (${registry.length} registry names, ${new Set(ids).size} distinct, literal "*" ${ids.includes('*') ? 'listed' : 'not listed'})`,
      );
    });

    it('Pattern B: a name is sent to the external gateway verbatim; one it does not serve is its 400', async () => {
      const gateway = client(chain, chain.wildcard.url);
      await gateway.probeModel('anthropic/claude-z');
      const hop = last(chain.external.received);
      expect(hop.path).toBe('/v1/chat/completions');
      expect(hop.body.model).toBe('anthropic/claude-z');

      const bare = await failure(gateway.probeModel('claude-z'));
      expect(bare.status).toBe(400);
      expect(last(chain.external.received).body.model).toBe('claude-z');
      expect(diagnoseGatewayError(bare)).toMatchObject({
        origin: 'external',
        failure: 'upstream-model-not-found',
      });

      // Every registry name of the list reaches the external gateway, which does not serve it (its 400). The
      // registry's mode of the name picks the endpoint: chat models go to /chat/completions with their prefix
      // (`openai/…` on the real wire up to 1.108; 1.110 sends the bare name, and its `…-latest` aliases as the
      // model they stand for), Responses-only models (the -pro, -codex and deep-research families) to
      // /responses (1.94.1 strips the prefix there), completion models to /completions. The list comes in a
      // different order on every start, so all of it is probed.
      const registry = registryNames((await gateway.listModels()).map((m) => m.id));
      const byPath: Record<string, number> = {};
      const aliases: string[] = [];
      for (const name of new Set(registry)) {
        const registryCall = await failure(gateway.probeModel(name));
        expect(registryCall.status, name).toBe(400);
        const hop = last(chain.external.received);
        byPath[hop.path] = (byPath[hop.path] ?? 0) + 1;
        if (listsBareNames && hop.body.model !== name && name.endsWith('-latest')) {
          aliases.push(`${name} → ${String(hop.body.model)}`);
          continue;
        }
        const real = listsBareNames ? name : name.replace(/^compat\//, 'openai/');
        const expected =
          hop.path === '/v1/responses' && version === '1.94.1' ? real.replace(/^openai\//, '') : real;
        expect(`${hop.path} ${hop.body.model}`, name).toMatch(
          new RegExp(`^/v1/(chat/completions|responses|completions) ${escapeRegExp(expected)}$`),
        );
      }
      expect(byPath['/v1/chat/completions']).toBeGreaterThan(registry.length / 2);
      expect(aliases.length).toBeLessThan(registry.length / 10);
      console.log(
        `gateway ${version}: registry names by endpoint ${JSON.stringify(byPath)}; aliases resolved: ${aliases.join(', ') || 'none'}`,
      );
    });

    it('/model/new, /model/delete and spend logs without a database: typed errors that say so, no key shown', async () => {
      const log: Captured = { lines: [] };
      const gateway = client(chain, chain.builtin.url, chain.masterKey, log);
      const entry = gatewayModelEntry({
        modelName: 'added-at-runtime',
        upstreamModel: 'model-d',
        provider: 'acme',
        gatewayKind: 'openai-compatible',
        apiBase: chain.upstream.url,
        apiKey: 'sk-literal-added-key',
      });
      const added = await failure(gateway.addModel(entry));
      expect(added).toBeInstanceOf(InternalServerError);
      expect(added.status).toBe(500);
      expect(readGatewayError(added)?.message).toMatch(/No DB Connected/);
      expect(diagnoseGatewayError(added)).toMatchObject({ origin: 'built-in', failure: 'no-database' });
      expect(added.message).toMatch(/database/i);
      // Not listed afterwards: nothing was added.
      expect((await gateway.listModels()).map((m) => m.id)).not.toContain('added-at-runtime');

      const deleted = await failure(gateway.deleteModel('some-id'));
      expect(deleted.status).toBe(500);
      expect(isNotFoundError(deleted)).toBe(false);
      expect(diagnoseGatewayError(deleted)?.failure).toBe('no-database');

      const spend = gateway.spendLogs({ startDate: '2026-01-01 00:00:00', endDate: '2026-01-02 00:00:00' });
      const spendError = await failure(spend.pages().next());
      expect(diagnoseGatewayError(spendError)?.failure).toBe('no-database');

      expectNoSecret(chain, added, deleted, spendError, log.lines);
      for (const value of [added, deleted, log.lines]) {
        expect(inspect(value, { depth: 8 }) + JSON.stringify(value)).not.toContain('sk-literal-added-key');
      }
    });

    it('the config the SDK built is what the proxies loaded (rendered to the real names)', () => {
      expect(chain.configs.builtin.config.proxy_config.general_settings).toEqual({
        forward_client_headers_to_llm_api: true,
      });
      expect(chain.configs.wildcard.notes.map((note) => note.code)).toContain('pattern-b-model-list-size');
      expect(Date.now() - started).toBeGreaterThan(0);
    });
  });
}
