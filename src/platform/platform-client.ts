import { headerAuth, SecretRegistry } from '../core/auth.js';
import { BaseClient } from '../core/base-client.js';
import { resolveClientOptions } from '../core/client-options.js';
import { type APIError, NotFoundError, RequestValidationError, withMessage } from '../core/errors.js';
import type { RequestOptions } from '../core/options.js';
import { PagedIterable } from '../core/paginate.js';
import { encodePath, Transport } from '../core/transport.js';
import { describe, isPlainObject } from '../core/validate.js';
import {
  type AppSecret,
  type AppSecretUpdate,
  type AppSecretWrite,
  type AppSettings,
  type AppSettingsUpdate,
  appSettingsSchema,
  checkSecretName,
  type LlmProfileActivated,
  type LlmProfileChanged,
  type LlmProfileList,
  messageSchema,
  profileActivatedSchema,
  profileChangedSchema,
  profileListSchema,
  secretPageSchema,
} from './app-settings.js';
import { splitConversationUrl } from './conversation-url.js';
import { PLATFORM_ENV, type PlatformClientOptions } from './options.js';
import {
  checkProfileName,
  checkProfileWrite,
  type LlmProfile,
  type LlmProfileWrite,
  SESSION_ID_HEADER,
} from './profile.js';
import {
  type AppConversation,
  appConversationPageSchema,
  conversationTagsReadSchema,
  type LlmProfileSaved,
  profileReadSchema,
  profileSavedSchema,
  tagsUpdatedSchema,
} from './schemas.js';
import {
  applyTagsPatch,
  type ConversationTags,
  type ConversationTagsPatch,
  validateConversationTags,
  validateConversationTagsPatch,
} from './tags.js';
import { throttledFetch } from './throttle.js';

/** Options of a call to a conversation URL. */
export interface ConversationCallOptions extends RequestOptions {
  /**
   * The key for this conversation URL: the conversation URL is served by the conversation's sandbox, which
   * takes the conversation's own `session_api_key`. Without it, the client's `sessionApiKey` is sent only if
   * the URL is on the client's own origin (`baseUrl`), never to another host.
   */
  sessionApiKey?: string;
}

export interface ConversationSearch {
  createdAfter?: Date | string;
  createdBefore?: Date | string;
  updatedAfter?: Date | string;
  updatedBefore?: Date | string;
  /** Conversations per page, 1 to 100. Default 100. */
  pageSize?: number;
}

/**
 * The platform application: the user's settings, LLM profiles and custom secrets, conversation tags (on the
 * conversation URL, served by the agent server: the app's own conversation records have read-only tags), plus
 * the conversation search that batch reconciliation needs. Sends `X-Session-API-Key`. The app limits every
 * client to 10 requests/s (slower answers above, 429 above 20/s; a 429 is retried).
 */
export class PlatformClient extends BaseClient {
  readonly #options: PlatformClientOptions & { baseUrl: string };
  readonly #secrets: SecretRegistry;
  readonly #conversationTransports = new Map<string, Transport>();

  constructor(options?: PlatformClientOptions) {
    if (isPlainObject(options) && 'appUrl' in options) {
      throw new RequestValidationError('was renamed baseUrl, as in every client', 'appUrl');
    }
    const given = resolveClientOptions(options, PLATFORM_ENV);
    const resolved =
      given.maxRequestsPerSecond === undefined
        ? given
        : { ...given, fetch: throttledFetch(given.maxRequestsPerSecond, given.fetch) };
    const secrets = new SecretRegistry();
    super(
      {
        ...resolved,
        secrets: secrets.list,
        authHeaders: headerAuth(resolved.sessionApiKey, 'X-Session-API-Key', secrets),
      },
      { sessionApiKey: resolved.sessionApiKey },
    );
    this.#options = resolved;
    this.#secrets = secrets;
  }

  /**
   * Saves an LLM profile: `POST /api/v1/settings/profiles/{profile_name}`. `extra_headers`
   * persists (read it back with `getLlmProfile`). A `x-gateway-session-id` header is logged as a warning:
   * the platform SDK overwrites it at call time.
   */
  async saveLlmProfile(
    profileName: string,
    profile: LlmProfileWrite,
    options: RequestOptions = {},
  ): Promise<LlmProfileSaved> {
    checkProfileName(profileName);
    checkProfileWrite(profile);
    this.#secrets.add(profile.llm.api_key);
    const headers = profile.llm.extra_headers ?? {};
    if (Object.keys(headers).some((name) => name.toLowerCase() === SESSION_ID_HEADER)) {
      this.transport.logger.warn(
        `${SESSION_ID_HEADER} in profile ${profileName} is overwritten at call time with the conversation id; it is for tracing, not attribution`,
      );
    }
    return this.transport.request({
      method: 'POST',
      path: encodePath('api', 'v1', 'settings', 'profiles', { profileName }),
      json: profile,
      ...options,
      decode: (input) => profileSavedSchema.safeParse(input),
    });
  }

