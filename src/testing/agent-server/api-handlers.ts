import { HttpResponse, http } from 'msw/http';
import { type BashResult, sharedBash } from './bash-simulation.js';
import { catalogHandlers } from './catalog-handlers.js';
import { conversationExtraHandlers } from './conversation-extra-handlers.js';
import { doubleContext } from './double-context.js';
import { fileExtraHandlers } from './file-extra-handlers.js';
import { gitHandlers } from './git-handlers.js';
import { agentRunnerFor } from './handlers.js';
import { SimulatedInstallables } from './installable-handlers.js';
import { conversationNotFound, isUnauthorized, success, unauthorized, validationError } from './responses.js';
import { SimulatedSettings, settingsHandlers } from './settings-handlers.js';
import { SimulatedGit } from './simulated-git.js';
import { simulatedShell } from './simulated-shell.js';
import { withSkillsAsAsked } from './skills-trim.js';
import { AgentServerStore, isUuid, type StoredConversation, type StoredEvent } from './store.js';
import { versionAtLeast } from './versions.js';
import { SimulatedFiles } from './workspace-files.js';

export interface AgentServerApiHandlersOptions {
  /** `{base_url}` the handlers answer for. Default: any origin. */
  baseUrl?: string;
  /** When set, requests without this `X-Session-API-Key` get 401. */
  sessionApiKey?: string;
  /** The conversations (share it with `agentServerHandlers` so both see the same ones). */
  store?: AgentServerStore;
  files?: SimulatedFiles;
  /** Repositories over `files` (commits made with `git.commit(…)` or `git commit -m` in the shell). */
  git?: SimulatedGit;
  /** Saved settings, secrets, profiles, workspaces and provider connections. */
  settings?: SimulatedSettings;
  /** Installed skills, plugins and canvas extensions. */
  installables?: SimulatedInstallables;
  /** What a command prints; the default is `simulatedShell` over `files` and `git` (nothing real runs). */
  shell?: (command: string, cwd: string) => BashResult;
  /** The agent-server version whose answers to give where versions differ (default `DEFAULT_AGENT_SERVER_VERSION`). */
  version?: string;
}

/**
 * msw handlers for every route `AgentServerClient` calls beyond the conversations and events of
 * `agentServerHandlers`, answering as the real 1.58.0 server did in the conformance suite: files
 * upload/download (binary safe, 404 "File not found", 400 "Path must be absolute"), create_directory,
 * search_subdirs, archive, trajectory, home; bash execute/start/search/get/clear/stop (page ids
 * `<timestamp>_<kind>_<id>`) over a simulated shell; git; `agent_final_response`, fork (201), interrupt,
 * ask_agent and the other conversation routes; settings, secrets, profiles, workspaces, LLM, skills, plugins,
 * canvas extensions, MCP, tools, hooks, VS Code, the OpenAI-compatible routes and health. Both the
 * server-wide routes and the conversation-runtime ones (`/api/conversations/{id}/file|bash|git|vscode/…`).
 * Nothing real runs: see docs/testing.md for what each double answers.
 */
