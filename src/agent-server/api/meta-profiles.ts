import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../core/options.js';
import type { ApiContext } from './api-context.js';
import { shape } from './decode.js';
import { callNamed } from './named.js';
import { op } from './operation.js';
import type { JsonObject } from './types.js';

const ONE = '/api/meta-profiles/{name}';

export const META_PROFILES_OPERATIONS = {
  list: op('GET', '/api/meta-profiles', '1.58.0'),
  get: op('GET', ONE, '1.58.0'),
  save: op('POST', ONE, '1.58.0'),
  delete: op('DELETE', ONE, '1.58.0'),
  activate: op('POST', `${ONE}/activate`, '1.58.0'),
} as const;

/** Meta-profiles (1.58.0): a named choice of LLM profile and agent profile, activated together. */
export class MetaProfilesApi {
  constructor(readonly api: ApiContext) {}

  list(
    options: RequestOptions = {},
  ): APIPromise<{ meta_profiles: JsonObject[]; active_meta_profile?: string | null }> {
    return this.api.call(META_PROFILES_OPERATIONS.list, {
      decode: shape({ meta_profiles: 'array' }),
      options,
    });
  }

  get(name: string, options: RequestOptions = {}): APIPromise<JsonObject> {
    return callNamed(this.api, META_PROFILES_OPERATIONS.get, 'name', name, undefined, options);
  }

  /** Saves a meta-profile (OpenAPI `MetaProfile`). */
  save(name: string, profile: JsonObject, options: RequestOptions = {}): APIPromise<JsonObject> {
    return callNamed(this.api, META_PROFILES_OPERATIONS.save, 'name', name, profile, options);
  }

  delete(name: string, options: RequestOptions = {}): APIPromise<JsonObject> {
    return callNamed(this.api, META_PROFILES_OPERATIONS.delete, 'name', name, undefined, options);
  }

  activate(name: string, options: RequestOptions = {}): APIPromise<JsonObject> {
    return callNamed(this.api, META_PROFILES_OPERATIONS.activate, 'name', name, undefined, options);
  }
}
