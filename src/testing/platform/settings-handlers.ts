// The platform app's settings, profile-management and secrets routes, answering as the real app
// (openhands-ai 1.11.0) did in test/conformance/platform-app.test.ts: same statuses, bodies and messages.
import type { PathParams } from 'msw';
import { HttpResponse, http } from 'msw/http';
import type { PlatformStore } from './store.js';

type Refusal = (request: Request) => Response | undefined;
type Resolver = (args: { request: Request; params: PathParams }) => Response | Promise<Response>;
/** Answers 401 first when the session key is wrong (the handlers' `sessionApiKey` option). */
type Guard = (handler: Resolver) => Resolver;

const PROFILE_NAME = /^[A-Za-z0-9._-]{1,64}$/;
const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The fields of the app's `LLM` settings model: any other key in a profile's `llm` is a 422 `extra_forbidden`. */
export const LLM_FIELDS = new Set(
  'model api_key auth_type subscription_vendor base_url api_version aws_access_key_id aws_secret_access_key aws_session_token aws_region_name aws_profile_name aws_role_name aws_session_name aws_bedrock_runtime_endpoint openrouter_site_url openrouter_app_name num_retries retry_multiplier retry_min_wait retry_max_wait timeout max_message_chars temperature top_p top_k max_input_tokens max_output_tokens model_canonical_name extra_headers input_cost_per_token output_cost_per_token ollama_base_url stream drop_params modify_params disable_vision disable_stop_word caching_prompt log_completions log_completions_folder custom_tokenizer native_tool_calling force_string_serializer inline_image_urls reasoning_effort reasoning_summary enable_encrypted_reasoning prompt_cache_retention extended_thinking_budget seed usage_id litellm_extra_body is_subscription'.split(
    ' ',
  ),
);

export function unknownLlmKeys(llm: Record<string, unknown>) {
  return Object.keys(llm)
    .filter((key) => !LLM_FIELDS.has(key))
    .map((key) => ({
      type: 'extra_forbidden',
      loc: ['body', 'llm', key],
      msg: 'Extra inputs are not permitted',
      input: llm[key],
    }));
}

const detail = (text: string, status: number) => HttpResponse.json({ detail: text }, { status });
const patternError = (name: string) =>
  HttpResponse.json(
    {
      detail: [
        {
          type: 'string_pattern_mismatch',
          loc: ['path', 'name'],
          msg: "String should match pattern '^[A-Za-z0-9._-]{1,64}$'",
          input: name,
        },
      ],
    },
    { status: 422 },
  );

function settingsAnswer(store: PlatformStore, settings: Record<string, unknown>) {
  const agent = (settings.agent_settings_diff ?? {}) as Record<string, unknown>;
  return {
    ...Object.fromEntries(Object.entries(settings).filter(([key]) => !key.endsWith('_diff'))),
    agent_settings: {
      ...agent,
      llm: { model: null, base_url: null, extra_headers: null, ...(agent.llm as object), api_key: null },
    },
    conversation_settings: settings.conversation_settings_diff ?? {},
    llm_profiles: {
      profiles: Object.fromEntries(
        [...store.profiles].map(([name, p]) => [name, { ...p.llm, api_key: null }]),
      ),
      active: store.activeProfile,
    },
    llm_api_key_set: store.llmApiKeySet,
    search_api_key_set: false,
  };
}

/** The profile becomes the running LLM settings; deleting the profile later leaves them in place. */
export function switchTo(store: PlatformStore, name: string): void {
  const profile = store.profiles.get(name);
  if (!profile) return;
  store.activeProfile = name;
  const settings = store.settings ?? {};
  const agent = (settings.agent_settings_diff ?? {}) as Record<string, unknown>;
  store.settings = { ...settings, agent_settings_diff: { ...agent, llm: { ...profile.llm } } };
  store.llmApiKeySet = profile.api_key_set;
}

