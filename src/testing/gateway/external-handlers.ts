import { HttpResponse, http } from 'msw/http';
import { bearer, gatewayError, jsonBody } from './envelope.js';

/** One call the external gateway received, for assertions on what crossed the chain. */
export interface ReceivedUpstreamCall {
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

export interface ExternalGatewayHandlersOptions {
  /** `{external_gateway_url}`, e.g. `https://gw.example.com`. */
  baseUrl: string;
  /**
   * A `same-kind` gateway serves `/v1/chat/completions` (and `/chat/completions`) and names models
   * by its own `model_name`; an `openai-compatible` one serves `/v1/chat/completions` and names models
   * `<provider>/<model>`.
   */
  kind: 'same-kind' | 'openai-compatible';
  /** Keys (or virtual keys) it accepts as bearer tokens. */
  keys: string[];
  /** Model names it serves, as it expects them in the body `model` field. */
  models: string[];
  /** Every call it receives is appended here. */
  received?: ReceivedUpstreamCall[];
}

/**
 * msw handlers for an external gateway behind the built-in one: 401 for a bad key, 400 "model not
 * found" for a name it does not serve, 404 for any other path (a wrong `/v1` rule lands here).
 */
export function externalGatewayHandlers(options: ExternalGatewayHandlersOptions) {
  const base = options.baseUrl.replace(/\/+$/, '');
  const paths =
    options.kind === 'same-kind' ? ['/v1/chat/completions', '/chat/completions'] : ['/v1/chat/completions'];
  const completions = paths.map((path) =>
    http.post(`${base}${path}`, async ({ request }) => {
      const body = (await jsonBody(request)) ?? {};
      options.received?.push({ path, headers: Object.fromEntries(request.headers), body });
      const key = bearer(request);
      if (!key || !options.keys.includes(key)) {
        return gatewayError(401, 'Authentication Error, invalid or missing key', 'auth_error');
      }
      const model = typeof body.model === 'string' ? body.model : '';
      if (!options.models.includes(model)) {
        return gatewayError(400, `model not found: ${model}`, 'invalid_request_error', 'model');
      }
      return HttpResponse.json({
        id: `chatcmpl-${crypto.randomUUID()}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: 'pong' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      });
    }),
  );
  const notFound = http.all(`${base}/*`, async ({ request }) => {
    const body = (await jsonBody(request)) ?? {};
    options.received?.push({
      path: new URL(request.url).pathname,
      headers: Object.fromEntries(request.headers),
      body,
    });
    return HttpResponse.json({ detail: 'Not Found' }, { status: 404 });
  });
  return [...completions, notFound];
}
