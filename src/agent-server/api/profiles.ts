import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../core/options.js';
import type { ApiContext } from './api-context.js';
import { shape } from './decode.js';
import { type ExposeSecretsOptions, exposeSecretsHeader, registerExposed } from './expose-secrets.js';
import { callNamed } from './named.js';
import { op } from './operation.js';
import type { JsonObject } from './types.js';

const ONE = '/api/profiles/{name}';

export const PROFILES_OPERATIONS = {
  list: op('GET', '/api/profiles', '1.31.1'),
  get: op('GET', ONE, '1.31.1'),
  save: op('POST', ONE, '1.31.1'),
  delete: op('DELETE', ONE, '1.31.1'),
  validate: op('POST', `${ONE}/validate`, '1.44.1'),
  rename: op('POST', `${ONE}/rename`, '1.31.1'),
  activate: op('POST', `${ONE}/activate`, '1.31.1'),
} as const;

/** OpenAPI `ProfileInfo`: a saved LLM configuration (the key itself is never listed). */
export interface ProfileInfo {
  name: string;
  model?: string | null;
  base_url?: string | null;
  provider_connection_id?: string | null;
  api_key_set?: boolean;
  [field: string]: unknown;
}

/** Saved LLM profiles (model, base URL, key); a conversation can switch to one by name. */
export class ProfilesApi {
  constructor(readonly api: ApiContext) {}

  list(
    options: RequestOptions = {},
  ): APIPromise<{ profiles: ProfileInfo[]; active_profile?: string | null }> {
    return this.api.call(PROFILES_OPERATIONS.list, { decode: shape({ profiles: 'array' }), options });
  }

  /**
   * One profile: `{ name, config, api_key_set }`. The key is null in `config` unless `exposeSecrets` asks for
   * the server's cipher token (`encrypted`) or the key itself (`plaintext`, with a linked provider's key
   * resolved); what comes back is registered for redaction.
   */
  async get(name: string, options: ExposeSecretsOptions = {}): Promise<JsonObject> {
    const callOptions = exposeSecretsHeader(options);
    const profile = await callNamed(this.api, PROFILES_OPERATIONS.get, 'name', name, undefined, callOptions);
    if (options.exposeSecrets !== undefined) registerExposed(profile.config, this.api.addSecret);
    return profile;
  }

  /** Saves `llm` (OpenAPI `LLM`) as profile `name`; its `api_key` is registered for redaction. */
  save(
    name: string,
    request: { llm: JsonObject; include_secrets?: boolean },
    options: RequestOptions = {},
  ): APIPromise<JsonObject> {
    return callNamed(this.api, PROFILES_OPERATIONS.save, 'name', name, request, options);
  }

  delete(name: string, options: RequestOptions = {}): APIPromise<JsonObject> {
    return callNamed(this.api, PROFILES_OPERATIONS.delete, 'name', name, undefined, options);
  }

  /** Checks an LLM configuration against its provider without saving it. */
  validate(name: string, request: { llm: JsonObject }, options: RequestOptions = {}): APIPromise<JsonObject> {
    return callNamed(this.api, PROFILES_OPERATIONS.validate, 'name', name, request, options);
  }

  rename(name: string, newName: string, options: RequestOptions = {}): APIPromise<JsonObject> {
    return callNamed(this.api, PROFILES_OPERATIONS.rename, 'name', name, { new_name: newName }, options);
  }

  /** Makes the profile the server's default LLM. */
  activate(name: string, options: RequestOptions = {}): APIPromise<JsonObject> {
    return callNamed(this.api, PROFILES_OPERATIONS.activate, 'name', name, undefined, options);
  }
}
