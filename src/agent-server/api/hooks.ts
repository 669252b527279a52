import type { RequestOptions } from '../../core/options.js';
import { optionsObject } from '../../core/validate.js';
import type { ApiContext } from './api-context.js';
import { shape } from './decode.js';
import { op } from './operation.js';
import { optionalString } from './paths.js';
import type { JsonObject } from './types.js';

export const HOOKS_OPERATIONS = { load: op('POST', '/api/hooks') } as const;

/** Hooks (commands the agent runs on its lifecycle events) found for a project. */
export class HooksApi {
  constructor(readonly api: ApiContext) {}

  /** The hook configuration of `projectDir` (null when there is none); OpenAPI `HooksResponse`. */
  async load(
    request: { projectDir?: string } = {},
    options: RequestOptions = {},
  ): Promise<JsonObject | null> {
    request = optionsObject(request, 'request');
    const answer = await this.api.call(HOOKS_OPERATIONS.load, {
      json: { project_dir: optionalString(request.projectDir, 'request.projectDir') ?? null },
      decode: shape<{ hook_config?: JsonObject | null }>({ hook_config: 'object?' }),
      options,
    });
    return answer.hook_config ?? null;
  }
}
