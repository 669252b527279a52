import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../core/options.js';
import { requireNonEmptyString } from '../../core/validate.js';
import { invalid } from '../invalid.js';
import type { ApiContext } from './api-context.js';
import { shape } from './decode.js';
import { type Operation, op } from './operation.js';
import { requireObject } from './paths.js';
import type { JsonObject } from './types.js';

/** The operations skills, plugins and canvas extensions share: install, list, get, enable, uninstall. */
export function installableOperations(base: string, param: string, since: string) {
  const one = `${base}/installed/{${param}}`;
  return {
    install: op('POST', `${base}/install`, since),
    listInstalled: op('GET', `${base}/installed`, since),
    getInstalled: op('GET', one, since),
    setEnabled: op('PATCH', one, since),
    uninstall: op('DELETE', one, since),
  };
}

/** What every install request has: where from (git URL, GitHub shorthand or local path). */
export interface InstallRequest {
  source: string;
  ref?: string | null;
  repo_path?: string | null;
  force?: boolean;
  [field: string]: unknown;
}

/** An installed skill, plugin or extension (its `info` and state; other fields as the server sends). */
export interface Installed extends JsonObject {
  name?: string;
  enabled?: boolean;
}

/** Shared implementation of the install/list/get/enable/uninstall methods. */
export class Installables {
  constructor(
    readonly api: ApiContext,
    readonly operations: ReturnType<typeof installableOperations>,
    readonly param: string,
  ) {}

  install(request: InstallRequest, options: RequestOptions = {}): APIPromise<Installed> {
    requireObject(request, 'request');
    requireNonEmptyString(request.source, 'request.source');
    return this.api.call(this.operations.install, { json: request, decode: shape(), options });
  }

  listInstalled(options: RequestOptions = {}): APIPromise<JsonObject> {
    return this.api.call(this.operations.listInstalled, { decode: shape(), options });
  }

  getInstalled(name: string, options: RequestOptions = {}): Promise<Installed> {
    return this.#one(this.operations.getInstalled, name, undefined, options);
  }

  setEnabled(name: string, enabled: boolean, options: RequestOptions = {}): Promise<JsonObject> {
    if (typeof enabled !== 'boolean') throw invalid('enabled', 'must be a boolean');
    return this.#one(this.operations.setEnabled, name, { enabled }, options);
  }

  uninstall(name: string, options: RequestOptions = {}): Promise<JsonObject> {
    return this.#one(this.operations.uninstall, name, undefined, options);
  }

  one(operation: Operation, name: string, json: unknown, options: RequestOptions): Promise<JsonObject> {
    return this.#one(operation, name, json, options);
  }

  #one(operation: Operation, name: string, json: unknown, options: RequestOptions): APIPromise<JsonObject> {
    requireNonEmptyString(name, 'name');
    return this.api.call(operation, {
      params: { [this.param]: name },
      ...(json === undefined ? {} : { json }),
      decode: shape(),
      options,
    });
  }
}