  /** Reads a profile back: `GET /api/v1/settings/profiles/{profile_name}`. 404 → `NotFoundError`. */
  async getLlmProfile(profileName: string, options: RequestOptions = {}): Promise<LlmProfile> {
    checkProfileName(profileName);
    return this.transport.request({
      method: 'GET',
      path: encodePath('api', 'v1', 'settings', 'profiles', { profileName }),
      ...options,
      decode: (input) => profileReadSchema.safeParse(input),
    }) as Promise<LlmProfile>;
  }

  /** Every saved profile and the active one: `GET /api/v1/settings/profiles` (keys never shown). */
  async listLlmProfiles(options: RequestOptions = {}): Promise<LlmProfileList> {
    return this.transport.request({
      method: 'GET',
      path: 'api/v1/settings/profiles',
      ...options,
      decode: (input) => profileListSchema.safeParse(input),
    });
  }

  /**
   * Makes a profile the user's LLM settings: `POST /api/v1/settings/profiles/{name}/activate`. An unknown
   * profile is a `NotFoundError`.
   */
  async activateLlmProfile(profileName: string, options: RequestOptions = {}): Promise<LlmProfileActivated> {
    checkProfileName(profileName);
    return this.transport.request({
      method: 'POST',
      path: encodePath('api', 'v1', 'settings', 'profiles', profileName, 'activate'),
      ...options,
      decode: (input) => profileActivatedSchema.safeParse(input),
    });
  }

  /**
   * Renames a profile, keeping its key and whether it is active: `POST …/profiles/{name}/rename`. An unknown
   * profile is a `NotFoundError`, a name already taken a `ConflictError`.
   */
  async renameLlmProfile(
    profileName: string,
    newName: string,
    options: RequestOptions = {},
  ): Promise<LlmProfileChanged> {
    checkProfileName(profileName);
    checkProfileName(newName, 'newName');
    return this.transport.request({
      method: 'POST',
      path: encodePath('api', 'v1', 'settings', 'profiles', profileName, 'rename'),
      json: { new_name: newName },
      ...options,
      decode: (input) => profileChangedSchema.safeParse(input),
    });
  }

  /** Deletes a profile: `DELETE /api/v1/settings/profiles/{name}`. The app answers 200 for an unknown name too. */
  async deleteLlmProfile(profileName: string, options: RequestOptions = {}): Promise<LlmProfileChanged> {
    checkProfileName(profileName);
    return this.transport.request({
      method: 'DELETE',
      path: encodePath('api', 'v1', 'settings', 'profiles', profileName),
      ...options,
      decode: (input) => profileChangedSchema.safeParse(input),
    });
  }

  /**
   * The user's settings: `GET /api/v1/settings`. A user who never stored settings (a fresh app) is a
   * `NotFoundError` (`{"error": "Settings not found"}`).
   */
  async getSettings(options: RequestOptions = {}): Promise<AppSettings> {
    return this.transport.request({
      method: 'GET',
      path: 'api/v1/settings',
      ...options,
      decode: (input) => appSettingsSchema.safeParse(input),
    }) as Promise<AppSettings>;
  }

  /**
   * Stores a partial update: `POST /api/v1/settings` (the app deep-merges `agent_settings_diff` and
   * `conversation_settings_diff`; whole `agent_settings` / `conversation_settings` objects are a 422). Also what
   * a fresh app needs once before it saves profiles (`{}` is enough).
   */
  async saveSettings(
    update: AppSettingsUpdate = {},
    options: RequestOptions = {},
  ): Promise<{ message: string }> {
    if (!isPlainObject(update as unknown)) {
      throw new RequestValidationError(`must be a plain object, got ${describe(update)}`, 'update');
    }
    return this.transport.request({
      method: 'POST',
      path: 'api/v1/settings',
      json: update,
      ...options,
      decode: (input) => messageSchema.safeParse(input),
    });
  }

