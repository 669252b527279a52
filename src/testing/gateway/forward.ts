import { HttpResponse } from 'msw/http';
import { forwardedClientHeaders } from '../../gateway/forwarded-headers.js';
import { gatewayError } from './envelope.js';
import type { GatewayStore, StoredGatewayModel } from './store.js';

const SESSION_ID_HEADER = 'x-gateway-session-id';
const SPEND_METADATA_HEADER = 'x-gateway-spend-logs-metadata';

/**
 * What the built-in gateway sends upstream for an entry, as the real one does (docs/compatibility.md, "Model
 * gateway"): `gateway_proxy/<m>` → `<m>` and `compat/<rest>` → `<rest>` (split on the first slash), both to
 * `<api_base>/chat/completions`. For the wildcard (`compat/*`) the requested name itself is sent, verbatim.
 */
export function upstreamCall(
  entry: StoredGatewayModel,
  requested: string,
): { url: string; model: string } | undefined {
  const { model, api_base: apiBase } = entry.gateway_params;
  const base = apiBase.replace(/\/+$/, '');
  if (model.startsWith('gateway_proxy/')) {
    return { url: `${base}/chat/completions`, model: model.slice('gateway_proxy/'.length) };
  }
  if (model === 'compat/*') return { url: `${base}/chat/completions`, model: requested };
  if (model.startsWith('compat/'))
    return { url: `${base}/chat/completions`, model: model.slice('compat/'.length) };
  return undefined;
}

/** Forwards one chat completion through the chain and records its spend row. */
export async function forwardCompletion(
  store: GatewayStore,
  entry: StoredGatewayModel,
  request: Request,
  body: Record<string, unknown>,
  fetchImpl: typeof fetch,
): Promise<Response> {
  const requested = String(body.model);
  const call = upstreamCall(entry, requested);
  if (!call)
    return gatewayError(
      400,
      `unsupported routing prefix in ${entry.gateway_params.model}`,
      'bad_request_error',
    );
  const incoming = Object.fromEntries(request.headers);
  const key = store.resolveKey(entry.gateway_params.api_key);
  // The body `user` is recorded here, and passed on only to a same-kind gateway (as the real gateway does).
  const { user, ...rest } = body;
  const forwardedBody = entry.gateway_params.model.startsWith('gateway_proxy/') ? body : rest;
  const started = new Date();
  let upstream: Response;
  try {
    upstream = await fetchImpl(call.url, {
      method: 'POST',
      headers: {
        ...forwardedClientHeaders(incoming, { forwardingEnabled: store.forwardClientHeaders }),
        'content-type': 'application/json',
        ...(key ? { authorization: `Bearer ${key}` } : {}),
      },
      body: JSON.stringify({ ...forwardedBody, model: call.model }),
    });
  } catch (error) {
    return gatewayError(500, `Connection error: ${String(error)}`, 'internal_server_error');
  }
  const text = await upstream.text();
  if (!upstream.ok) {
    const provider = entry.gateway_params.model.startsWith('gateway_proxy/') ? 'Gateway_proxy' : 'Compat';
    // Upstream errors carry "<Class>: <Provider>Exception - <upstream message>".
    return gatewayError(
      upstream.status,
      `${errorClass(upstream.status)}: ${provider}Exception - ${upstreamMessage(text)}`,
      null,
    );
  }
  store.spendLogs.push({
    request_id: readId(text) ?? crypto.randomUUID(),
    call_type: 'acompletion',
    spend: store.spendPerCall,
    startTime: started.toISOString(),
    endTime: new Date().toISOString(),
    model: call.model,
    model_id: entry.id,
    model_group: entry.model_name === '*' ? requested : entry.model_name,
    user: typeof user === 'string' ? user : null,
    session_id: incoming[SESSION_ID_HEADER] ?? null,
    metadata: { spend_logs_metadata: parseMetadata(incoming[SPEND_METADATA_HEADER]) },
    request_tags: [],
    status: 'success',
  });
  return new HttpResponse(text, { status: 200, headers: { 'content-type': 'application/json' } });
}

function errorClass(status: number): string {
  if (status === 400) return 'BadRequestError';
  if (status === 401) return 'AuthenticationError';
  if (status === 404) return 'NotFoundError';
  return 'APIError';
}

function upstreamMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown }; detail?: unknown };
    if (typeof body.error?.message === 'string') return body.error.message;
    if (typeof body.detail === 'string') return body.detail;
  } catch {}
  return text.slice(0, 200);
}

function readId(text: string): string | undefined {
  try {
    const id = (JSON.parse(text) as { id?: unknown }).id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

function parseMetadata(value: string | undefined): unknown {
  if (value === undefined) return null;
  try {
    return JSON.parse(value);
  } catch {
    return null;
  }
}
