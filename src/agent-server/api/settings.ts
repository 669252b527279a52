import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../core/options.js';
import { requireNonEmptyString } from '../../core/validate.js';
import type { ApiContext } from './api-context.js';
import { shape } from './decode.js';
import { type ExposeSecretsOptions, exposeSecretsHeader, registerExposed } from './expose-secrets.js';
import { op } from './operation.js';
import { requireObject } from './paths.js';
import type { JsonObject } from './types.js';

export const SETTINGS_OPERATIONS = {
  agentSchema: op('GET', '/api/settings/agent-schema', '1.18.0'),
  conversationSchema: op('GET', '/api/settings/conversation-schema', '1.18.0'),
  get: op('GET', '/api/settings', '1.31.1'),
  update: op('PATCH', '/api/settings', '1.31.1'),
  addMcpServer: op('POST', '/api/settings/mcp/{settings_key}', '1.44.1'),
  patchMcpServer: op('PATCH', '/api/settings/mcp/{settings_key}', '1.44.1'),
  deleteMcpServer: op('DELETE', '/api/settings/mcp/{settings_key}', '1.44.1'),
} as const;

/** OpenAPI `SettingsResponse` (the LLM key itself is never sent back, only whether it is set). */
export interface Settings {
  agent_settings: JsonObject;
  conversation_settings: JsonObject;
  llm_api_key_is_set: boolean;
  active_profile?: string | null;
  active_agent_profile_id?: string | null;
  active_meta_profile?: string | null;
  misc_settings?: JsonObject;
  [field: string]: unknown;
}

const decodeSettings = shape<Settings>({
  agent_settings: 'object',
  conversation_settings: 'object',
  llm_api_key_is_set: 'boolean',
});

/** The server's saved settings: agent and conversation defaults, and the MCP servers (one sparse call each). */
export class SettingsApi {
  constructor(readonly api: ApiContext) {}

  /** JSON schema of the agent settings (OpenAPI `SettingsSchema`). */
  agentSchema(options: RequestOptions = {}): APIPromise<JsonObject> {
    return this.api.call(SETTINGS_OPERATIONS.agentSchema, { decode: shape(), options });
  }

  conversationSchema(options: RequestOptions = {}): APIPromise<JsonObject> {
    return this.api.call(SETTINGS_OPERATIONS.conversationSchema, { decode: shape(), options });
  }

  /**
   * The saved settings. Stored credentials come back masked (`**********`), unless `exposeSecrets` asks for
   * the server's cipher tokens (`encrypted`) or the values (`plaintext`); what comes back is registered for
   * redaction.
   */
  async get(options: ExposeSecretsOptions = {}): Promise<Settings> {
    const callOptions = exposeSecretsHeader(options);
    const settings = await this.api.call(SETTINGS_OPERATIONS.get, {
      decode: decodeSettings,
      options: callOptions,
    });
    if (options.exposeSecrets !== undefined) registerExposed(settings.agent_settings, this.api.addSecret);
    return settings;
  }

  /**
   * Merges `update` (OpenAPI `SettingsUpdateRequest`: `agent_settings_diff`, `conversation_settings_diff`, …)
   * into the saved settings. An `api_key` anywhere in it is registered for redaction first.
   */
  update(update: JsonObject, options: RequestOptions = {}): APIPromise<Settings> {
    requireObject(update, 'update');
    registerKeys(update, this.api.addSecret);
    return this.api.call(SETTINGS_OPERATIONS.update, { json: update, decode: decodeSettings, options });
  }

  /** Adds the MCP server `key` (OpenAPI `MCPServer-Input`). */
  addMcpServer(key: string, server: JsonObject, options: RequestOptions = {}): Promise<Settings> {
    return this.#mcp(SETTINGS_OPERATIONS.addMcpServer, key, server, options);
  }

  /** Changes the listed fields of the MCP server `key` (OpenAPI `MCPServerPatch`). */
  patchMcpServer(key: string, patch: JsonObject, options: RequestOptions = {}): Promise<Settings> {
    return this.#mcp(SETTINGS_OPERATIONS.patchMcpServer, key, patch, options);
  }

  deleteMcpServer(key: string, options: RequestOptions = {}): Promise<Settings> {
    return this.#mcp(SETTINGS_OPERATIONS.deleteMcpServer, key, undefined, options);
  }

  #mcp(
    operation: (typeof SETTINGS_OPERATIONS)[keyof typeof SETTINGS_OPERATIONS],
    key: string,
    json: JsonObject | undefined,
    options: RequestOptions,
  ): APIPromise<Settings> {
    requireNonEmptyString(key, 'key');
    if (json !== undefined) {
      requireObject(json, 'server');
      registerKeys(json, this.api.addSecret);
    }
    return this.api.call(operation, {
      params: { settings_key: key },
      ...(json === undefined ? {} : { json }),
      decode: decodeSettings,
      options,
    });
  }
}

const SECRET_FIELDS = /(^|_)(api_key|token|secret|password)$/i;

/** Every string under a key that names a credential, at any depth, is registered for redaction. */
export function registerKeys(value: unknown, add: (secret: string | undefined) => void, depth = 0): void {
  if (depth > 8 || typeof value !== 'object' || value === null) return;
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'string' && SECRET_FIELDS.test(key)) add(item);
    else registerKeys(item, add, depth + 1);
  }
}
