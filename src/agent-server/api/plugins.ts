import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../core/options.js';
import { requireNonEmptyString } from '../../core/validate.js';
import type { ApiContext } from './api-context.js';
import { shape } from './decode.js';
import { Installables, type Installed, type InstallRequest, installableOperations } from './installables.js';
import { op } from './operation.js';
import { requireObject } from './paths.js';
import type { JsonObject } from './types.js';

const installed = installableOperations('/api/plugins', 'plugin_name', '1.31.1');

export const PLUGINS_OPERATIONS = {
  load: op('POST', '/api/plugins', '1.31.1'),
  fetch: op('POST', '/api/plugins/fetch', '1.58.0'),
  ...installed,
  refresh: op('POST', '/api/plugins/installed/{plugin_name}/refresh', '1.31.1'),
  marketplace: op('GET', '/api/plugins/marketplace', '1.31.1'),
} as const;

/** Plugins (bundles of skills, hooks and MCP servers): load, fetch, install and manage. */
export class PluginsApi {
  readonly #api: ApiContext;
  readonly #installed: Installables;

  constructor(api: ApiContext) {
    this.#api = api;
    this.#installed = new Installables(api, installed, 'plugin_name');
  }

  /** The plugins the given sources provide (OpenAPI `PluginsRequest`). */
  load(request: JsonObject = {}, options: RequestOptions = {}): APIPromise<JsonObject> {
    requireObject(request, 'request');
    return this.#api.call(PLUGINS_OPERATIONS.load, { json: request, decode: shape(), options });
  }

  /** Fetches a plugin from its source without installing it (OpenAPI `FetchPluginRequest`). */
  fetch(
    request: { source: string; [field: string]: unknown },
    options: RequestOptions = {},
  ): APIPromise<JsonObject> {
    requireObject(request, 'request');
    requireNonEmptyString(request.source, 'request.source');
    return this.#api.call(PLUGINS_OPERATIONS.fetch, { json: request, decode: shape(), options });
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

  refresh(name: string, options: RequestOptions = {}): Promise<JsonObject> {
    return this.#installed.one(PLUGINS_OPERATIONS.refresh, name, undefined, options);
  }

  marketplace(options: RequestOptions = {}): APIPromise<JsonObject> {
    return this.#api.call(PLUGINS_OPERATIONS.marketplace, { decode: shape(), options });
  }
}
