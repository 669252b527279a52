// G3 (docs/compatibility.md): LiteLLM 1.108.7 answers /model/new with a 500 after storing a model its router
// could not load (a provider it does not know); 1.94.1 answers 200. The body is the real one of the run.
import { HttpResponse, http } from 'msw/http';
import { expect, it } from 'vitest';
import { isInternalServerError } from '../../src/core/errors.js';
import { diagnoseGatewayError, GatewayAdminClient, gatewayModelEntry } from '../../src/gateway/index.js';
import { useMswServer } from '../helpers/msw.js';

const GATEWAY = 'http://gateway.test';
const REAL_500 = {
  error: {
    message:
      "Model create was saved to the database, but the model id(s) ['20bbe36c-6d8e-4f06-ac36-10b93b68c0e1'] are not live in this pod's router after the reload and are not being served by this pod. Other pods reload on their own interval. Check server logs for 'Error upserting deployment' or 'Error creating deployment' for the cause.",
    type: 'internal_server_error',
    param: null,
    code: '500',
  },
};
// The other wording of the same 500 (litellm/proxy/management_endpoints/model_management_endpoints.py,
// raise_if_reload_degraded_serving): the written model is live but the reload dropped others.
const COLLATERAL_500 = {
  error: {
    ...REAL_500.error,
    message:
      "Model create was saved to the database, but the reload it triggered degraded this pod's serving state. Previously served model id(s) ['a1'] are also no longer being served by this pod. Other pods reload on their own interval. Check server logs for 'Error upserting deployment' or 'Error creating deployment' for the cause.",
  },
};
const OTHER_500 = { error: { ...REAL_500.error, message: 'Something else failed' } };
let answer: typeof REAL_500 = REAL_500;
useMswServer(http.post(`${GATEWAY}/model/new`, () => HttpResponse.json(answer, { status: 500 })));

it('a 500 "saved … not live" says the model was stored (saved-not-live), not that adding failed', async () => {
  const gateway = new GatewayAdminClient({
    baseUrl: GATEWAY,
    masterKey: 'sk-master',
    maxRetries: 0,
    logLevel: 'off',
  });
  const entry = gatewayModelEntry({
    modelName: 'm',
    upstreamModel: 'x',
    provider: 'acme',
    gatewayKind: 'openai-compatible',
    apiBase: 'https://upstream.test/v1',
    apiKey: { env: 'UPSTREAM_KEY' },
  });
  const error = await gateway.addModel(entry).catch((e: unknown) => e);
  expect(diagnoseGatewayError(error)).toMatchObject({
    origin: 'built-in',
    failure: 'saved-not-live',
    status: 500,
  });
  expect(String((error as Error).message)).toMatch(/was stored in the gateway's database/);
  expect(String((error as Error).message)).toMatch(/do not add it again/);
  // issue 34 item 6: a code an app can test without reading the text; still an InternalServerError.
  expect(isInternalServerError(error)).toBe(true);
  expect((error as { code?: string }).code).toBe('GATEWAY_MODEL_SAVED_NOT_LIVE');
  expect(JSON.parse(JSON.stringify(error)).code).toBe('GATEWAY_MODEL_SAVED_NOT_LIVE');
});

it.each([
  ['the reload dropped other models', COLLATERAL_500, 'GATEWAY_MODEL_SAVED_NOT_LIVE'],
  ['any other 500', OTHER_500, undefined],
])('%s', async (_, body, code) => {
  answer = body;
  const gateway = new GatewayAdminClient({
    baseUrl: GATEWAY,
    masterKey: 'sk-master',
    maxRetries: 0,
    logLevel: 'off',
  });
  const entry = gatewayModelEntry({
    modelName: 'm',
    upstreamModel: 'x',
    provider: 'acme',
    gatewayKind: 'openai-compatible',
    apiBase: 'https://upstream.test/v1',
    apiKey: { env: 'UPSTREAM_KEY' },
  });
  const error = await gateway.addModel(entry).catch((e: unknown) => e);
  answer = REAL_500;
  expect(isInternalServerError(error)).toBe(true);
  expect((error as { code?: string }).code).toBe(code);
  expect(diagnoseGatewayError(error)?.failure).toBe(code ? 'saved-not-live' : 'other');
});