  /** Creates or overwrites a custom secret: `POST /api/v1/secrets` (201). The value is redacted from logs. */
  async saveSecret(secret: AppSecretWrite, options: RequestOptions = {}): Promise<{ message: string }> {
    if (!isPlainObject(secret as unknown)) {
      throw new RequestValidationError(`must be a plain object, got ${describe(secret)}`, 'secret');
    }
    checkSecretName(secret.name, 'secret.name');
    if (typeof secret.value !== 'string' || secret.value === '') {
      throw new RequestValidationError('must be a non-empty string', 'secret.value');
    }
    this.#secrets.add(secret.value);
    return this.transport.request({
      method: 'POST',
      path: 'api/v1/secrets',
      json: secret,
      ...options,
      decode: (input) => messageSchema.safeParse(input),
    });
  }

  /**
   * Renames a secret or changes its description, keeping its value: `PUT /api/v1/secrets/{name}`. An unknown
   * secret is a `NotFoundError`; a new name already taken is a `BadRequestError` (the app's 400).
   */
  async updateSecret(
    name: string,
    update: AppSecretUpdate,
    options: RequestOptions = {},
  ): Promise<{ message: string }> {
    checkSecretName(name);
    if (!isPlainObject(update as unknown)) {
      throw new RequestValidationError(`must be a plain object, got ${describe(update)}`, 'update');
    }
    checkSecretName(update.name, 'update.name');
    return this.transport.request({
      method: 'PUT',
      path: encodePath('api', 'v1', 'secrets', name),
      json: update,
      ...options,
      decode: (input) => messageSchema.safeParse(input),
    });
  }

  /** Deletes a secret: `DELETE /api/v1/secrets/{name}`. An unknown secret is a `NotFoundError`. */
  async deleteSecret(name: string, options: RequestOptions = {}): Promise<{ message: string }> {
    checkSecretName(name);
    return this.transport.request({
      method: 'DELETE',
      path: encodePath('api', 'v1', 'secrets', name),
      ...options,
      decode: (input) => messageSchema.safeParse(input),
    });
  }

