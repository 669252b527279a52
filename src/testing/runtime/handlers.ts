import { HttpResponse, http } from 'msw/http';
import type { WarmRuntimeConfigBody } from '../../runtime/schemas.js';
import { RuntimeApiState, type RuntimeApiStateOptions } from './state.js';

export interface RuntimeApiHandlersOptions extends RuntimeApiStateOptions {
  /** `{runtime_api_url}` the handlers answer for, e.g. `http://runtime-api.test`. Default: any origin. */
  baseUrl?: string;
  /** Shared state (inspect it, or serve it from several handler sets). Default: a new one from the options. */
  state?: RuntimeApiState;
}

const CONFIGS = '/warm-runtime-configs/';

/**
 * msw handlers that answer like the real runtime API, FastAPI error bodies
 * included: `GET /api/admin/challenge`, `POST /api/admin/login`, `GET /api/admin/api-keys`,
 * `GET /api/warm-runtime-configs` (`X-API-Key` only), `PUT` and `DELETE /api/admin/warm-runtime-configs/{name}`
 * (admin JWT only). 401 for a bad, expired or missing credential; 403 `Admin functionality is disabled`
 * without an admin password; 404 for a DELETE with no database entry; 422 for a body missing required fields.
 */
export function runtimeApiHandlers(options: RuntimeApiHandlersOptions = {}) {
  const state = options.state ?? new RuntimeApiState(options);
  const base = options.baseUrl ? options.baseUrl.replace(/\/+$/, '') : '*';

  const record = (request: Request, response: Response): Response => {
    state.log.push({
      method: request.method,
      path: new URL(request.url).pathname,
      status: response.status,
      bearer: /^bearer\s/i.test(request.headers.get('authorization') ?? ''),
      apiKey: request.headers.has('x-api-key'),
    });
    return response;
  };
  const detail = (status: number, text: string) => HttpResponse.json({ detail: text }, { status });

  /** The admin routes' check: admin enabled, then a valid bearer JWT (an API key does not count). */
  const adminRefusal = (request: Request): Response | undefined => {
    if (state.adminPassword === null) return detail(403, 'Admin functionality is disabled');
    const header = request.headers.get('authorization') ?? '';
    const match = /^bearer\s+(.+)$/i.exec(header);
    if (!match) return detail(401, 'Not authenticated');
    return state.verifyToken(match[1]!.trim()) ? undefined : detail(401, 'invalid token');
  };

  return [
    http.get(`${base}/api/admin/challenge`, ({ request }) =>
      record(request, HttpResponse.json(state.issueChallenge())),
    ),

    http.post(`${base}/api/admin/login`, async ({ request }) => {
      const body = await readJson(request);
      const missing = ['challenge', 'hash'].filter((field) => typeof body?.[field] !== 'string');
      if (body === undefined || missing.length > 0) {
        return record(request, validationError(missing.length > 0 ? missing : ['challenge', 'hash'], body));
      }
      const outcome = await state.login(body.challenge as string, body.hash as string);
      return record(
        request,
        outcome.ok ? HttpResponse.json({ token: outcome.token }) : detail(outcome.status, outcome.detail),
      );
    }),

    http.get(`${base}/api/admin/api-keys`, ({ request }) => {
      const refusal = adminRefusal(request);
      return record(request, refusal ?? HttpResponse.json(structuredClone(state.apiKeys)));
    }),

    http.get(`${base}/api/warm-runtime-configs`, ({ request }) => {
      if (!state.isApiKey(request.headers.get('x-api-key'))) {
        return record(request, detail(401, 'provide a valid API key'));
      }
      return record(request, HttpResponse.json({ configs: state.effectiveConfigs() }));
    }),

    http.put(`${base}/api/admin/warm-runtime-configs/:name`, async ({ request }) => {
      const refusal = adminRefusal(request);
      if (refusal) return record(request, refusal);
      const body = await readJson(request);
      const problems = checkBody(body);
      if (problems) return record(request, problems);
      return record(request, HttpResponse.json(state.put(nameFrom(request), body as WarmRuntimeConfigBody)));
    }),

    http.delete(`${base}/api/admin/warm-runtime-configs/:name`, ({ request }) => {
      const refusal = adminRefusal(request);
      if (refusal) return record(request, refusal);
      const name = nameFrom(request);
      if (!state.delete(name)) return record(request, detail(404, `Configuration "${name}" not found`));
      return record(request, HttpResponse.json({ message: `Configuration "${name}" deleted successfully` }));
    }),
  ];
}

function nameFrom(request: Request): string {
  const path = new URL(request.url).pathname;
  return decodeURIComponent(path.slice(path.lastIndexOf(CONFIGS) + CONFIGS.length));
}

async function readJson(request: Request): Promise<Record<string, unknown> | undefined> {
  try {
    const value: unknown = await request.json();
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** FastAPI's 422 for missing body fields. */
function validationError(fields: string[], input: unknown, type = 'missing', msg = 'Field required') {
  return HttpResponse.json(
    { detail: fields.map((field) => ({ type, loc: ['body', field], msg, input: input ?? null })) },
    { status: 422 },
  );
}

/** Pydantic's checks of the configuration model: required fields and their types. */
function checkBody(body: Record<string, unknown> | undefined): Response | undefined {
  if (body === undefined) {
    return HttpResponse.json(
      {
        detail: [
          {
            type: 'model_attributes_type',
            loc: ['body'],
            msg: 'Input should be a valid dictionary',
            input: null,
          },
        ],
      },
      { status: 422 },
    );
  }
  const missing = ['image', 'working_dir', 'command', 'environment'].filter((field) => body[field] == null);
  if (missing.length > 0) return validationError(missing, body);
  const wrong: { field: string; type: string; msg: string }[] = [];
  if (typeof body.image !== 'string')
    wrong.push({ field: 'image', type: 'string_type', msg: 'Input should be a valid string' });
  if (typeof body.working_dir !== 'string')
    wrong.push({ field: 'working_dir', type: 'string_type', msg: 'Input should be a valid string' });
  if (!Array.isArray(body.command) || body.command.some((part) => typeof part !== 'string'))
    wrong.push({ field: 'command', type: 'list_type', msg: 'Input should be a valid list of strings' });
  if (
    typeof body.environment !== 'object' ||
    Array.isArray(body.environment) ||
    Object.values(body.environment as object).some((value) => typeof value !== 'string')
  )
    wrong.push({
      field: 'environment',
      type: 'dict_type',
      msg: 'Input should be a valid dictionary of strings',
    });
  for (const field of ['count', 'run_as_user', 'run_as_group', 'fs_group']) {
    if (body[field] != null && !Number.isInteger(body[field]))
      wrong.push({ field, type: 'int_type', msg: 'Input should be a valid integer' });
  }
  if (body.fuse_s3_mount != null && typeof body.fuse_s3_mount !== 'boolean')
    wrong.push({ field: 'fuse_s3_mount', type: 'bool_type', msg: 'Input should be a valid boolean' });
  if (wrong.length === 0) return undefined;
  return HttpResponse.json(
    {
      detail: wrong.map(({ field, type, msg }) => ({ type, loc: ['body', field], msg, input: body[field] })),
    },
    { status: 422 },
  );
}
