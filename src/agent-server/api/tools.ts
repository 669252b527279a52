import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../core/options.js';
import type { ApiContext } from './api-context.js';
import { arrayOf, aString, shape } from './decode.js';
import { op } from './operation.js';
import type { JsonObject } from './types.js';

export const TOOLS_OPERATIONS = {
  list: op('GET', '/api/tools/'),
  catalog: op('GET', '/api/tools/catalog', '1.58.0'),
} as const;

/** One entry of OpenAPI `ToolCatalogResponse.tools`. */
export interface ToolCatalogEntry extends JsonObject {
  name?: string;
  description?: string;
}

/** The tools the server can give an agent. */
export class ToolsApi {
  constructor(readonly api: ApiContext) {}

  /** Names of the registered tools. */
  list(options: RequestOptions = {}): APIPromise<string[]> {
    return this.api.call(TOOLS_OPERATIONS.list, { decode: arrayOf(aString), options });
  }

  /** The tool catalog with descriptions (1.58.0). */
  catalog(options: RequestOptions = {}): APIPromise<{ tools: ToolCatalogEntry[] }> {
    return this.api.call(TOOLS_OPERATIONS.catalog, { decode: shape({ tools: 'array' }), options });
  }
}
