// Issue 34 item 5: GatewayAdminClient.updateModel, `PATCH /model/{id}/update`, against the msw doubles (the
// real proxy with its database: test/conformance/gateway-database.test.ts).
import { inspect } from 'node:util';
import { HttpResponse, http } from 'msw/http';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  isBadRequestError,
  isInternalServerError,
  isNotFoundError,
  isRequestValidationError,
} from '../../src/core/errors.js';
import { diagnoseGatewayError, GatewayAdminClient, gatewayModelEntry } from '../../src/gateway/index.js';
import { GatewayStore, gatewayHandlers } from '../../src/testing.js';
import { useMswServer } from '../helpers/msw.js';

const BASE = 'http://update-gateway.test:4000';
const MASTER = 'sk-master-update-0001';
const store = new GatewayStore({
  config: {
    model_list: [
      {
        model_name: 'configured',
        gateway_params: { model: 'gateway_proxy/c', api_base: 'http://gw:4000', api_key: 'os.environ/K' },
      },
    ],
  },
});
const { server, requests } = useMswServer(...gatewayHandlers({ baseUrl: BASE, masterKey: MASTER, store }));
const client = new GatewayAdminClient({ baseUrl: BASE, masterKey: MASTER, logLevel: 'off', maxRetries: 0 });
beforeEach(() => store.reset());

const entry = () =>
  gatewayModelEntry({
    modelName: 'editable',
    upstreamModel: 'up-1',
    gatewayKind: 'same-kind',
    apiBase: 'http://gw:4000',
    apiKey: 'sk-upstream-first-1111',
  });

describe('GatewayAdminClient.updateModel', () => {
  it('changes only the fields it is given, by id, and the model keeps answering', async () => {
    const added = await client.addModel(entry());
    const updated = await client.updateModel(added.id as string, {
      gateway_params: { model: 'gateway_proxy/up-2' },
      model_info: { description: 'second' },
    });
    expect(updated).toEqual({ id: added.id, model_name: 'editable' });
    const info = (await client.modelInfo()).find((item) => item.model_info.id === added.id);
    expect(info?.gateway_params).toEqual({ model: 'gateway_proxy/up-2', api_base: 'http://gw:4000' });
    expect(info?.model_info.description).toBe('second');
    expect(store.models.find((m) => m.id === added.id)?.gateway_params.api_key).toBe(
      'sk-upstream-first-1111',
    );

    const renamed = await client.updateModel(added.id as string, { model_name: 'renamed' });
    expect(renamed.model_name).toBe('renamed');
    expect((await client.listModels()).map((m) => m.id)).toEqual(['configured', 'renamed']);
    const sent = requests.filter((r) => r.method === 'PATCH').map((r) => new URL(r.url).pathname);
    expect(sent).toEqual([`/model/${added.id}/update`, `/model/${added.id}/update`]);
  });

  it('a new key is registered for redaction; an unknown id is a NotFoundError; a configured one a BadRequestError', async () => {
    const added = await client.addModel(entry());
    await client.updateModel(added.id as string, { gateway_params: { api_key: 'sk-PLANTED-new-key-2222' } });
    expect(store.models.find((m) => m.id === added.id)?.gateway_params.api_key).toBe(
      'sk-PLANTED-new-key-2222',
    );
    const missing = await client
      .updateModel('no-such-id', { model_info: { description: 'sk-PLANTED-new-key-2222' } })
      .catch((e: unknown) => e);
    expect(isNotFoundError(missing)).toBe(true);
    expect(`${inspect(missing, { depth: 8 })} ${JSON.stringify(missing)}`).not.toContain(
      'sk-PLANTED-new-key-2222',
    );
    const configured = store.models.find((m) => !m.db_model)?.id as string;
    const refused = await client.updateModel(configured, { model_name: 'x' }).catch((e: unknown) => e);
    expect(isBadRequestError(refused)).toBe(true);
    expect(String(refused)).toMatch(/config-based model/);
  });

  it('refuses bad input before any request, naming the field', async () => {
    const cases: [unknown, unknown, string][] = [
      ['', { model_name: 'x' }, 'id'],
      ['..', { model_name: 'x' }, 'id'],
      ['a/b', { model_name: 'x' }, 'id'],
      ['id-1', {}, 'update'],
      ['id-1', null, 'update'],
      ['id-1', { model_name: '' }, 'update.model_name'],
      ['id-1', { gateway_params: { model: 3 } }, 'update.gateway_params.model'],
      ['id-1', { gateway_params: [] }, 'update.gateway_params'],
      ['id-1', { model_info: 'x' }, 'update.model_info'],
      ['id-1', { litellm_params: {} }, 'update.litellm_params'],
    ];
    for (const [id, update, field] of cases) {
      const error = await client.updateModel(id as string, update as never).catch((e: unknown) => e);
      expect(isRequestValidationError(error), `${JSON.stringify([id, update])}: ${error}`).toBe(true);
      expect(String(error)).toContain(`${field}:`);
    }
    expect(requests).toHaveLength(0);
  });

  it('the 500 "Model update was saved to the database, but …" has the saved-not-live code', async () => {
    server.use(
      http.patch(`${BASE}/model/:id/update`, () =>
        HttpResponse.json(
          {
            error: {
              message:
                "Model update was saved to the database, but the model id(s) ['m1'] are not live in this pod's router after the reload and are not being served by this pod. Other pods reload on their own interval.",
              type: 'internal_server_error',
              param: null,
              code: '500',
            },
          },
          { status: 500 },
        ),
      ),
    );
    const error = await client.updateModel('m1', { model_name: 'x' }).catch((e: unknown) => e);
    expect(isInternalServerError(error)).toBe(true);
    expect((error as { code?: string }).code).toBe('GATEWAY_MODEL_SAVED_NOT_LIVE');
    expect(diagnoseGatewayError(error)?.failure).toBe('saved-not-live');
  });

  it('without a database: the error says so', async () => {
    store.database = false;
    const error = await client.updateModel('m1', { model_name: 'x' }).catch((e: unknown) => e);
    store.database = true;
    expect(isInternalServerError(error)).toBe(true);
    expect(diagnoseGatewayError(error)?.failure).toBe('no-database');
  });
});
