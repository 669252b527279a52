import { HttpResponse, http } from 'msw/http';
import { type DoubleContext, detail, fieldRequired, jsonBody, route } from './double-context.js';
import {
  INSTALLABLE_KINDS,
  installableHandlers,
  type SimulatedInstallables,
} from './installable-handlers.js';
import { versionAtLeast } from './versions.js';

type Json = Record<string, unknown>;
type Resolver = (request: Request, params: Record<string, unknown>) => Response | Promise<Response>;

const TOOLS = ['terminal', 'file_editor', 'task_tracker', 'browser_tool_set'];
const MODELS = ['simulated/model', 'openai/gpt-5', 'anthropic/claude-sonnet-4-5'];
const SUB_AGENTS = ['bash-runner', 'code-explorer', 'general-purpose', 'web-researcher'];
/** The icon every simulated canvas extension has. */
const ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3"/></svg>';

/**
 * The server's catalogs and side services: tools, skills, plugins, canvas extensions (with their backends and
 * app-backend sessions), hooks, MCP tests and OAuth, LLM providers/models/subscription, ACP model discovery,
 * the OpenAI-compatible routes (an echoing model), VS Code (disabled, as the conformance servers run), the
 * workspace session cookie, and the health and deferred-init routes. Answers are shaped after the 1.58.0
 * OpenAPI document; nothing runs.
 */