  /**
   * The user's custom secrets (names and descriptions, never values), in name order, page after page:
   * `GET /api/v1/secrets/search`. `nameContains` filters case-insensitively.
   */
  listSecrets(
    search: { nameContains?: string; pageSize?: number } = {},
    options: RequestOptions = {},
  ): PagedIterable<AppSecret> {
    if (!isPlainObject(search as unknown)) {
      throw new RequestValidationError(`must be a plain object, got ${describe(search)}`, 'search');
    }
    const limit = search.pageSize ?? 100;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
      throw new RequestValidationError('must be an integer from 1 to 100', 'pageSize');
    }
    return new PagedIterable(async (pageId) => {
      const page = await this.transport.request({
        method: 'GET',
        path: 'api/v1/secrets/search',
        query: { name__contains: search.nameContains, limit, page_id: pageId },
        ...options,
        decode: (input) => secretPageSchema.safeParse(input),
      });
      return { items: page.items, nextPageId: page.next_page_id || null };
    });
  }

  /**
   * Replaces the conversation's tags: `PATCH <conversation_url>` with `{tags}`. The server keeps
   * only the map sent (use `mergeConversationTags` to keep others). A bad map is a `RequestValidationError`
   * naming every bad key, and nothing is sent. An unknown conversation is a `NotFoundError`.
   */
  async updateConversationTags(
    conversationUrl: string,
    tags: ConversationTags,
    options: ConversationCallOptions = {},
  ): Promise<ConversationTags> {
    const valid = validateConversationTags(tags);
    const { transport, path, callOptions } = this.#conversationCall(conversationUrl, options);
    const answer = await transport.request({
      method: 'PATCH',
      path,
      json: { tags: valid },
      ...callOptions,
      decode: (input) => tagsUpdatedSchema.safeParse(input),
    });
    // The agent server answers an unknown conversation with 200 `{"success": false}`.
    if ((answer as { success?: unknown } | null)?.success === false) {
      throw new NotFoundError({
        status: 200,
        headers: {},
        body: answer,
        method: 'PATCH',
        url: transport.url(path),
        message: 'Conversation not found or not updated (the server answered {"success": false})',
      });
    }
    return valid;
  }

  /** The conversation's current tags, read from the conversation URL (its record carries `tags`). */
  async getConversationTags(
    conversationUrl: string,
    options: ConversationCallOptions = {},
  ): Promise<ConversationTags> {
    const { transport, path, callOptions } = this.#conversationCall(conversationUrl, options);
    return transport.request({
      method: 'GET',
      path,
      ...callOptions,
      decode: (input) => conversationTagsReadSchema.safeParse(input),
    });
  }

  /**
   * Read, merge, write: keeps the tags not in `patch`, sets the others, removes those set to `null`.
   * Not atomic: a write by someone else between the read and the write is lost.
   */
  async mergeConversationTags(
    conversationUrl: string,
    patch: ConversationTagsPatch,
    options: ConversationCallOptions = {},
  ): Promise<ConversationTags> {
    const valid = validateConversationTagsPatch(patch);
    splitConversationUrl(conversationUrl);
    const current = await this.getConversationTags(conversationUrl, options);
    return this.updateConversationTags(conversationUrl, applyTagsPatch(current, valid), options);
  }

  /**
   * Platform conversations, page after page: `GET /api/v1/app-conversations/search`. There is
   * no server-side tag filter; filter on `tags` yourself. Input of recipe 5 (`reconcileSpend`).
   */
  listConversations(
    search: ConversationSearch = {},
    options: RequestOptions = {},
  ): PagedIterable<AppConversation> {
    if (!isPlainObject(search as unknown)) {
      throw new RequestValidationError(`must be a plain object, got ${describe(search)}`, 'search');
    }
    const limit = search.pageSize ?? 100;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
      throw new RequestValidationError('must be an integer from 1 to 100', 'pageSize');
    }
    const query = {
      created_at__gte: isoDate(search.createdAfter, 'createdAfter'),
      created_at__lt: isoDate(search.createdBefore, 'createdBefore'),
      updated_at__gte: isoDate(search.updatedAfter, 'updatedAfter'),
      updated_at__lt: isoDate(search.updatedBefore, 'updatedBefore'),
      limit,
    };
    return new PagedIterable(async (pageId) => {
      const page = await this.transport.request({
        method: 'GET',
        path: 'api/v1/app-conversations/search',
        query: { ...query, page_id: pageId },
        ...options,
        decode: (input) => appConversationPageSchema.safeParse(input),
      });
      // Each conversation's own key must be redacted like the client's.
      for (const conversation of page.items) this.#secrets.add(conversation.session_api_key ?? undefined);
      return { items: page.items, nextPageId: page.next_page_id || null };
    });
  }

  #conversationCall(conversationUrl: string, options: ConversationCallOptions) {
    const { origin, path } = splitConversationUrl(conversationUrl);
    if (!isPlainObject(options as unknown)) {
      throw new RequestValidationError(`must be a plain object, got ${describe(options)}`, 'options');
    }
    const { sessionApiKey, ...callOptions } = options;
    if (sessionApiKey !== undefined) {
      if (typeof sessionApiKey !== 'string' || sessionApiKey === '' || /[\r\n]/.test(sessionApiKey)) {
        throw new RequestValidationError('must be a non-empty string without line breaks', 'sessionApiKey');
      }
      this.#secrets.add(sessionApiKey);
      callOptions.headers = { ...callOptions.headers, 'X-Session-API-Key': sessionApiKey };
    } else if (origin !== new URL(this.transport.baseUrl).origin) {
      // The client's own key is for the platform's origin only: a sandbox host never receives it.
      return {
        transport: this.#transportFor(origin),
        path,
        callOptions: { ...callOptions, mapError: keyWithheld },
      };
    }
    return { transport: this.#transportFor(origin), path, callOptions };
  }

  #transportFor(origin: string): Transport {
    let transport = this.#conversationTransports.get(origin);
    if (!transport) {
      transport = new Transport({
        ...this.#options,
        baseUrl: origin,
        secrets: this.#secrets.list,
        ...(origin === new URL(this.transport.baseUrl).origin
          ? { authHeaders: headerAuth(this.#options.sessionApiKey, 'X-Session-API-Key', this.#secrets) }
          : {}),
      });
      this.#conversationTransports.set(origin, transport);
    }
    return transport;
  }
}

/** A 401 from another origin than the client's, where the client's key was deliberately not sent. */
function keyWithheld(error: APIError): APIError {
  if (error.status !== 401) return error;
  return withMessage(
    error,
    "refused by the conversation's host: the client's sessionApiKey is sent only to its own origin (baseUrl); pass the conversation's session_api_key as the sessionApiKey option",
  );
}

function isoDate(value: Date | string | undefined, field: string): string | undefined {
  if (value === undefined) return undefined;
  const date =
    value instanceof Date ? value : typeof value === 'string' ? new Date(value) : new Date(Number.NaN);
  if (Number.isNaN(date.getTime()))
    throw new RequestValidationError('must be a Date or an ISO 8601 date', field);
  return value instanceof Date ? value.toISOString() : value;
}