/** Settings, profile list / activate / rename / delete and secrets. */
export function appSettingsHandlers(app: string, store: PlatformStore, unauthorized: Refusal) {
  const guarded: Guard = (handler) => (args) => unauthorized(args.request) ?? handler(args);
  const validName = (name: string) => PROFILE_NAME.test(name);

  return [
    http.get(
      `${app}/api/v1/settings`,
      guarded(() =>
        store.settings === null
          ? HttpResponse.json({ error: 'Settings not found' }, { status: 404 })
          : HttpResponse.json(settingsAnswer(store, store.settings)),
      ),
    ),
    http.post(
      `${app}/api/v1/settings`,
      guarded(async ({ request }) => {
        const payload = ((await request.json().catch(() => null)) ?? {}) as Record<string, unknown>;
        const legacy = ['agent_settings', 'conversation_settings'].filter((key) => key in payload);
        if (legacy.length > 0) {
          return HttpResponse.json(
            { error: 'Use *_diff nested settings payloads instead of legacy keys', keys: legacy },
            { status: 422 },
          );
        }
        store.settings = { ...(store.settings ?? {}), ...payload };
        return HttpResponse.json({ message: 'Settings stored' });
      }),
    ),
    http.get(
      `${app}/api/v1/settings/profiles`,
      guarded(() =>
        HttpResponse.json({
          profiles: [...store.profiles].map(([name, profile]) => ({
            name,
            model: (profile.llm.model as string | undefined) ?? null,
            base_url: (profile.llm.base_url as string | undefined) ?? null,
            api_key_set: profile.api_key_set,
          })),
          active_profile: store.settings === null ? null : store.activeProfile,
        }),
      ),
    ),
    http.delete(
      `${app}/api/v1/settings/profiles/:name`,
      guarded(({ params }) => {
        const name = String(params.name);
        if (!validName(name)) return patternError(name);
        // Idempotent: an unknown name is deleted "successfully" too.
        const wasActive = store.activeProfile === name;
        store.profiles.delete(name);
        if (wasActive) {
          // The app switches to the first remaining profile (insertion order), or clears the pointer.
          const [first] = store.profiles.keys();
          if (first === undefined) store.activeProfile = null;
          else switchTo(store, first);
        }
        return HttpResponse.json({ name, message: `Profile '${name}' deleted` });
      }),
    ),
    http.post(
      `${app}/api/v1/settings/profiles/:name/activate`,
      guarded(({ params }) => {
        const name = String(params.name);
        if (!validName(name)) return patternError(name);
        const profile = store.profiles.get(name);
        if (store.settings === null || !profile) return detail(`Profile '${name}' not found`, 404);
        switchTo(store, name);
        return HttpResponse.json({
          name,
          message: `Switched to profile '${name}'`,
          model: profile.llm.model ?? null,
        });
      }),
    ),
    http.post(
      `${app}/api/v1/settings/profiles/:name/rename`,
      guarded(async ({ request, params }) => {
        const name = String(params.name);
        if (!validName(name)) return patternError(name);
        const body = (await request.json().catch(() => null)) as { new_name?: unknown } | null;
        const newName = body?.new_name;
        if (typeof newName !== 'string' || !validName(newName)) {
          return HttpResponse.json(
            {
              detail: [
                {
                  type: 'string_pattern_mismatch',
                  loc: ['body', 'new_name'],
                  msg: 'String should match pattern',
                },
              ],
            },
            { status: 422 },
          );
        }
        if (store.settings === null) return detail('Settings not found', 404);
        const profile = store.profiles.get(name);
        if (!profile) return detail(`Profile '${name}' not found`, 404);
        if (newName !== name && store.profiles.has(newName)) {
          return detail(`Profile '${newName}' already exists`, 409);
        }
        // The renamed profile keeps its place in the (insertion) order.
        const entries = [...store.profiles].map(([key, value]) =>
          key === name ? ([newName, value] as const) : ([key, value] as const),
        );
        store.profiles.clear();
        for (const [key, value] of entries) store.profiles.set(key, value);
        if (store.activeProfile === name) store.activeProfile = newName;
        return HttpResponse.json({ name: newName, message: `Profile '${name}' renamed to '${newName}'` });
      }),
    ),
    ...secretHandlers(app, store, guarded),
  ];
}

function secretNameError(name: unknown, loc: string[]) {
  return HttpResponse.json(
    {
      detail: [
        {
          type: 'value_error',
          loc,
          msg: `Value error, Invalid secret name '${String(name)}'. Must start with a letter or underscore, and contain only alphanumeric characters and underscores.`,
          input: name,
        },
      ],
    },
    { status: 422 },
  );
}

function secretHandlers(app: string, store: PlatformStore, guarded: Guard) {
  const missing = (id: string) => detail(`Secret with ID ${id} not found`, 404);
  return [
    http.get(
      `${app}/api/v1/secrets/search`,
      guarded(({ request }) => {
        const url = new URL(request.url);
        const limit = Number(url.searchParams.get('limit') ?? 100);
        if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
          return HttpResponse.json(
            {
              detail: [
                {
                  type: 'less_than_equal',
                  loc: ['query', 'limit'],
                  msg: 'Input should be less than or equal to 100',
                },
              ],
            },
            { status: 422 },
          );
        }
        const contains = url.searchParams.get('name__contains')?.toLowerCase();
        const all = [...store.secrets]
          .filter(([name]) => contains === undefined || name.toLowerCase().includes(contains))
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([name, secret]) => ({ name, description: secret.description }));
        // The page id is the name of the previous page's last secret.
        const after = url.searchParams.get('page_id');
        const start = after ? all.findIndex((secret) => secret.name === after) + 1 : 0;
        const items = all.slice(start, start + limit);
        const more = start + limit < all.length;
        return HttpResponse.json({ items, next_page_id: more ? (items.at(-1)?.name ?? null) : null });
      }),
    ),
    http.post(
      `${app}/api/v1/secrets`,
      guarded(async ({ request }) => {
        const body = (await request.json().catch(() => null)) as Record<string, unknown> | null;
        if (typeof body?.name !== 'string' || !SECRET_NAME.test(body.name)) {
          return secretNameError(body?.name, ['body', 'name']);
        }
        const existing = store.secrets.get(body.name);
        store.secrets.set(body.name, {
          value: String(body.value ?? ''),
          description:
            typeof body.description === 'string' ? body.description : (existing?.description ?? ''),
        });
        return HttpResponse.json({ message: 'Secret created successfully' }, { status: 201 });
      }),
    ),
    http.put(
      `${app}/api/v1/secrets/:id`,
      guarded(async ({ request, params }) => {
        const id = String(params.id);
        const body = (await request.json().catch(() => null)) as Record<string, unknown> | null;
        if (typeof body?.name !== 'string' || !SECRET_NAME.test(body.name)) {
          return secretNameError(body?.name, ['body', 'name']);
        }
        const secret = store.secrets.get(id);
        if (!secret) return missing(id);
        if (body.name !== id && store.secrets.has(body.name)) {
          return detail(`Secret ${body.name} already exists`, 400);
        }
        store.secrets.delete(id);
        store.secrets.set(body.name, {
          value: secret.value,
          description: typeof body.description === 'string' ? body.description : '',
        });
        return HttpResponse.json({ message: 'Secret updated successfully' });
      }),
    ),
    http.delete(
      `${app}/api/v1/secrets/:id`,
      guarded(({ params }) => {
        const id = String(params.id);
        if (!store.secrets.delete(id)) return missing(id);
        return HttpResponse.json({ message: 'Secret deleted successfully' });
      }),
    ),
  ];
}