export function catalogHandlers(ctx: DoubleContext, installables: SimulatedInstallables) {
  const guarded =
    (resolve: Resolver) =>
    ({ request, params }: { request: Request; params: Record<string, unknown> }) =>
      ctx.guard(request, params) ?? resolve(request, params);
  const get = (path: string, resolve: Resolver) => http.get(route(ctx, path), guarded(resolve));
  const post = (path: string, resolve: Resolver) => http.post(route(ctx, path), guarded(resolve));
  const del = (path: string, resolve: Resolver) => http.delete(route(ctx, path), guarded(resolve));
  const json = HttpResponse.json;
  const extensions = installables.installed.canvasExtensions;
  const backends = new Map<string, Json>();
  const oauthJobs = new Map<string, Json>();
  let initState: 'dormant' | 'initializing' | 'ready' = 'ready';
  let subscription: Json = { vendor: 'openai', connected: false, account_email: null, expires_at: null };

  /** A canvas extension's backend, or the 404 of an extension that is not installed. */
  const backend = (params: Record<string, unknown>): Json | Response => {
    const name = String(params.extension_name);
    if (!extensions.has(name)) return detail(404, `Canvas extension '${name}' is not installed`);
    let status = backends.get(name);
    if (!status) {
      status = {
        name,
        state: 'stopped',
        revision: null,
        prepared_revision: null,
        pid: null,
        port: null,
        detail: null,
      };
      backends.set(name, status);
    }
    return status;
  };
  const onBackend =
    (change: (status: Json) => void) => (_request: Request, params: Record<string, unknown>) => {
      const status = backend(params);
      if (status instanceof Response) return status;
      change(status);
      return json(status);
    };

  return [
    // Health and deferred init (the simulated server starts initialised).
    http.get(route(ctx, '/alive'), () => json({ status: 'ok' })),
    // Servers before 1.31 answer a bare JSON string (docs/compatibility.md A30).
    http.get(route(ctx, '/health'), () =>
      versionAtLeast(ctx.version, [1, 31, 0]) ? json({ status: 'ok' }) : json('OK'),
    ),
    http.get(route(ctx, '/ready'), () => json({ status: 'ready' })),
    get('/api/init', () => json({ state: initState, error: null })),
    post('/api/init', () => {
      initState = 'ready';
      return json({ state: initState, error: null });
    }),
    post(
      '/api/auth/workspace-session',
      () =>
        new HttpResponse(null, {
          status: 204,
          headers: { 'set-cookie': 'oh_workspace_session=simulated; HttpOnly; Path=/; SameSite=Lax' },
        }),
    ),
    del(
      '/api/auth/workspace-session',
      () =>
        new HttpResponse(null, {
          status: 204,
          headers: { 'set-cookie': 'oh_workspace_session=; Max-Age=0; Path=/' },
        }),
    ),

    // VS Code: disabled, as on the conformance servers (OH_ENABLE_VSCODE=false).
    ...['/api/vscode', '/api/conversations/{runtime_conversation_id}/vscode'].flatMap((base) => [
      get(`${base}/url`, () =>
        json(
          { detail: 'Internal Server Error', exception: '503: VSCode is disabled in configuration' },
          { status: 503 },
        ),
      ),
      get(`${base}/status`, () =>
        json({ enabled: false, running: false, message: 'VSCode is disabled in configuration' }),
      ),
    ]),

    get('/api/tools/', () => json(TOOLS)),
    get('/api/tools/catalog', () =>
      json({
        tools: TOOLS.map((name) => ({
          name,
          description: `The ${name} tool`,
          default: name !== 'browser_tool_set',
        })),
      }),
    ),

    // Skills.
    post('/api/skills', () =>
      json({ skills: skillList(installables), sources: { installed: installables.installed.skills.size } }),
    ),
    get('/api/skills/catalog', () => json({ skills: skillList(installables) })),
    post('/api/skills/sync', () => json({ status: 'success', message: 'Public skills are up to date' })),
    get('/api/skills/marketplace', () =>
      json({
        skills: [{ name: 'code-review', description: 'Reviews a change', source: 'github:openhands/skills' }],
      }),
    ),
    post('/api/sub-agents', () =>
      json({ agents: SUB_AGENTS.map((name) => ({ name, description: `The ${name} agent` })) }),
    ),
    ...installableHandlers(ctx, INSTALLABLE_KINDS.skills, installables.installed.skills),

    // Plugins.
    post('/api/plugins', () => json({ plugins: [...installables.installed.plugins.values()] })),
    post('/api/plugins/fetch', async (request) => {
      const body = await jsonBody(request);
      if (typeof body.source !== 'string') return fieldRequired('body', 'source');
      const name = body.source.split(/[/:]/).filter(Boolean).pop() ?? 'plugin';
      return json({
        path: `/home/openhands/.cache/plugins/${name}`,
        resolved_ref: body.ref ?? 'main',
        source: body.source,
        repo_path: body.repo_path ?? null,
        manifest: { name, version: '1.0.0' },
        skills: [],
        commands: [],
      });
    }),
    get('/api/plugins/marketplace', () =>
      json({
        plugins: [{ name: 'example-plugin', description: 'An example', source: 'github:openhands/plugins' }],
      }),
    ),
    ...installableHandlers(ctx, INSTALLABLE_KINDS.plugins, installables.installed.plugins),

    // Canvas extensions, their backends and app-backend sessions.
    ...installableHandlers(ctx, INSTALLABLE_KINDS.canvasExtensions, extensions),
    get(
      '/api/canvas-extensions/installed/{extension_name}/backend',
      onBackend(() => undefined),
    ),
    post(
      '/api/canvas-extensions/installed/{extension_name}/backend/prepare',
      onBackend((status) =>
        Object.assign(status, { state: 'prepared', prepared_revision: 'r1', revision: 'r1' }),
      ),
    ),
    post(
      '/api/canvas-extensions/installed/{extension_name}/backend/start',
      onBackend((status) => Object.assign(status, { state: 'running', pid: 4242, port: 38000 })),
    ),
    post(
      '/api/canvas-extensions/installed/{extension_name}/backend/stop',
      onBackend((status) => Object.assign(status, { state: 'stopped', pid: null, port: null })),
    ),
    get('/api/canvas-extensions/installed/{extension_name}/backend/logs', (_request, params) => {
      const status = backend(params);
      if (status instanceof Response) return status;
      return json({ name: status.name, logs: `backend ${status.state}\n`, truncated: false });
    }),
    del(
      '/api/canvas-extensions/installed/{extension_name}/backend/data',
      onBackend((status) => Object.assign(status, { prepared_revision: null })),
    ),
    get('/api/canvas-extensions/installed/{extension_name}/bundle', (_request, params) => {
      const name = String(params.extension_name);
      if (!extensions.has(name)) return detail(404, `Canvas extension '${name}' is not installed`);
      return json({ name, entry: 'index.js', files: { 'index.js': 'export default {};' } });
    }),
    get('/api/canvas-extensions/installed/{extension_name}/icon', (_request, params) => {
      const name = String(params.extension_name);
      if (!extensions.has(name)) return detail(404, `Canvas extension '${name}' is not installed`);
      return new HttpResponse(ICON, { headers: { 'content-type': 'image/svg+xml' } });
    }),
    post('/app-backends/{extension_name}/session', (_request, params) => {
      const name = String(params.extension_name);
      if (!extensions.has(name)) return detail(404, `Canvas extension '${name}' is not installed`);
      return json({
        ingress_url: `https://apps.simulated.invalid/${name}/`,
        expires_at: new Date(Date.now() + 3_600_000).toISOString(),
        iframe_sandbox: 'allow-scripts allow-same-origin allow-forms',
      });
    }),
    del('/app-backends/{extension_name}/session', () => new HttpResponse(null, { status: 204 })),

    post('/api/hooks', () => json({ hook_config: null })),

    // MCP: no server is started; a stdio command fails to connect as on the real server, a remote one answers
    // with no tools.
    post('/api/mcp/test', async (request) => {
      const server = (await jsonBody(request)).server as Json | undefined;
      if (!server) return fieldRequired('body', 'server');
      if (typeof server.command === 'string')
        return json({
          ok: false,
          error: `Client failed to connect: [Errno 2] No such file or directory: '${server.command}'`,
          error_kind: 'connection',
        });
      return json({ ok: true, tools: [] });
    }),
    post('/api/mcp/oauth/start', async (request) => {
      const server = (await jsonBody(request)).server as Json | undefined;
      if (!server) return fieldRequired('body', 'server');
      const jobId = crypto.randomUUID();
      const authorization_url = `https://auth.simulated.invalid/authorize?job=${jobId}`;
      oauthJobs.set(jobId, {
        ok: true,
        status: 'awaiting_callback',
        job_id: jobId,
        authorization_url,
        callback_ready: true,
      });
      return json({ ok: true, job_id: jobId, authorization_url, error: null, error_kind: null });
    }),
    get('/api/mcp/oauth/status/{job_id}', (_request, params) => {
      const job = oauthJobs.get(String(params.job_id));
      return job ? json(job) : detail(404, 'OAuth job not found');
    }),
    post('/api/mcp/oauth/callback/{job_id}', (_request, params) => {
      const job = oauthJobs.get(String(params.job_id));
      if (!job) return detail(404, 'OAuth job not found');
      Object.assign(job, { status: 'completed', callback_ready: false, tools: [] });
      return json(job);
    }),

    // LLM catalog and the OpenAI subscription login.
    get('/api/llm/providers', () => json({ providers: ['anthropic', 'openai', 'simulated'] })),
    get('/api/llm/models', (request) => {
      const provider = new URL(request.url).searchParams.get('provider');
      return json({ models: MODELS.filter((model) => !provider || model.startsWith(`${provider}/`)) });
    }),
    get('/api/llm/models/verified', () =>
      json({ models: { openai: ['gpt-5'], anthropic: ['claude-sonnet-4-5'] } }),
    ),
    get('/api/llm/subscription/openai/models', () =>
      json({ vendor: 'openai', models: ['gpt-5', 'gpt-5-codex'] }),
    ),
    get('/api/llm/subscription/openai/status', () => json(subscription)),
    post('/api/llm/subscription/openai/device/start', () =>
      json({
        device_code: crypto.randomUUID(),
        user_code: 'SIMU-LATE',
        verification_uri: 'https://auth.simulated.invalid/device',
        verification_uri_complete: 'https://auth.simulated.invalid/device?code=SIMU-LATE',
        expires_at: Math.floor(Date.now() / 1000) + 900,
        interval_seconds: 5,
      }),
    ),
    post('/api/llm/subscription/openai/device/poll', async (request) => {
      if (typeof (await jsonBody(request)).device_code !== 'string')
        return fieldRequired('body', 'device_code');
      subscription = {
        vendor: 'openai',
        connected: true,
        account_email: 'user@example.com',
        expires_at: null,
      };
      return json(subscription);
    }),
    post('/api/llm/subscription/openai/logout', () => {
      subscription = { vendor: 'openai', connected: false, account_email: null, expires_at: null };
      return json(subscription);
    }),
    post('/api/acp/models', () =>
      json({
        agent_name: 'simulated-acp',
        agent_version: '1.0.0',
        current_model_id: 'default',
        available_models: [{ model_id: 'default', name: 'Default' }],
        supports_runtime_model_switch: true,
        error: null,
      }),
    ),

    // The OpenAI-compatible routes: an echoing model.
    get('/v1/models', () =>
      json({
        object: 'list',
        data: MODELS.map((id) => ({ id, object: 'model', created: 0, owned_by: 'openhands' })),
      }),
    ),
    post('/v1/chat/completions', async (request) => {
      const body = await jsonBody(request);
      const messages = Array.isArray(body.messages) ? (body.messages as Json[]) : [];
      const last = messages.at(-1)?.content;
      return json({
        id: `chatcmpl-${crypto.randomUUID()}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: String(body.model ?? MODELS[0]),
        choices: [
          {
            index: 0,
            finish_reason: 'stop',
            message: { role: 'assistant', content: `Echo: ${String(last ?? '')}` },
          },
        ],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      });
    }),
    post('/v1/responses', async (request) => {
      const body = await jsonBody(request);
      const now = Date.now() / 1000;
      const text = `Echo: ${typeof body.input === 'string' ? body.input : JSON.stringify(body.input ?? '')}`;
      return json({
        id: `resp_${crypto.randomUUID().replaceAll('-', '')}`,
        object: 'response',
        created_at: now,
        completed_at: now,
        model: String(body.model ?? MODELS[0]),
        status: 'completed',
        output: [
          {
            type: 'message',
            id: `msg_${crypto.randomUUID().replaceAll('-', '')}`,
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text, annotations: [] }],
          },
        ],
        parallel_tool_calls: true,
        tool_choice: 'auto',
        tools: [],
        usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
      });
    }),
  ];
}

function skillList(installables: SimulatedInstallables) {
  return [...installables.installed.skills.values()].map((skill) => ({
    name: skill.name,
    type: 'agentskills',
    content: String(skill.description ?? ''),
    triggers: [],
    source: skill.source,
    description: skill.description,
    is_agentskills_format: true,
  }));
}
