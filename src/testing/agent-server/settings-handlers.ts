import { HttpResponse, http } from 'msw/http';
import {
  type DoubleContext,
  detail,
  fieldRequired,
  jsonBody,
  requiredQuery,
  route,
} from './double-context.js';
import { exposeMode, SimulatedCipher } from './exposed-secrets.js';

type Json = Record<string, unknown>;

/** The server's saved settings, secrets, profiles and workspaces: what the settings doubles change. */
export class SimulatedSettings {
  agentSettings: Json = { agent: 'CodeActAgent', llm: { model: 'simulated/model' } };
  conversationSettings: Json = { max_iterations: 500, confirmation_mode: false };
  mcpServers: Record<string, Json> = {};
  llmApiKey: string | undefined;
  readonly secrets = new Map<string, { value: string; description: string | null }>();
  readonly profiles = new Map<string, Json>();
  readonly agentProfiles = new Map<string, { id: string; profile: Json }>();
  readonly metaProfiles = new Map<string, Json>();
  readonly workspaces: Json[] = [];
  readonly workspaceParents: Json[] = [];
  readonly connections = new Map<string, Json>();
  activeProfile: string | null = null;
  activeAgentProfileId: string | null;
  /** What `GET /api/settings` shows: null on a fresh server (the real one), the id once one is activated. */
  settingsAgentProfileId: string | null = null;
  activeMetaProfile: string | null = null;
  /** The server's cipher for `X-Expose-Secrets: encrypted` (a real server has one when `OH_SECRET_KEY` is set). */
  readonly cipher = new SimulatedCipher();

  constructor() {
    // A fresh real server has one agent profile, `default`, active.
    const id = crypto.randomUUID();
    this.agentProfiles.set('default', {
      id,
      profile: { agent_kind: 'openhands', revision: 0, llm_profile_ref: 'default', mcp_server_refs: null },
    });
    this.activeAgentProfileId = id;
  }

  /** OpenAPI `SettingsResponse`: never the key itself, only whether one is set. */
  response(): Json {
    return {
      agent_settings: { ...this.agentSettings, mcp_config: { mcpServers: this.mcpServers } },
      conversation_settings: this.conversationSettings,
      llm_api_key_is_set: this.llmApiKey !== undefined,
      active_profile: this.activeProfile,
      active_agent_profile_id: this.settingsAgentProfileId,
      active_meta_profile: this.activeMetaProfile,
      misc_settings: {},
    };
  }
}

/** Shallow-deep merge of a settings diff (objects merge, everything else replaces). */
function merge(target: Json, diff: Json): Json {
  const out: Json = { ...target };
  for (const [key, value] of Object.entries(diff)) {
    const before = out[key];
    out[key] =
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      typeof before === 'object' &&
      before
        ? merge(before as Json, value as Json)
        : value;
  }
  return out;
}

/** Masks every credential-like field, as the server does before answering a saved profile. */
function masked(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(masked);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      /(^|_)(api_key|token|secret|password)$/i.test(key) && typeof item === 'string'
        ? '**********'
        : masked(item),
    ]),
  );
}

/**
 * Settings (agent and conversation defaults, MCP servers), named secrets, LLM/agent/meta profiles, workspaces
 * and LLM provider connections, kept in a `SimulatedSettings`. Credentials go in and never come back out,
 * except a secret's value from its own route (as on the real server).
 */
