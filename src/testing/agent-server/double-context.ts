import { HttpResponse } from 'msw/http';
import { conversationNotFound, isUnauthorized, unauthorized, validationError } from './responses.js';
import { type AgentServerStore, isUuid } from './store.js';

/** What every group of API doubles shares: where it answers, auth and the conversations. */
export interface DoubleContext {
  /** `{base_url}` without a trailing slash, or `*` for any origin. */
  readonly base: string;
  readonly store: AgentServerStore;
  /** The simulated agent-server version, where answers differ by version (default: the newest). */
  readonly version?: string | undefined;
  /** Auth and, for a route under a conversation, its lookup; `undefined` means go on. */
  guard(request: Request, params: Record<string, unknown>): Response | undefined;
}

/** Path parameters that name a conversation, in the spellings the doubles' routes use. */
const CONVERSATION_PARAMS = ['runtimeId', 'conversationId', 'runtime_conversation_id', 'conversation_id'];

export function doubleContext(
  base: string,
  store: AgentServerStore,
  key: string | undefined,
  version?: string,
): DoubleContext {
  return {
    base,
    store,
    version,
    guard(request, params) {
      if (isUnauthorized(request, key)) return unauthorized();
      for (const name of CONVERSATION_PARAMS) {
        const id = params[name];
        if (id === undefined) continue;
        if (!isUuid(String(id)))
          return validationError([
            { type: 'uuid_parsing', loc: ['path', name], msg: 'Input should be a valid UUID' },
          ]);
        if (!store.getConversation(String(id))) return conversationNotFound(String(id));
      }
      return undefined;
    },
  };
}

/** An OpenAPI path template (`/api/x/{name}`) as an msw route on `base` (`/api/x/:name`). */
export function route(ctx: DoubleContext, template: string): string {
  return `${ctx.base}${template.replace(/\{([^}]+)\}/g, ':$1')}`;
}

/** The JSON body as an object (`{}` when absent or not an object). */
export async function jsonBody(request: Request): Promise<Record<string, unknown>> {
  const body = await request.json().catch(() => null);
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : {};
}

/** FastAPI's 422 for a required field that is absent. */
export function fieldRequired(...loc: string[]): Response {
  return validationError([{ type: 'missing', loc, msg: 'Field required' }]);
}

/** FastAPI's `HTTPException(status, detail)`. */
export function detail(status: number, message: string): Response {
  return HttpResponse.json({ detail: message }, { status });
}

/** A query parameter, or the 422 FastAPI gives when a required one is absent. */
export function requiredQuery(request: Request, name: string): string | Response {
  const value = new URL(request.url).searchParams.get(name);
  return value === null ? fieldRequired('query', name) : value;
}
