import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../core/options.js';
import type { ApiContext } from './api-context.js';
import { shape } from './decode.js';
import { callNamed } from './named.js';
import { op } from './operation.js';
import type { JsonObject } from './types.js';

const ONE = '/api/agent-profiles/{name}';

export const AGENT_PROFILES_OPERATIONS = {
  list: op('GET', '/api/agent-profiles', '1.31.1'),
  get: op('GET', ONE, '1.31.1'),
  save: op('POST', ONE, '1.31.1'),
  delete: op('DELETE', ONE, '1.31.1'),
  rename: op('POST', `${ONE}/rename`, '1.31.1'),
  activate: op('POST', '/api/agent-profiles/{profile_id}/activate', '1.31.1'),
  materialize: op('POST', `${ONE}/materialize`, '1.31.1'),
} as const;

/** Saved agent profiles (agent settings by name); a conversation can start from one (`agent_profile_id`). */
export class AgentProfilesApi {
  constructor(readonly api: ApiContext) {}

  list(
    options: RequestOptions = {},
  ): APIPromise<{ profiles: JsonObject[]; active_agent_profile_id?: string | null }> {
    return this.api.call(AGENT_PROFILES_OPERATIONS.list, { decode: shape({ profiles: 'array' }), options });
  }

  get(name: string, options: RequestOptions = {}): APIPromise<JsonObject> {
    return callNamed(this.api, AGENT_PROFILES_OPERATIONS.get, 'name', name, undefined, options);
  }

  /** Saves the profile (the body is the profile object itself); credential fields are redacted. */
  save(name: string, profile: JsonObject, options: RequestOptions = {}): APIPromise<JsonObject> {
    return callNamed(this.api, AGENT_PROFILES_OPERATIONS.save, 'name', name, profile, options);
  }

  delete(name: string, options: RequestOptions = {}): APIPromise<JsonObject> {
    return callNamed(this.api, AGENT_PROFILES_OPERATIONS.delete, 'name', name, undefined, options);
  }

  rename(name: string, newName: string, options: RequestOptions = {}): APIPromise<JsonObject> {
    return callNamed(
      this.api,
      AGENT_PROFILES_OPERATIONS.rename,
      'name',
      name,
      { new_name: newName },
      options,
    );
  }

  /** Makes the profile (by id) the server's default agent. */
  activate(profileId: string, options: RequestOptions = {}): APIPromise<JsonObject> {
    return callNamed(
      this.api,
      AGENT_PROFILES_OPERATIONS.activate,
      'profile_id',
      profileId,
      undefined,
      options,
    );
  }

  /** Resolves a profile (or a draft `{profile}`) into agent settings and reports problems (`AgentProfileDiagnostics`). */
  materialize(
    name: string,
    request: { profile?: JsonObject } = {},
    options: RequestOptions = {},
  ): APIPromise<JsonObject> {
    return callNamed(this.api, AGENT_PROFILES_OPERATIONS.materialize, 'name', name, request, options);
  }
}