export function agentServerApiHandlers(options: AgentServerApiHandlersOptions = {}) {
  const store = options.store ?? new AgentServerStore();
  const files = options.files ?? new SimulatedFiles();
  const git = options.git ?? new SimulatedGit(files);
  const bash = sharedBash(store, () => options.shell ?? simulatedShell({ files, git }));
  const base = options.baseUrl ? options.baseUrl.replace(/\/+$/, '') : '*';
  const key = options.sessionApiKey;
  const runner = agentRunnerFor(store);
  const ctx = doubleContext(base, store, key, options.version);

  /** Auth and, for runtime routes, the conversation; `undefined` means go on. */
  const guard = (request: Request, params: Record<string, unknown>): Response | undefined => {
    if (isUnauthorized(request, key)) return unauthorized();
    const id = params.runtimeId ?? params.conversationId;
    if (id === undefined) return undefined;
    if (!isUuid(String(id)))
      return validationError([
        { type: 'uuid_parsing', loc: ['path', 'conversation_id'], msg: 'Input should be a valid UUID' },
      ]);
    return store.getConversation(String(id)) ? undefined : conversationNotFound(String(id));
  };
  const both = (path: string) => [
    `${base}${path}`,
    `${base}/api/conversations/:runtimeId${path.replace(/^\/api/, '')}`,
  ];
  const absolute = (request: Request): string | Response => {
    const path = new URL(request.url).searchParams.get('path');
    if (path === null)
      return validationError([{ type: 'missing', loc: ['query', 'path'], msg: 'Field required' }]);
    if (!path.startsWith('/')) return HttpResponse.json({ detail: 'Path must be absolute' }, { status: 400 });
    return path;
  };
  const conversation = (params: Record<string, unknown>) =>
    store.getConversation(String(params.conversationId)) as StoredConversation;

  return [
    ...gitHandlers(ctx, git),
    ...fileExtraHandlers(ctx, files, git),
    ...conversationExtraHandlers(ctx, files),
    ...settingsHandlers(ctx, options.settings ?? new SimulatedSettings()),
    ...catalogHandlers(ctx, options.installables ?? new SimulatedInstallables()),
    ...both('/api/file/upload').map((route) =>
      http.post(route, async ({ request, params }) => {
        const denied = guard(request, params);
        if (denied) return denied;
        const path = absolute(request);
        if (path instanceof Response) return path;
        const form = await request.formData();
        const file = form.get('file');
        if (!(file instanceof Blob))
          return validationError([{ type: 'missing', loc: ['body', 'file'], msg: 'Field required' }]);
        const bytes = new Uint8Array(await file.arrayBuffer());
        files.write(path, bytes);
        // Before 1.58.0 the answer is the bare `Success` model: the real servers send no `file_size`.
        if (!versionAtLeast(options.version, [1, 58, 0])) return HttpResponse.json({ success: true });
        return HttpResponse.json({ success: true, file_size: bytes.byteLength });
      }),
    ),
    ...both('/api/file/download').map((route) =>
      http.get(route, ({ request, params }) => {
        const denied = guard(request, params);
        if (denied) return denied;
        const path = absolute(request);
        if (path instanceof Response) return path;
        const bytes = files.read(path);
        if (!bytes) return HttpResponse.json({ detail: 'File not found' }, { status: 404 });
        return new HttpResponse(bytes, {
          headers: {
            'content-type': 'application/octet-stream',
            'content-length': String(bytes.byteLength),
            'content-disposition': `attachment; filename="${path.split('/').pop()}"`,
          },
        });
      }),
    ),
    ...both('/api/file/create_directory').map((route) =>
      http.post(route, ({ request, params }) => {
        const denied = guard(request, params);
        if (denied) return denied;
        const path = absolute(request);
        if (path instanceof Response) return path;
        files.mkdir(path);
        return success();
      }),
    ),
    http.get(`${base}/api/file/search_subdirs`, ({ request, params }) => {
      const denied = guard(request, params);
      if (denied) return denied;
      const path = absolute(request);
      if (path instanceof Response) return path;
      const items = files.subfolders(path).map((folder) => ({ name: folder.split('/').pop(), path: folder }));
      return HttpResponse.json({ items, next_page_id: null });
    }),

    ...both('/api/bash/execute_bash_command').map((route) =>
      http.post(route, async ({ request, params }) => {
        const denied = guard(request, params);
        if (denied) return denied;
        const body = (await request.json().catch(() => null)) as {
          command?: unknown;
          cwd?: unknown;
          timeout?: unknown;
        } | null;
        if (typeof body?.command !== 'string')
          return validationError([{ type: 'missing', loc: ['body', 'command'], msg: 'Field required' }]);
        const command = bash.start(body.command, body.cwd, body.timeout);
        return HttpResponse.json(bash.finish(command));
      }),
    ),
    ...both('/api/bash/start_bash_command').map((route) =>
      http.post(route, async ({ request, params }) => {
        const denied = guard(request, params);
        if (denied) return denied;
        const body = (await request.json().catch(() => null)) as {
          command?: unknown;
          cwd?: unknown;
          timeout?: unknown;
        } | null;
        if (typeof body?.command !== 'string')
          return validationError([{ type: 'missing', loc: ['body', 'command'], msg: 'Field required' }]);
        const command = bash.start(body.command, body.cwd, body.timeout);
        queueMicrotask(() => bash.finish(command));
        return HttpResponse.json(command);
      }),
    ),
    ...both('/api/bash/bash_events/search').map((route) =>
      http.get(route, ({ request, params }) => {
        const denied = guard(request, params);
        if (denied) return denied;
        return HttpResponse.json(bash.search(new URL(request.url).searchParams));
      }),
    ),
    ...both('/api/bash/bash_events/:eventId').map((route) =>
      http.get(route, ({ request, params }) => {
        const denied = guard(request, params);
        if (denied) return denied;
        const event = bash.get(String(params.eventId));
        return event ? HttpResponse.json(event) : HttpResponse.json({ detail: 'Not Found' }, { status: 404 });
      }),
    ),
    ...both('/api/bash/bash_events').map((route) =>
      http.delete(route, ({ request, params }) => {
        const denied = guard(request, params);
        if (denied) return denied;
        return HttpResponse.json({ cleared_count: bash.clear() });
      }),
    ),
    ...both('/api/bash/bash_commands/:commandId/stop').map((route) =>
      http.post(route, ({ request, params }) => {
        const denied = guard(request, params);
        if (denied) return denied;
        return success(bash.get(String(params.commandId)) !== undefined);
      }),
    ),

    http.get(`${base}/api/conversations/:conversationId/agent_final_response`, ({ request, params }) => {
      const denied = guard(request, params);
      if (denied) return denied;
      return HttpResponse.json({ response: finalResponseOf(conversation(params).events) });
    }),
    http.post(`${base}/api/conversations/:conversationId/interrupt`, ({ request, params }) => {
      const denied = guard(request, params);
      if (denied) return denied;
      const target = conversation(params);
      runner.stop(target.id);
      if (target.info.execution_status === 'running') {
        // As the real server (1.58.2) records it: an InterruptEvent, then the run is `paused`.
        store.publish(target.id, {
          id: crypto.randomUUID(),
          timestamp: store.timestamp(),
          source: 'user',
          kind: 'InterruptEvent',
        });
        store.setStatus(target.id, 'paused');
      }
      return success();
    }),
    http.post(`${base}/api/conversations/:conversationId/fork`, async ({ request, params }) => {
      const denied = guard(request, params);
      if (denied) return denied;
      const source = conversation(params);
      const body = ((await request.json().catch(() => ({}))) ?? {}) as {
        id?: string;
        title?: string;
        tags?: Record<string, string>;
        from_event_id?: string;
      };
      const cut = body.from_event_id
        ? source.events.findIndex((event) => event.id === body.from_event_id)
        : -1;
      const events = cut >= 0 ? source.events.slice(0, cut + 1) : source.events;
      const fork = store.addConversation(body.id, {
        ...source.info,
        execution_status: 'idle',
        title: body.title ?? source.info.title ?? null,
        ...(body.tags ? { tags: body.tags } : {}),
      } as never);
      for (const event of events) store.appendEvent(fork.id, { ...event });
      return HttpResponse.json(withSkillsAsAsked(store.info(fork.id), request), { status: 201 });
    }),
    http.post(`${base}/api/conversations/:conversationId/ask_agent`, async ({ request, params }) => {
      const denied = guard(request, params);
      if (denied) return denied;
      const body = (await request.json().catch(() => null)) as { question?: unknown } | null;
      if (typeof body?.question !== 'string')
        return validationError([{ type: 'missing', loc: ['body', 'question'], msg: 'Field required' }]);
      return HttpResponse.json({ response: `Simulated answer to: ${body.question}` });
    }),
  ];
}

/** The server's rule (OpenAPI `AgentResponseResult`): last FinishAction message, else last agent message text. */
function finalResponseOf(events: readonly StoredEvent[]): string {
  for (const event of [...events].reverse()) {
    const action = event.action as { kind?: unknown; message?: unknown } | undefined;
    if (event.kind === 'ActionEvent' && action?.kind === 'FinishAction') return String(action.message ?? '');
    if (event.kind === 'MessageEvent' && event.source === 'agent') {
      const content =
        (event.llm_message as { content?: { type?: string; text?: string }[] } | undefined)?.content ?? [];
      return content.map((part) => (part.type === 'text' ? (part.text ?? '') : '')).join('');
    }
  }
  return '';
}
