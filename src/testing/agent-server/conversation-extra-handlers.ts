import { HttpResponse, http } from 'msw/http';
import { type DoubleContext, detail, fieldRequired, jsonBody, route } from './double-context.js';
import { success, validationError } from './responses.js';
import { withSkillsAsAsked } from './skills-trim.js';
import { isUuid } from './store.js';
import type { SimulatedFiles } from './workspace-files.js';

const ONE = '/api/conversations/{conversation_id}';

/** The folder a conversation works in, absolute (the store keeps the server's relative default). */
export function workingDir(info: Record<string, unknown>): string {
  const dir = String((info.workspace as { working_dir?: unknown } | undefined)?.working_dir ?? 'workspace');
  return dir.startsWith('/') ? dir : `/${dir}`;
}

/**
 * The conversation routes beyond run/pause/events: several at once, condense, navigate, child conversations,
 * goals, secrets, security analyzer, LLM/profile/ACP model switches, plugins, the runtime's state and the
 * workspace served over HTTP. Changes are published as state updates where the real server publishes them.
 */
export function conversationExtraHandlers(ctx: DoubleContext, files: SimulatedFiles) {
  const { store } = ctx;
  /** A POST answered `{success: true}` after `apply` (which may refuse with a response). */
  const action = (
    path: string,
    apply: (id: string, body: Record<string, unknown>) => Response | undefined = () => undefined,
  ) =>
    http.post(route(ctx, `${ONE}${path}`), async ({ request, params }) => {
      const denied = ctx.guard(request, params);
      if (denied) return denied;
      return apply(String(params.conversation_id), await jsonBody(request)) ?? success();
    });
  const publish = (id: string, key: string, value: unknown) =>
    store.publish(id, store.stateUpdate(key, value));

  return [
    http.get(route(ctx, '/api/conversations'), ({ request, params }) => {
      const denied = ctx.guard(request, params);
      if (denied) return denied;
      const ids = new URL(request.url).searchParams.getAll('ids');
      if (ids.length === 0) return fieldRequired('query', 'ids');
      if (!ids.every(isUuid))
        return validationError([
          { type: 'uuid_parsing', loc: ['query', 'ids'], msg: 'Input should be a valid UUID' },
        ]);
      return HttpResponse.json(
        ids.map((id) => (store.getConversation(id) ? withSkillsAsAsked(store.info(id), request) : null)),
      );
    }),
    action('/condense', (id) => {
      store.publish(id, {
        id: crypto.randomUUID(),
        timestamp: store.timestamp(),
        source: 'environment',
        kind: 'CondensationRequest',
      });
      return undefined;
    }),
    http.post(route(ctx, `${ONE}/navigate`), async ({ request, params }) => {
      const denied = ctx.guard(request, params);
      if (denied) return denied;
      const id = String(params.conversation_id);
      const eventId = (await jsonBody(request)).event_id ?? null;
      const events = store.getConversation(id)?.events ?? [];
      if (eventId !== null && !events.some((event) => event.id === eventId))
        return detail(404, `Event not found: ${eventId}`);
      const info = store.getConversation(id)?.info as unknown as Record<string, unknown>;
      info.leaf_event_id = eventId;
      publish(id, 'leaf_event_id', eventId);
      return HttpResponse.json(withSkillsAsAsked(store.info(id), request));
    }),
    http.post(route(ctx, `${ONE}/children`), async ({ request, params }) => {
      const denied = ctx.guard(request, params);
      if (denied) return denied;
      const body = await jsonBody(request);
      if (typeof body.task !== 'string') return fieldRequired('body', 'task');
      const parent = store.getConversation(String(params.conversation_id));
      const title = typeof body.title === 'string' ? body.title : body.task.slice(0, 50);
      const child = store.addConversation(undefined, {
        ...parent?.info,
        title,
        execution_status: 'running',
      } as never);
      store.appendEvent(child.id, store.message(body.task));
      return HttpResponse.json(
        {
          conversation_id: child.id,
          parent_conversation_id: parent?.id,
          status: 'running',
          title,
          url: null,
          workspace: workingDir(store.info(child.id)),
          isolation: body.isolation ?? 'shared',
        },
        { status: 201 },
      );
    }),
    action('/goal', (id, body) => {
      if (typeof body.objective !== 'string') return fieldRequired('body', 'objective');
      publish(id, 'goal', {
        objective: body.objective,
        max_iterations: body.max_iterations ?? 10,
        active: true,
      });
      return undefined;
    }),
    action('/goal/stop', (id) => {
      publish(id, 'goal', null);
      return undefined;
    }),
    action('/goal/resume', () => undefined),
    action('/secrets', (_id, body) =>
      typeof body.secrets === 'object' && body.secrets !== null
        ? undefined
        : fieldRequired('body', 'secrets'),
    ),
    action('/security_analyzer', (id, body) => {
      if (!('security_analyzer' in body)) return fieldRequired('body', 'security_analyzer');
      publish(id, 'security_analyzer', body.security_analyzer);
      return undefined;
    }),
    action('/switch_profile', (_id, body) =>
      typeof body.profile_name === 'string' ? undefined : fieldRequired('body', 'profile_name'),
    ),
    action('/switch_llm', (id, body) => {
      const llm = body.llm as { model?: unknown; api_key?: unknown } | undefined;
      if (typeof llm?.model !== 'string') return fieldRequired('body', 'llm', 'model');
      const agent = store.getConversation(id)?.info.agent as Record<string, unknown>;
      // The server never shows a key back: masked as in every ConversationInfo.
      publish(id, 'agent', { ...agent, llm: { ...llm, ...(llm.api_key ? { api_key: '**********' } : {}) } });
      return undefined;
    }),
    action('/switch_acp_model', (_id, body) =>
      typeof body.model === 'string' ? undefined : fieldRequired('body', 'model'),
    ),
    action('/load_plugin', (_id, body) =>
      typeof body.plugin_ref === 'string' ? undefined : fieldRequired('body', 'plugin_ref'),
    ),
    http.get(route(ctx, `${ONE}/runtime`), ({ request, params }) => {
      const denied = ctx.guard(request, params);
      return (
        denied ?? HttpResponse.json({ runtime_status: 'available', can_resume: true, runtime_error: null })
      );
    }),
    http.post(route(ctx, `${ONE}/runtime/reprovision`), ({ request, params }) => {
      const denied = ctx.guard(request, params);
      return (
        denied ?? HttpResponse.json({ runtime_status: 'available', can_resume: true, runtime_error: null })
      );
    }),
    http.get(route(ctx, `${ONE}/workspace`), ({ request, params }) => {
      const denied = ctx.guard(request, params);
      if (denied) return denied;
      const info = store.info(String(params.conversation_id));
      const page = files.read(`${workingDir(info)}/index.html`);
      return page
        ? new HttpResponse(page, { headers: { 'content-type': 'text/html; charset=utf-8' } })
        : detail(404, 'Not Found');
    }),
    http.get(route(ctx, `${ONE}/workspace/*`), ({ request, params }) => {
      const denied = ctx.guard(request, params);
      if (denied) return denied;
      const info = store.info(String(params.conversation_id));
      const relative = new URL(request.url).pathname.split('/workspace/').slice(1).join('/workspace/');
      const parts = relative.split('/').map(decodeURIComponent);
      if (parts.includes('..')) return detail(404, 'Not Found');
      const bytes = files.read(`${workingDir(info)}/${parts.join('/')}`);
      return bytes
        ? new HttpResponse(bytes, { headers: { 'content-type': 'application/octet-stream' } })
        : detail(404, 'Not Found');
    }),
  ];
}
