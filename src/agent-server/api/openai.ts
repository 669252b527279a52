import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../core/options.js';
import { invalid } from '../invalid.js';
import type { ApiContext } from './api-context.js';
import { shape } from './decode.js';
import { op } from './operation.js';
import { optionalString, requireObject } from './paths.js';
import type { JsonObject } from './types.js';

export const OPENAI_OPERATIONS = {
  models: op('GET', '/v1/models', '1.31.1'),
  chatCompletions: op('POST', '/v1/chat/completions', '1.31.1'),
  responses: op('POST', '/v1/responses', '1.58.0'),
} as const;

/** Observability headers the `/v1` routes accept (`X-OpenHands-…`). */
export interface OpenAIRouteHeaders {
  /** Charge the call to this conversation (`X-OpenHands-ServerConversation-ID`, chat completions only). */
  conversationId?: string;
  spanName?: string;
  /** Comma-separated, as the server splits them (openai/router.py, `_parse_observability_overrides`). */
  tags?: string;
  /** A JSON object, as text. */
  metadata?: string;
  parentSpanContext?: string;
}

/**
 * The server's OpenAI-compatible routes, answered with the server's saved LLM. Non-streamed answers only:
 * `stream: true` is refused before sending (see docs/agent-server-client.md, "Exclusions").
 */
export class OpenAIApi {
  constructor(readonly api: ApiContext) {}

  models(options: RequestOptions = {}): APIPromise<{ object?: string; data: JsonObject[] }> {
    return this.api.call(OPENAI_OPERATIONS.models, { decode: shape({ data: 'array' }), options });
  }

  chatCompletions(
    request: JsonObject,
    headers: OpenAIRouteHeaders = {},
    options: RequestOptions = {},
  ): Promise<JsonObject> {
    return this.#post(OPENAI_OPERATIONS.chatCompletions, request, headers, options);
  }

  responses(
    request: JsonObject,
    headers: OpenAIRouteHeaders = {},
    options: RequestOptions = {},
  ): Promise<JsonObject> {
    return this.#post(OPENAI_OPERATIONS.responses, request, headers, options);
  }

  #post(
    operation: (typeof OPENAI_OPERATIONS)['responses'],
    request: JsonObject,
    headers: OpenAIRouteHeaders,
    options: RequestOptions,
  ) {
    requireObject(request, 'request');
    if (request.stream === true) throw invalid('request.stream', 'streaming is not supported here; omit it');
    const wire: Record<string, string> = {};
    const add = (name: string, value: unknown, field: string) => {
      const text = optionalString(value, field);
      if (text !== undefined) wire[name] = text;
    };
    add('X-OpenHands-ServerConversation-ID', headers.conversationId, 'headers.conversationId');
    add('X-OpenHands-Observability-Span-Name', headers.spanName, 'headers.spanName');
    add('X-OpenHands-Observability-Tags', headers.tags, 'headers.tags');
    add('X-OpenHands-Observability-Metadata', headers.metadata, 'headers.metadata');
    add(
      'X-OpenHands-Observability-Parent-Span-Context',
      headers.parentSpanContext,
      'headers.parentSpanContext',
    );
    return this.api.call<JsonObject>(operation, { json: request, headers: wire, decode: shape(), options });
  }
}
