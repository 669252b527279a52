import { HttpResponse, http } from 'msw/http';
import { AgentRunner, type AgentRunnerOptions } from './agent-runner.js';
import { filterEvents, pageOf, sortByTimestamp } from './event-search.js';
import {
  checkLimit,
  conversationNotFound,
  internalError,
  invalidUuid,
  isUnauthorized,
  plainStatus,
  success,
  unauthorized,
  validationError,
} from './responses.js';
import { withSkillsAsAsked } from './skills-trim.js';
import { AgentServerStore, isUuid, type StoredConversation, type StoredEvent } from './store.js';
import { DEFAULT_AGENT_SERVER_VERSION, versionAtLeast } from './versions.js';

export interface AgentServerHandlersOptions {
  /** `{base_url}` the handlers answer for, e.g. `http://localhost:8000`. Default: any origin. */
  baseUrl?: string;
  /** When set, requests without this `X-Session-API-Key` get 401. */
  sessionApiKey?: string;
  store?: AgentServerStore;
  /**
   * What `GET /server_info` reports, and which answers and websocket features the handlers give. Default: the
   * newest real version the conformance suite runs (`DEFAULT_AGENT_SERVER_VERSION`).
   */
  version?: string;
  /** The simulated agent behind `run` and `send(…, {run: true})`. */
  agent?: AgentRunnerOptions;
}

const runners = new WeakMap<AgentServerStore, AgentRunner>();

/** The one agent runner of a store, shared by the HTTP and socket handlers (so a 409 sees both). */
export function agentRunnerFor(store: AgentServerStore, options?: AgentRunnerOptions): AgentRunner {
  let runner = runners.get(store);
  if (!runner) {
    runner = new AgentRunner(store, options);
    runners.set(store, runner);
  }
  return runner;
}

const STARTED = Date.now();

/**
 * msw handlers that answer like the real agent server, quirks included: 401
 * `{"detail":"Unauthorized"}`, 422 for a non-UUID conversation id or `limit` ≤ 0, 500 for `limit` > 100,
 * 404 for an unknown conversation, 500 "Unknown event_id" for an unknown event, the `kind` filter that
 * needs module paths, `next_page_id` = first id of the next page, 201/200 on start, 400 for pause and delete
 * of an unknown id, 409 for run while running, `{success: false}` for a title on an unknown id.
 */