export function settingsHandlers(ctx: DoubleContext, state: SimulatedSettings) {
  type Resolver = (request: Request, params: Record<string, unknown>) => Response | Promise<Response>;
  const guarded =
    (resolve: Resolver) =>
    ({ request, params }: { request: Request; params: Record<string, unknown> }) =>
      ctx.guard(request, params) ?? resolve(request, params);
  const get = (path: string, resolve: Resolver) => http.get(route(ctx, path), guarded(resolve));
  const post = (path: string, resolve: Resolver) => http.post(route(ctx, path), guarded(resolve));
  const patch = (path: string, resolve: Resolver) => http.patch(route(ctx, path), guarded(resolve));
  const put = (path: string, resolve: Resolver) => http.put(route(ctx, path), guarded(resolve));
  const del = (path: string, resolve: Resolver) => http.delete(route(ctx, path), guarded(resolve));
  const json = HttpResponse.json;
  const mutation = (name: string, message: string, status = 200) => json({ name, message }, { status });
  const notFound = (what: string, name: unknown) => detail(404, `${what} '${name}' not found`);
  // OpenAPI `SettingsSchema`: the model's name and its sections of fields.
  const schema = (modelName: string) => ({ model_name: modelName, sections: [] });

  return [
    get('/api/settings/agent-schema', () => json(schema('AgentSettings'))),
    get('/api/settings/conversation-schema', () => json(schema('ConversationSettings'))),
    get('/api/settings', (request) => {
      const mode = exposeMode(request);
      if (mode instanceof Response) return mode;
      const response = state.response();
      const llm = (response.agent_settings as Json).llm as Json | undefined;
      // Masked without the header (as stored), else the key as a cipher token or as it is.
      if (mode && llm && state.llmApiKey !== undefined) {
        llm.api_key = mode === 'plaintext' ? state.llmApiKey : state.cipher.encrypt(state.llmApiKey);
      }
      return json(response);
    }),
    patch('/api/settings', async (request) => {
      const body = await jsonBody(request);
      const agentDiff = (body.agent_settings_diff ?? {}) as Json;
      const key = (agentDiff.llm as Json | undefined)?.api_key;
      if (typeof key === 'string') state.llmApiKey = state.cipher.decrypt(key);
      state.agentSettings = merge(state.agentSettings, masked(agentDiff) as Json);
      state.conversationSettings = merge(
        state.conversationSettings,
        (body.conversation_settings_diff ?? {}) as Json,
      );
      return json(state.response());
    }),
    post('/api/settings/mcp/{settings_key}', async (request, params) => {
      const key = String(params.settings_key);
      if (state.mcpServers[key]) return detail(409, `MCP server '${key}' already exists`);
      state.mcpServers[key] = masked(await jsonBody(request)) as Json;
      return json(state.response(), { status: 201 });
    }),
    patch('/api/settings/mcp/{settings_key}', async (request, params) => {
      const key = String(params.settings_key);
      const server = state.mcpServers[key];
      if (!server) return notFound('MCP server', key);
      state.mcpServers[key] = { ...server, ...(masked(await jsonBody(request)) as Json) };
      return json(state.response());
    }),
    del('/api/settings/mcp/{settings_key}', (_request, params) => {
      const key = String(params.settings_key);
      if (!state.mcpServers[key]) return notFound('MCP server', key);
      delete state.mcpServers[key];
      return json(state.response());
    }),

    get('/api/settings/secrets', () =>
      json({
        secrets: [...state.secrets].map(([name, secret]) => ({ name, description: secret.description })),
      }),
    ),
    put('/api/settings/secrets', async (request) => {
      const body = await jsonBody(request);
      if (typeof body.name !== 'string') return fieldRequired('body', 'name');
      if (typeof body.value !== 'string') return fieldRequired('body', 'value');
      const description = typeof body.description === 'string' ? body.description : null;
      state.secrets.set(body.name, { value: body.value, description });
      return json({ name: body.name, description });
    }),
    get('/api/settings/secrets/{name}', (_request, params) => {
      const secret = state.secrets.get(String(params.name));
      return secret
        ? new HttpResponse(secret.value, { headers: { 'content-type': 'text/plain; charset=utf-8' } })
        : notFound('Secret', params.name);
    }),
    del('/api/settings/secrets/{name}', (_request, params) =>
      state.secrets.delete(String(params.name)) ? json({}) : notFound('Secret', params.name),
    ),

    // LLM profiles.
    get('/api/profiles', () =>
      json({
        profiles: [...state.profiles].map(([name, llm]) => ({
          name,
          model: llm.model ?? null,
          base_url: llm.base_url ?? null,
          api_key_set: typeof llm.api_key === 'string',
        })),
        active_profile: state.activeProfile,
      }),
    ),
    get('/api/profiles/{name}', (request, params) => {
      const mode = exposeMode(request);
      if (mode instanceof Response) return mode;
      const llm = state.profiles.get(String(params.name));
      if (!llm) return notFound('Profile', params.name);
      const key = typeof llm.api_key === 'string' ? llm.api_key : null;
      // Without the header the real server answers the key as null (other secret fields masked).
      const shown =
        mode === 'plaintext' ? key : mode === 'encrypted' && key ? state.cipher.encrypt(key) : null;
      return json({
        name: params.name,
        config: { ...(masked(llm) as Json), api_key: shown },
        api_key_set: key !== null,
      });
    }),
    post('/api/profiles/{name}', async (request, params) => {
      const llm = (await jsonBody(request)).llm as Json | undefined;
      if (typeof llm !== 'object' || llm === null) return fieldRequired('body', 'llm');
      // A token from an encrypted read, sent back, is stored as the key it stands for (as on the real server).
      if (typeof llm.api_key === 'string') llm.api_key = state.cipher.decrypt(llm.api_key);
      state.profiles.set(String(params.name), llm as Json);
      return mutation(String(params.name), `Profile '${params.name}' saved`, 201);
    }),
    del('/api/profiles/{name}', (_request, params) => {
      if (!state.profiles.delete(String(params.name))) return notFound('Profile', params.name);
      if (state.activeProfile === params.name) state.activeProfile = null;
      return mutation(String(params.name), `Profile '${params.name}' deleted`);
    }),
    // The real server calls the provider: without a key it answers `valid: false` with the provider's error.
    post('/api/profiles/{name}/validate', async (request) => {
      const llm = (await jsonBody(request)).llm as Json | undefined;
      if (typeof llm?.model !== 'string') return fieldRequired('body', 'llm', 'model');
      if (typeof llm.api_key !== 'string' || llm.api_key === '')
        return json({
          valid: false,
          error: {
            type: 'LLMAuthenticationError',
            message: 'Missing credentials. Please pass an `api_key`.',
          },
        });
      return json({ valid: true, error: null });
    }),
    post('/api/profiles/{name}/rename', async (request, params) => {
      const name = String(params.name);
      const newName = (await jsonBody(request)).new_name;
      const llm = state.profiles.get(name);
      if (!llm) return notFound('Profile', name);
      if (typeof newName !== 'string') return fieldRequired('body', 'new_name');
      if (state.profiles.has(newName)) return detail(409, `Profile '${newName}' already exists`);
      state.profiles.delete(name);
      state.profiles.set(newName, llm);
      if (state.activeProfile === name) state.activeProfile = newName;
      return mutation(newName, `Profile '${name}' renamed to '${newName}'`);
    }),
    post('/api/profiles/{name}/activate', (_request, params) => {
      const name = String(params.name);
      const llm = state.profiles.get(name);
      if (!llm) return notFound('Profile', name);
      state.activeProfile = name;
      state.agentSettings = merge(state.agentSettings, { llm: masked(llm) as Json });
      return json({ name, message: `Profile '${name}' activated`, llm_applied: true });
    }),

    // Agent profiles (by name; activated by id).
    get('/api/agent-profiles', () =>
      json({
        profiles: [...state.agentProfiles].map(([name, saved]) => ({
          id: saved.id,
          name,
          ...(masked(saved.profile) as Json),
        })),
        active_agent_profile_id: state.activeAgentProfileId,
      }),
    ),
    get('/api/agent-profiles/{name}', (_request, params) => {
      const saved = state.agentProfiles.get(String(params.name));
      return saved
        ? json({ name: params.name, profile: { id: saved.id, ...(masked(saved.profile) as Json) } })
        : notFound('Agent profile', params.name);
    }),
    post('/api/agent-profiles/{name}', async (request, params) => {
      const name = String(params.name);
      const profile = await jsonBody(request);
      // The real servers (1.31.1 to 1.58.2) refuse an OpenHands agent profile that names no LLM profile.
      if (profile.agent_kind === 'openhands' && typeof profile.llm_profile_ref !== 'string')
        return fieldRequired('body', 'openhands', 'llm_profile_ref');
      const id = state.agentProfiles.get(name)?.id ?? crypto.randomUUID();
      state.agentProfiles.set(name, { id, profile });
      return mutation(name, `Agent profile '${name}' saved`, 201);
    }),
    del('/api/agent-profiles/{name}', (_request, params) =>
      state.agentProfiles.delete(String(params.name))
        ? mutation(String(params.name), `Agent profile '${params.name}' deleted`)
        : notFound('Agent profile', params.name),
    ),
    post('/api/agent-profiles/{name}/rename', async (request, params) => {
      const name = String(params.name);
      const newName = (await jsonBody(request)).new_name;
      const saved = state.agentProfiles.get(name);
      if (!saved) return notFound('Agent profile', name);
      if (typeof newName !== 'string') return fieldRequired('body', 'new_name');
      state.agentProfiles.delete(name);
      state.agentProfiles.set(newName, saved);
      return mutation(newName, `Agent profile '${name}' renamed to '${newName}'`);
    }),
    post('/api/agent-profiles/{profile_id}/activate', (_request, params) => {
      const id = String(params.profile_id);
      const found = [...state.agentProfiles.values()].find((saved) => saved.id === id);
      if (!found) return notFound('Agent profile', id);
      state.activeAgentProfileId = id;
      state.settingsAgentProfileId = id;
      return json({ id, message: `Agent profile '${id}' activated`, agent_settings_applied: true });
    }),
    post('/api/agent-profiles/{name}/materialize', async (request, params) => {
      const draft = (await jsonBody(request)).profile as Json | undefined;
      const profile = draft ?? state.agentProfiles.get(String(params.name))?.profile;
      if (!profile) return notFound('Agent profile', params.name);
      const llmRef = typeof profile.llm_profile === 'string' ? profile.llm_profile : null;
      return json({
        agent_kind: String(profile.agent_kind ?? 'openhands'),
        valid: llmRef === null || state.profiles.has(llmRef),
        errors: llmRef === null || state.profiles.has(llmRef) ? [] : [`LLM profile '${llmRef}' not found`],
        unusable_tools: [],
        llm_profile_ref: llmRef,
        llm_profile_resolved: llmRef !== null && state.profiles.has(llmRef),
        llm_api_key_set: llmRef !== null && typeof state.profiles.get(llmRef)?.api_key === 'string',
        resolved_mcp_config_keys: [],
        dangling_mcp_server_refs: [],
        disabled_skills: [],
        resolved_skills: [],
      });
    }),

    // Meta-profiles.
    get('/api/meta-profiles', () =>
      json({
        meta_profiles: [...state.metaProfiles].map(([name, config]) => ({ name, ...config })),
        active_meta_profile: state.activeMetaProfile,
      }),
    ),
    get('/api/meta-profiles/{name}', (_request, params) => {
      const config = state.metaProfiles.get(String(params.name));
      return config ? json({ name: params.name, config }) : notFound('Meta-profile', params.name);
    }),
    post('/api/meta-profiles/{name}', async (request, params) => {
      state.metaProfiles.set(String(params.name), masked(await jsonBody(request)) as Json);
      return mutation(String(params.name), `Meta-profile '${params.name}' saved`, 201);
    }),
    del('/api/meta-profiles/{name}', (_request, params) =>
      state.metaProfiles.delete(String(params.name))
        ? mutation(String(params.name), `Meta-profile '${params.name}' deleted`)
        : notFound('Meta-profile', params.name),
    ),
    post('/api/meta-profiles/{name}/activate', (_request, params) => {
      if (!state.metaProfiles.has(String(params.name))) return notFound('Meta-profile', params.name);
      state.activeMetaProfile = String(params.name);
      return mutation(String(params.name), `Meta-profile '${params.name}' activated`);
    }),

    // Workspaces and their parent folders.
    ...workspaceRoutes('/api/workspaces', 'workspaces', state.workspaces),
    ...workspaceRoutes('/api/workspaces/parents', 'parents', state.workspaceParents),

    // LLM provider connections (the key is kept, never answered).
    get('/api/llm/provider-connections', () => json([...state.connections.values()])),
    post('/api/llm/provider-connections', async (request) => {
      const body = await jsonBody(request);
      if (typeof body.display_name !== 'string') return fieldRequired('body', 'display_name');
      const now = Math.floor(Date.now() / 1000);
      const connection = {
        id: crypto.randomUUID(),
        display_name: body.display_name,
        provider: typeof body.provider === 'string' ? body.provider : 'openai',
        base_url: typeof body.base_url === 'string' ? body.base_url : null,
        created_at: now,
        updated_at: now,
        api_key_set: typeof body.api_key === 'string' && body.api_key !== '',
      };
      state.connections.set(connection.id, connection);
      return json(connection, { status: 201 });
    }),
    patch('/api/llm/provider-connections/{connection_id}', async (request, params) => {
      const connection = state.connections.get(String(params.connection_id));
      if (!connection) return notFound('Provider connection', params.connection_id);
      const { api_key: key, ...rest } = await jsonBody(request);
      Object.assign(connection, rest, { updated_at: Math.floor(Date.now() / 1000) });
      if (typeof key === 'string') connection.api_key_set = key !== '';
      return json(connection);
    }),
    del('/api/llm/provider-connections/{connection_id}', (_request, params) => {
      const connection = state.connections.get(String(params.connection_id));
      if (!connection) return notFound('Provider connection', params.connection_id);
      state.connections.delete(String(params.connection_id));
      return json(connection);
    }),
  ];

  function workspaceRoutes(path: string, field: string, list: Json[]) {
    const listed = () => json({ workspaces: state.workspaces, workspaceParents: state.workspaceParents });
    return [
      ...(field === 'workspaces' ? [get(path, listed)] : []),
      // The real server requires `id`, `name` and `path` on every item (422 naming each missing one).
      post(path, async (request) => {
        const items = (await jsonBody(request))[field];
        if (!Array.isArray(items)) return fieldRequired('body', field);
        const missing = (items as Json[]).flatMap((item, index) =>
          ['id', 'name', 'path']
            .filter((key) => typeof item[key] !== 'string')
            .map((key) => ({ type: 'missing', loc: ['body', field, index, key], msg: 'Field required' })),
        );
        if (missing.length > 0) return json({ detail: missing }, { status: 422 });
        for (const item of items as Json[]) {
          const at = list.findIndex((entry) => entry.path === item.path);
          if (at >= 0) list[at] = item;
          else list.push(item);
        }
        return listed();
      }),
      del(path, (request) => {
        const target = requiredQuery(request, 'path');
        if (target instanceof Response) return target;
        const at = list.findIndex((entry) => entry.path === target);
        if (at < 0)
          return detail(404, field === 'workspaces' ? 'Workspace not found' : 'Workspace parent not found');
        list.splice(at, 1);
        return json({ deleted: true });
      }),
    ];
  }
}
