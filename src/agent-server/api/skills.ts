import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../core/options.js';
import type { ApiContext } from './api-context.js';
import { shape } from './decode.js';
import { Installables, type Installed, type InstallRequest, installableOperations } from './installables.js';
import { op } from './operation.js';
import { requireObject } from './paths.js';
import type { JsonObject } from './types.js';

const installed = installableOperations('/api/skills', 'skill_name', '1.31.1');

export const SKILLS_OPERATIONS = {
  load: op('POST', '/api/skills'),
  catalog: op('GET', '/api/skills/catalog', '1.58.0'),
  sync: op('POST', '/api/skills/sync'),
  ...installed,
  refresh: op('POST', '/api/skills/installed/{skill_name}/refresh', '1.31.1'),
  marketplace: op('GET', '/api/skills/marketplace', '1.31.1'),
  subAgents: op('POST', '/api/sub-agents', '1.31.1'),
} as const;

/** OpenAPI `SkillsRequest`: which sources to load skills from. */
export interface SkillsRequest {
  load_public?: boolean;
  load_user?: boolean;
  load_project?: boolean;
  load_org?: boolean;
  project_dir?: string | null;
  marketplace_path?: string | null;
  [field: string]: unknown;
}

/** OpenAPI `SkillInfo`. */
export interface SkillInfo extends JsonObject {
  name: string;
}

/** Skills (prompts and knowledge the agent loads), their catalog, installs and sub-agents. */
export class SkillsApi {
  readonly #api: ApiContext;
  readonly #installed: Installables;

  constructor(api: ApiContext) {
    this.#api = api;
    this.#installed = new Installables(api, installed, 'skill_name');
  }

  /** The skills the given sources provide (`POST /api/skills`). */
  load(
    request: SkillsRequest = {},
    options: RequestOptions = {},
  ): APIPromise<{ skills: SkillInfo[]; sources?: Record<string, number> }> {
    requireObject(request, 'request');
    return this.#api.call(SKILLS_OPERATIONS.load, {
      json: request,
      decode: shape({ skills: 'array' }),
      options,
    });
  }

  catalog(options: RequestOptions = {}): APIPromise<JsonObject> {
    return this.#api.call(SKILLS_OPERATIONS.catalog, { decode: shape(), options });
  }

  /** Pulls the public skills again. */
  sync(options: RequestOptions = {}): APIPromise<JsonObject> {
    return this.#api.call(SKILLS_OPERATIONS.sync, { decode: shape(), options });
  }

  install(request: InstallRequest, options?: RequestOptions): Promise<Installed> {
    return this.#installed.install(request, options);
  }

  listInstalled(options?: RequestOptions): Promise<JsonObject> {
    return this.#installed.listInstalled(options);
  }

  getInstalled(name: string, options?: RequestOptions): Promise<Installed> {
    return this.#installed.getInstalled(name, options);
  }

  setEnabled(name: string, enabled: boolean, options?: RequestOptions): Promise<JsonObject> {
    return this.#installed.setEnabled(name, enabled, options);
  }

  uninstall(name: string, options?: RequestOptions): Promise<JsonObject> {
    return this.#installed.uninstall(name, options);
  }

  /** Updates an installed skill from its source. */
  refresh(name: string, options: RequestOptions = {}): Promise<JsonObject> {
    return this.#installed.one(SKILLS_OPERATIONS.refresh, name, undefined, options);
  }

  marketplace(options: RequestOptions = {}): APIPromise<JsonObject> {
    return this.#api.call(SKILLS_OPERATIONS.marketplace, { decode: shape(), options });
  }

  /** The sub-agents the given sources define (`POST /api/sub-agents`). */
  subAgents(request: JsonObject = {}, options: RequestOptions = {}): APIPromise<JsonObject> {
    requireObject(request, 'request');
    return this.#api.call(SKILLS_OPERATIONS.subAgents, { json: request, decode: shape(), options });
  }
}