export function agentServerHandlers(options: AgentServerHandlersOptions) {
  const store = options.store ?? new AgentServerStore();
  const base = options.baseUrl ? options.baseUrl.replace(/\/+$/, '') : '*';
  const runner = agentRunnerFor(store, options.agent);
  const key = options.sessionApiKey;
  // Recorded from the real servers (docs/compatibility.md): 1.58.0 answers an unknown conversation or event
  // with 404 {"detail":"Not Found"} on every route; 1.45.0 and older answered 400 (pause, delete), 500
  // (event) or 200 {"success": false} (title).
  const uniformNotFound = versionAtLeast(options.version, [1, 58, 0]);
  // Skills left out of every ConversationInfo unless asked for: 1.31.1 and later.
  const shown = <T>(info: T, request: Request): T =>
    versionAtLeast(options.version, [1, 31, 1]) ? withSkillsAsAsked(info, request) : info;

  /** Auth, UUID and lookup of `:conversationId`, as the server's dependencies do. */
  const lookup = (
    request: Request,
    params: Record<string, unknown>,
    missing: (id: string) => Response = conversationNotFound,
  ): { conversation: StoredConversation } | { response: Response } => {
    if (isUnauthorized(request, key)) return { response: unauthorized() };
    const id = String(params.conversationId);
    if (!isUuid(id)) return { response: invalidUuid(id) };
    const conversation = store.getConversation(id);
    return conversation ? { conversation } : { response: missing(id) };
  };

  const version = options.version ?? DEFAULT_AGENT_SERVER_VERSION;
  // OpenAPI `ServerInfo` as 1.58.0 fills it on a local server.
  const serverInfo = () => ({
    uptime: (Date.now() - STARTED) / 1000,
    idle_time: 0,
    title: 'OpenHands Agent Server',
    version,
    sdk_version: version,
    tools_version: version,
    workspace_version: version,
    build_git_sha: 'unknown',
    build_git_ref: 'unknown',
    python_version: '3.12.1',
    usable_tools: ['file_editor', 'task_tracker', 'terminal'],
    runtime_idle_timeout_seconds: null,
    conversation_runtime: 'local',
    available_conversation_runtimes: ['local'],
    capabilities: [],
    app_backend_ingress_url: null,
    max_foreground_terminal_timeout_seconds: null,
    docs: '/docs',
    redoc: '/redoc',
  });

  return [
    // Root routes are unauthenticated.
    http.get(`${base}/server_info`, () => HttpResponse.json(serverInfo())),
    // `GET /` answers the same info. With `*` as base the pattern matches every path ending in `/` (such as
    // `/api/tools/`): anything but the root falls through to the next handler.
    http.get(`${base}/`, ({ request }) =>
      new URL(request.url).pathname === '/' ? HttpResponse.json(serverInfo()) : undefined,
    ),

    http.get(`${base}/api/conversations/search`, ({ request }) => {
      if (isUnauthorized(request, key)) return unauthorized();
      const url = new URL(request.url);
      const checked = checkLimit(url.searchParams.get('limit'));
      if ('response' in checked) return checked.response;
      const status = url.searchParams.get('status');
      const order = url.searchParams.get('sort_order') ?? 'CREATED_AT_DESC';
      const field = order.startsWith('UPDATED_AT') ? 'updated_at' : 'created_at';
      const infos = [...store.conversations.values()]
        .filter((conversation) => !status || conversation.info.execution_status === status)
        .map((conversation) => shown(store.info(conversation.id), request));
      infos.sort((a, b) =>
        String(a[field]) < String(b[field]) ? -1 : String(a[field]) > String(b[field]) ? 1 : 0,
      );
      if (order.endsWith('_DESC')) infos.reverse();
      // Conversation pages are keyed by the 32-hex form of the id.
      const hex = (info: Record<string, unknown>) => String(info.id).replaceAll('-', '');
      return HttpResponse.json(pageOf(infos, hex, url.searchParams.get('page_id'), checked.limit));
    }),

    http.get(`${base}/api/conversations/count`, ({ request }) => {
      if (isUnauthorized(request, key)) return unauthorized();
      const status = new URL(request.url).searchParams.get('status');
      const all = [...store.conversations.values()];
      return HttpResponse.json(all.filter((c) => !status || c.info.execution_status === status).length);
    }),

    http.post(`${base}/api/conversations`, async ({ request }) => {
      if (isUnauthorized(request, key)) return unauthorized();
      const body = (await request.json().catch(() => null)) as Record<string, unknown> | null;
      const missing = ['agent', 'workspace'].filter(
        (field) => typeof body?.[field] !== 'object' || body[field] === null,
      );
      if (!body || missing.length > 0) {
        return validationError(
          missing.map((field) => ({
            type: 'missing',
            loc: ['body', field],
            msg: 'Field required',
            input: body,
          })),
        );
      }
      const requested = typeof body.conversation_id === 'string' ? body.conversation_id : undefined;
      const existing = requested ? store.getConversation(requested) : undefined;
      if (existing) return HttpResponse.json(shown(store.info(existing.id), request), { status: 200 });
      const agent = structuredClone(body.agent) as Record<string, unknown>;
      const llm = agent.llm as Record<string, unknown> | undefined;
      // The server never echoes a secret: it masks the LLM key.
      if (llm && typeof llm.api_key === 'string') llm.api_key = '**********';
      const conversation = store.addConversation(requested, {
        agent,
        workspace: body.workspace as Record<string, unknown>,
        ...(typeof body.max_iterations === 'number' ? { max_iterations: body.max_iterations } : {}),
        ...(typeof body.stuck_detection === 'boolean' ? { stuck_detection: body.stuck_detection } : {}),
        ...(body.confirmation_policy
          ? { confirmation_policy: body.confirmation_policy as Record<string, unknown> }
          : {}),
      });
      const initial = body.initial_message as { content?: { text?: string }[]; run?: boolean } | undefined;
      if (initial?.content) {
        store.publish(conversation.id, store.message(initial.content.map((c) => c.text ?? '').join(' ')));
      }
      // The answer shows the conversation before its run (`idle`), as the real server's does.
      const created = shown(store.info(conversation.id), request);
      // The real server starts the run for an initial message whatever its `run` says (every version).
      if (initial?.content) runner.run(conversation.id);
      return HttpResponse.json(created, { status: 201 });
    }),

    http.get(`${base}/api/conversations/:conversationId/events/search`, ({ request, params }) => {
      const found = lookup(request, params);
      if ('response' in found) return found.response;
      const url = new URL(request.url);
      const checked = checkLimit(url.searchParams.get('limit'));
      if ('response' in checked) return checked.response;
      const events = sortByTimestamp(
        filterEvents(found.conversation.events, filterFrom(url)),
        url.searchParams.get('sort_order') === 'TIMESTAMP_DESC',
      );
      return HttpResponse.json(
        pageOf(events, (event) => event.id, url.searchParams.get('page_id'), checked.limit),
      );
    }),

    http.get(`${base}/api/conversations/:conversationId/events/count`, ({ request, params }) => {
      const found = lookup(request, params);
      if ('response' in found) return found.response;
      return HttpResponse.json(
        filterEvents(found.conversation.events, filterFrom(new URL(request.url))).length,
      );
    }),

    http.post(
      `${base}/api/conversations/:conversationId/events/respond_to_confirmation`,
      async ({ request, params }) => {
        const found = lookup(request, params);
        if ('response' in found) return found.response;
        const body = (await request.json().catch(() => null)) as { accept?: unknown } | null;
        if (typeof body?.accept !== 'boolean') {
          return validationError([
            { type: 'missing', loc: ['body', 'accept'], msg: 'Field required', input: body },
          ]);
        }
        // Accept runs (an "already running" is swallowed); reject leaves the loop stopped.
        if (body.accept) runner.run(found.conversation.id);
        return success();
      },
    ),

    http.post(`${base}/api/conversations/:conversationId/events`, async ({ request, params }) => {
      const found = lookup(request, params);
      if ('response' in found) return found.response;
      const body = (await request.json().catch(() => null)) as {
        role?: string;
        content?: { text?: string }[];
        run?: boolean;
      } | null;
      if (!body || !Array.isArray(body.content)) {
        return validationError([
          { type: 'missing', loc: ['body', 'content'], msg: 'Field required', input: body },
        ]);
      }
      const text = body.content.map((item) => item.text ?? '').join(' ');
      const role = body.role ?? 'user';
      store.publish(found.conversation.id, store.message(text, role === 'user' ? 'user' : 'agent', role));
      if (body.run) runner.run(found.conversation.id);
      return success();
    }),

    http.get(`${base}/api/conversations/:conversationId/events/:eventId`, ({ request, params }) => {
      const found = lookup(request, params);
      if ('response' in found) return found.response;
      const eventId = String(params.eventId);
      const event = found.conversation.events.find((candidate) => candidate.id === eventId);
      if (event) return HttpResponse.json(event);
      // Before 1.58 an unknown event id was an unmapped KeyError (500).
      return uniformNotFound ? plainStatus(404) : internalError(`'Unknown event_id: ${eventId}'`);
    }),

    http.get(`${base}/api/conversations/:conversationId`, ({ request, params }) => {
      const found = lookup(request, params, () => plainStatus(404));
      if ('response' in found) return found.response;
      return HttpResponse.json(shown(store.info(found.conversation.id), request));
    }),

    http.delete(`${base}/api/conversations/:conversationId`, ({ request, params }) => {
      const found = lookup(request, params, () => (uniformNotFound ? plainStatus(404) : plainStatus(400)));
      if ('response' in found) return found.response;
      runner.stop(found.conversation.id);
      store.deleteConversation(found.conversation.id);
      return success();
    }),

    http.patch(`${base}/api/conversations/:conversationId`, async ({ request, params }) => {
      if (isUnauthorized(request, key)) return unauthorized();
      const id = String(params.conversationId);
      if (!isUuid(id)) return invalidUuid(id);
      const body = (await request.json().catch(() => null)) as { title?: unknown } | null;
      const title = body?.title;
      if (typeof title !== 'string' || title.length < 1 || title.length > 200) {
        return validationError([
          {
            type: 'string_too_short',
            loc: ['body', 'title'],
            msg: 'String should have 1 to 200 characters',
            input: title,
          },
        ]);
      }
      const conversation = store.getConversation(id);
      // Before 1.58 an unknown id was not an error status here.
      if (!conversation) return uniformNotFound ? plainStatus(404) : success(false);
      conversation.info.title = title.trim();
      conversation.info.updated_at = new Date().toISOString();
      return success();
    }),

    http.post(`${base}/api/conversations/:conversationId/run`, ({ request, params }) => {
      const found = lookup(request, params, () => plainStatus(404));
      if ('response' in found) return found.response;
      if (!runner.run(found.conversation.id)) {
        return HttpResponse.json(
          { detail: 'Conversation already running. Wait for completion or pause first.' },
          { status: 409 },
        );
      }
      return success();
    }),

    http.post(`${base}/api/conversations/:conversationId/pause`, ({ request, params }) => {
      const found = lookup(request, params, () => (uniformNotFound ? plainStatus(404) : plainStatus(400)));
      if ('response' in found) return found.response;
      const id = found.conversation.id;
      runner.stop(id);
      store.publish(id, pauseEvent(store));
      store.setStatus(id, 'paused');
      store.publishEphemeral(id, store.fullState(id));
      return success();
    }),

    http.post(
      `${base}/api/conversations/:conversationId/confirmation_policy`,
      async ({ request, params }) => {
        const found = lookup(request, params, () => plainStatus(404));
        if ('response' in found) return found.response;
        const body = (await request.json().catch(() => null)) as { policy?: { kind?: unknown } } | null;
        const kind = body?.policy?.kind;
        if (kind !== 'NeverConfirm' && kind !== 'AlwaysConfirm' && kind !== 'ConfirmRisky') {
          return validationError([
            {
              type: 'union_tag_invalid',
              loc: ['body', 'policy'],
              msg: 'Input tag does not match',
              input: body?.policy,
            },
          ]);
        }
        store.publish(found.conversation.id, store.stateUpdate('confirmation_policy', body?.policy));
        return success();
      },
    ),
  ];
}

function filterFrom(url: URL) {
  const get = (name: string) => url.searchParams.get(name);
  return {
    kind: get('kind'),
    source: get('source'),
    body: get('body'),
    timestampGte: get('timestamp__gte'),
    timestampLt: get('timestamp__lt'),
  };
}

function pauseEvent(store: AgentServerStore): StoredEvent {
  return { id: crypto.randomUUID(), timestamp: store.timestamp(), source: 'user', kind: 'PauseEvent' };
}
