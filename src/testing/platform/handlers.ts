import { HttpResponse, http } from 'msw/http';
import { appSettingsHandlers, unknownLlmKeys } from './settings-handlers.js';
import { PlatformStore } from './store.js';

export interface PlatformHandlersOptions {
  /** `{app_url}` of the platform application. Default: any origin. */
  baseUrl?: string;
  /** When set, app calls without this `X-Session-API-Key` get 401. */
  sessionApiKey?: string;
  /** Holds profiles and conversations; its `sandboxUrl` serves the conversation URLs. */
  store?: PlatformStore;
}

const PROFILE_NAME = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Stateful msw handlers for the platform: a profile saved reads back with its
 * `extra_headers`; tags PATCHed to a conversation URL replace the whole map and show in the search.
 */
export function platformHandlers(options: PlatformHandlersOptions = {}) {
  const store = options.store ?? new PlatformStore();
  const app = options.baseUrl ? options.baseUrl.replace(/\/+$/, '') : '*';
  const sandbox = store.sandboxUrl;
  const unauthorized = (request: Request) =>
    options.sessionApiKey !== undefined && request.headers.get('x-session-api-key') !== options.sessionApiKey
      ? HttpResponse.json({ detail: 'Invalid token' }, { status: 401 })
      : undefined;

  return [
    ...appSettingsHandlers(app, store, unauthorized),
    http.post(`${app}/api/v1/settings/profiles/:name`, async ({ request, params }) => {
      const refusal = unauthorized(request);
      if (refusal) return refusal;
      const name = String(params.name);
      if (!PROFILE_NAME.test(name))
        return validation(['path', 'profile_name'], 'String should match pattern');
      const body = (await request.json().catch(() => null)) as Record<string, unknown> | null;
      const llm = body?.llm as Record<string, unknown> | undefined;
      if (typeof llm !== 'object' || llm === null)
        return validation(['body', 'llm'], 'Input should be an object');
      // The app's profile model forbids unknown keys (openhands-ai 1.11.0 `StrictLLM`).
      const unknown = unknownLlmKeys(llm);
      if (unknown.length > 0) return HttpResponse.json({ detail: unknown }, { status: 422 });
      // A user who never stored settings cannot save profiles (the real app's 404).
      if (store.settings === null) {
        return HttpResponse.json({ detail: 'Settings not found' }, { status: 404 });
      }
      const headers = llm.extra_headers;
      if (headers !== undefined && headers !== null) {
        for (const [key, value] of Object.entries(headers as Record<string, unknown>)) {
          if (typeof value !== 'string') {
            return validation(['body', 'llm', 'extra_headers', key], 'Input should be a valid string');
          }
        }
      }
      const existing = store.profiles.get(name);
      if (!existing && store.profiles.size >= store.maxProfiles) {
        return HttpResponse.json(
          {
            detail: `Profile limit reached (${store.maxProfiles}). Delete a profile before saving a new one.`,
          },
          { status: 409 },
        );
      }
      // No key in the body keeps the stored one (the app's GET-edit-POST round trip).
      const keySet = typeof llm.api_key === 'string' && llm.api_key !== '';
      const { api_key: _key, ...stored } = llm;
      store.profiles.set(name, {
        llm: stored,
        api_key_set:
          (keySet && body?.preserve_existing_api_key !== true) ||
          (!keySet && existing?.api_key_set === true) ||
          (body?.preserve_existing_api_key === true && existing?.api_key_set === true),
      });
      // Overwriting the active profile with other settings clears the active pointer (the app's
      // reconcile_active_profile): it no longer describes what runs.
      if (store.activeProfile === name) {
        const running = (store.settings.agent_settings_diff as { llm?: unknown } | undefined)?.llm;
        if (JSON.stringify(running) !== JSON.stringify(stored)) store.activeProfile = null;
      }
      return HttpResponse.json({ name, message: `Profile '${name}' saved` }, { status: 201 });
    }),
    http.get(`${app}/api/v1/settings/profiles/:name`, ({ request, params }) => {
      const refusal = unauthorized(request);
      if (refusal) return refusal;
      const name = String(params.name);
      const profile = store.profiles.get(name);
      if (!profile) return HttpResponse.json({ detail: `Profile '${name}' not found` }, { status: 404 });
      return HttpResponse.json({
        name,
        config: { base_url: null, extra_headers: null, ...profile.llm, api_key: null },
        api_key_set: profile.api_key_set,
      });
    }),
    http.get(`${app}/api/v1/app-conversations/search`, ({ request }) => {
      const refusal = unauthorized(request);
      if (refusal) return refusal;
      const url = new URL(request.url);
      const limit = Number(url.searchParams.get('limit') ?? 100);
      if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
        return validation(['query', 'limit'], 'Input should be between 1 and 100');
      }
      const bound = (name: string) => {
        const value = url.searchParams.get(name);
        return value === null ? undefined : Date.parse(value);
      };
      const [cGte, cLt, uGte, uLt] = [
        'created_at__gte',
        'created_at__lt',
        'updated_at__gte',
        'updated_at__lt',
      ].map(bound);
      const items = [...store.conversations.values()].filter((c) => {
        const created = Date.parse(c.created_at);
        const updated = Date.parse(c.updated_at);
        return (
          (cGte === undefined || created >= cGte) &&
          (cLt === undefined || created < cLt) &&
          (uGte === undefined || updated >= uGte) &&
          (uLt === undefined || updated < uLt)
        );
      });
      const offset = Number(url.searchParams.get('page_id') ?? 0);
      const page = items.slice(offset, offset + limit);
      return HttpResponse.json({
        items: page,
        next_page_id: offset + limit < items.length ? String(offset + limit) : null,
      });
    }),
    // The conversation URL is served by the sandbox with the conversation's own key.
    http.patch(`${sandbox}/api/conversations/:id`, async ({ request, params }) => {
      const conversation = store.conversations.get(String(params.id));
      if (conversation && request.headers.get('x-session-api-key') !== conversation.session_api_key) {
        return HttpResponse.json({ detail: 'Unauthorized' }, { status: 401 });
      }
      const body = (await request.json().catch(() => null)) as { tags?: unknown } | null;
      const tags = body?.tags;
      if (tags !== undefined && tags !== null) {
        const problem = tagProblem(tags);
        if (problem) return validation(['body', 'tags'], problem);
      }
      if (!conversation) return HttpResponse.json({ success: false });
      if (tags !== undefined && tags !== null) conversation.tags = { ...(tags as Record<string, string>) };
      conversation.updated_at = new Date().toISOString();
      return HttpResponse.json({ success: true });
    }),
    http.get(`${sandbox}/api/conversations/:id`, ({ request, params }) => {
      const conversation = store.conversations.get(String(params.id));
      if (!conversation) return HttpResponse.json({ detail: 'Not Found' }, { status: 404 });
      if (request.headers.get('x-session-api-key') !== conversation.session_api_key) {
        return HttpResponse.json({ detail: 'Unauthorized' }, { status: 401 });
      }
      const { id, title, tags, created_at, updated_at } = conversation;
      return HttpResponse.json({ id, title, tags, created_at, updated_at, execution_status: 'idle' });
    }),
  ];
}

/** The server's own checks and messages, independent of the SDK's. */
function tagProblem(tags: unknown): string | undefined {
  if (typeof tags !== 'object' || Array.isArray(tags) || tags === null)
    return 'Input should be a valid dictionary';
  for (const [key, value] of Object.entries(tags)) {
    if (!/^[a-z0-9]+$/.test(key)) {
      return `Value error, Tag key '${key}' is invalid: keys must be lowercase alphanumeric only`;
    }
    if (typeof value !== 'string') return 'Input should be a valid string';
    if ([...value].length > 256)
      return `Value error, Tag value for '${key}' exceeds maximum length of 256 characters`;
  }
  return undefined;
}

function validation(loc: string[], msg: string) {
  return HttpResponse.json({ detail: [{ loc, msg, type: 'value_error' }] }, { status: 422 });
}
