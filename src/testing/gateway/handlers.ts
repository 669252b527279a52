import { HttpResponse, http } from 'msw/http';
import { bearer, gatewayError, jsonBody } from './envelope.js';
import { forwardCompletion } from './forward.js';
import { GatewayStore } from './store.js';

export interface GatewayHandlersOptions {
  /** `{builtin_gateway_url}`, e.g. `http://localhost:4000`. Default: any origin. */
  baseUrl?: string;
  /** The master key every call must carry as `Authorization: Bearer`. */
  masterKey: string;
  store?: GatewayStore;
  /** How the gateway reaches external gateways (default: the global fetch, so msw answers in tests). */
  fetch?: typeof fetch;
}

// `created` is a constant of the gateway, `owned_by` historically always this value.
const CREATED = 1677610602;

/**
 * Stateful msw handlers for the built-in gateway, answering as the real gateway does
 * (docs/compatibility.md, "Model gateway"): a model added is listed at once and kept in its database across
 * `store.restart()` (`store.reset()` empties it); spend rows come newest first;
 * chat completions are forwarded to the external gateway and logged as spend rows; errors use the gateway's
 * envelope; `store.database = false` answers as a gateway without a database.
 */
export function gatewayHandlers(options: GatewayHandlersOptions) {
  const store = options.store ?? new GatewayStore();
  const base = options.baseUrl ? options.baseUrl.replace(/\/+$/, '') : '*';
  const fetchImpl = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const denied = (request: Request) => {
    if (bearer(request) === options.masterKey) return undefined;
    // Without a database any other key cannot be looked up: the real gateway answers 400, not 401.
    if (!store.database) return gatewayError(400, 'No connected db.', 'no_db_connection', null);
    return gatewayError(401, 'Authentication Error, Invalid proxy server token passed.', 'auth_error');
  };
  const noDatabase = () =>
    gatewayError(
      500,
      `{'error': "No DB Connected. Here's how to do it - https://docs.example.com/proxy/virtual_keys"}`,
      'auth_error',
    );

  const listModels = ({ request }: { request: Request }) => {
    const refusal = denied(request);
    if (refusal) return refusal;
    const names = [...new Set(store.models.map((m) => m.model_name))];
    if (store.wildcard()) names.push(...store.wildcardRegistry.filter((name) => !names.includes(name)));
    return HttpResponse.json({
      data: names.map((id) => ({ id, object: 'model', created: CREATED, owned_by: 'openai' })),
      object: 'list',
    });
  };

  const modelInfo = ({ request }: { request: Request }) => {
    const refusal = denied(request);
    if (refusal) return refusal;
    return HttpResponse.json({
      data: store.models.map((m) => ({
        model_name: m.model_name,
        gateway_params: { model: m.gateway_params.model, api_base: m.gateway_params.api_base },
        model_info: { ...m.model_info, id: m.id, db_model: m.db_model },
      })),
    });
  };

  const completions = async ({ request }: { request: Request }) => {
    const refusal = denied(request);
    if (refusal) return refusal;
    const body = await jsonBody(request);
    if (!body || typeof body.model !== 'string')
      return gatewayError(400, 'model is required', 'bad_request_error', 'model');
    const entry = store.findByName(body.model) ?? store.wildcard();
    if (!entry) {
      // As the real gateway: 400, the message is the string form of its detail object.
      return gatewayError(
        400,
        `{'error': '/chat/completions: Invalid model name passed in model=${body.model}. Call \`/v1/models\` to view available models for your key.'}`,
        'invalid_request_error',
        'None',
      );
    }
    return forwardCompletion(store, entry, request, body, fetchImpl);
  };

  return [
    http.post(`${base}/model/new`, async ({ request }) => {
      const refusal = denied(request);
      if (refusal) return refusal;
      if (!store.database) return noDatabase();
      if (!store.storeModelInDb) {
        return gatewayError(
          500,
          "{'error': \"Set `'STORE_MODEL_IN_DB='True'` in your env to enable this feature.\"}",
          'auth_error',
        );
      }
      const body = await jsonBody(request);
      const params = body?.gateway_params as Record<string, unknown> | undefined;
      if (
        typeof body?.model_name !== 'string' ||
        typeof params !== 'object' ||
        params === null ||
        typeof params.model !== 'string'
      ) {
        return gatewayError(400, 'model_name and gateway_params.model are required', 'bad_request_error');
      }
      const stored = store.addModel({
        model_name: body.model_name,
        gateway_params: {
          model: params.model,
          api_base: String(params.api_base ?? ''),
          api_key: String(params.api_key ?? ''),
        },
      });
      const now = new Date().toISOString();
      // The stored row, its parameters encrypted.
      return HttpResponse.json({
        model_id: stored.id,
        model_name: stored.model_name,
        gateway_params: { model: '<encrypted>', api_base: '<encrypted>', api_key: '<encrypted>' },
        model_info: { id: stored.id, db_model: true },
        created_at: now,
        created_by: 'default_user_id',
        updated_at: now,
        updated_by: 'default_user_id',
        blocked: false,
      });
    }),
    // The partial update (LiteLLM's `patch_model`): its answers and messages as the real gateway gives them.
    http.patch(`${base}/model/:id/update`, async ({ request, params }) => {
      const refusal = denied(request);
      if (refusal) return refusal;
      if (!store.database) return noDatabase();
      const id = String(params.id);
      const body = (await jsonBody(request)) ?? {};
      const updated = store.updateModel(id, body as Parameters<GatewayStore['updateModel']>[1]);
      if (updated === 'config') {
        return gatewayError(
          400,
          'Cannot edit config-based model. Store model in DB via /model/new first.',
          'validation_error',
          null,
        );
      }
      if (!updated) return gatewayError(404, `Model ${id} not found on proxy.`, 'not_found_error', null);
      const now = new Date().toISOString();
      return HttpResponse.json({
        model_id: updated.id,
        model_name: updated.model_name,
        gateway_params: { model: '<encrypted>', api_base: '<encrypted>', api_key: '<encrypted>' },
        model_info: { ...updated.model_info, id: updated.id, db_model: true },
        updated_at: now,
        updated_by: 'default_user_id',
      });
    }),
    http.post(`${base}/model/delete`, async ({ request }) => {
      const refusal = denied(request);
      if (refusal) return refusal;
      if (!store.database) return noDatabase();
      const id = String((await jsonBody(request))?.id ?? '');
      if (!store.deleteModel(id)) {
        return gatewayError(400, `{'error': 'Model with id=${id} not found in db'}`, 'auth_error');
      }
      return HttpResponse.json({ message: `Model: ${id} deleted successfully` });
    }),
    http.get(`${base}/v1/models`, listModels),
    http.get(`${base}/models`, listModels),
    http.get(`${base}/model/info`, modelInfo),
    http.get(`${base}/v1/model/info`, modelInfo),
    http.post(`${base}/v1/chat/completions`, completions),
    http.post(`${base}/chat/completions`, completions),
    http.get(`${base}/spend/logs/v2`, ({ request }) => {
      const refusal = denied(request);
      if (refusal) return refusal;
      if (!store.database) return gatewayError(401, 'Prisma Client is not initialized', 'internal_error');
      const url = new URL(request.url);
      const rawStart = url.searchParams.get('start_date');
      const rawEnd = url.searchParams.get('end_date');
      if (!rawStart || !rawEnd) {
        return gatewayError(400, 'Start date and end date are required', 'bad_request_error');
      }
      const start = gatewayTime(rawStart);
      const end = gatewayTime(rawEnd);
      if (Number.isNaN(start) || Number.isNaN(end)) {
        // The real gateway fails to parse anything but "YYYY-MM-DD HH:MM:SS".
        return gatewayError(
          500,
          `time data '${Number.isNaN(start) ? rawStart : rawEnd}' does not match format '%Y-%m-%d %H:%M:%S'`,
          'internal_server_error',
        );
      }
      const page = Number(url.searchParams.get('page') ?? 1);
      const pageSize = Number(url.searchParams.get('page_size') ?? 50);
      if (
        !Number.isInteger(page) ||
        page < 1 ||
        !Number.isInteger(pageSize) ||
        pageSize < 1 ||
        pageSize > 100
      ) {
        // FastAPI's validation answer (page >= 1, 1 <= page_size <= 100).
        return HttpResponse.json(
          {
            detail: [
              {
                loc: ['query', page < 1 ? 'page' : 'page_size'],
                msg: 'Input should be less than or equal to 100',
                type: 'less_than_equal',
              },
            ],
          },
          { status: 422 },
        );
      }
      // Newest first, as the real gateway orders them (docs/compatibility.md, G6).
      const rows = store.spendLogs
        .filter((row) => {
          const at = Date.parse(row.startTime);
          return at >= start && at <= end;
        })
        .sort((a, b) => Date.parse(b.startTime) - Date.parse(a.startTime));
      return HttpResponse.json({
        data: rows.slice((page - 1) * pageSize, page * pageSize),
        total: rows.length,
        page,
        page_size: pageSize,
        total_pages: Math.ceil(rows.length / pageSize),
      });
    }),
  ];
}

function gatewayTime(value: string | null): number {
  if (!value) return Number.NaN;
  return /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(value)
    ? Date.parse(`${value.replace(' ', 'T')}Z`)
    : Number.NaN;
}
