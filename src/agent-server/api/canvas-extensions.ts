import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../core/options.js';
import { optionsObject, requireNonEmptyString } from '../../core/validate.js';
import type { ApiContext } from './api-context.js';
import { anyJson, shape } from './decode.js';
import { Installables, type Installed, type InstallRequest, installableOperations } from './installables.js';
import { op } from './operation.js';
import { optionalInt } from './paths.js';
import type { JsonObject } from './types.js';

const installed = installableOperations('/api/canvas-extensions', 'extension_name', '1.44.1');
const ONE = '/api/canvas-extensions/installed/{extension_name}';

export const CANVAS_EXTENSIONS_OPERATIONS = {
  ...installed,
  backendStatus: op('GET', `${ONE}/backend`, '1.58.0'),
  prepareBackend: op('POST', `${ONE}/backend/prepare`, '1.58.0'),
  startBackend: op('POST', `${ONE}/backend/start`, '1.58.0'),
  stopBackend: op('POST', `${ONE}/backend/stop`, '1.58.0'),
  backendLogs: op('GET', `${ONE}/backend/logs`, '1.58.0'),
  deleteBackendData: op('DELETE', `${ONE}/backend/data`, '1.58.0'),
  bundle: op('GET', `${ONE}/bundle`, '1.44.1'),
  icon: op('GET', `${ONE}/icon`, '1.58.0'),
  createAppBackendSession: op('POST', '/app-backends/{extension_name}/session', '1.58.0'),
  deleteAppBackendSession: op('DELETE', '/app-backends/{extension_name}/session', '1.58.0'),
} as const;

/** OpenAPI `BackendStatus` of an extension's backend process. */
export interface BackendStatus extends JsonObject {
  state?: string;
}

/** OpenAPI `AppBackendSessionResponse`. */
export interface AppBackendSession {
  ingress_url: string;
  expires_at: string;
  iframe_sandbox?: string;
}

/** Canvas extensions (UI bundles with an optional backend) and their app-backend sessions. */
export class CanvasExtensionsApi {
  readonly #api: ApiContext;
  readonly #installed: Installables;

  constructor(api: ApiContext) {
    this.#api = api;
    this.#installed = new Installables(api, installed, 'extension_name');
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

  backendStatus(name: string, options: RequestOptions = {}): Promise<BackendStatus> {
    return this.#installed.one(CANVAS_EXTENSIONS_OPERATIONS.backendStatus, name, undefined, options);
  }

  /** Prepares (installs the dependencies of) a backend revision (OpenAPI `BackendRevisionRequest`). */
  prepareBackend(
    name: string,
    request: JsonObject = {},
    options: RequestOptions = {},
  ): Promise<BackendStatus> {
    return this.#installed.one(CANVAS_EXTENSIONS_OPERATIONS.prepareBackend, name, request, options);
  }

  startBackend(name: string, request: JsonObject = {}, options: RequestOptions = {}): Promise<BackendStatus> {
    return this.#installed.one(CANVAS_EXTENSIONS_OPERATIONS.startBackend, name, request, options);
  }

  stopBackend(name: string, options: RequestOptions = {}): Promise<BackendStatus> {
    return this.#installed.one(CANVAS_EXTENSIONS_OPERATIONS.stopBackend, name, undefined, options);
  }

  /** The last `limitBytes` of the backend's log (OpenAPI `BackendLogs`). */
  backendLogs(
    name: string,
    query: { limitBytes?: number } = {},
    options: RequestOptions = {},
  ): APIPromise<JsonObject> {
    requireNonEmptyString(name, 'name');
    query = optionsObject(query, 'query');
    return this.#api.call(CANVAS_EXTENSIONS_OPERATIONS.backendLogs, {
      params: { extension_name: name },
      query: { limit_bytes: optionalInt(query.limitBytes, 'query.limitBytes') },
      decode: shape(),
      options,
    });
  }

  deleteBackendData(name: string, options: RequestOptions = {}): Promise<BackendStatus> {
    return this.#installed.one(CANVAS_EXTENSIONS_OPERATIONS.deleteBackendData, name, undefined, options);
  }

  /** The extension's UI bundle (JSON, as the server serves it). */
  bundle(name: string, options: RequestOptions = {}): APIPromise<unknown> {
    requireNonEmptyString(name, 'name');
    return this.#api.call(CANVAS_EXTENSIONS_OPERATIONS.bundle, {
      params: { extension_name: name },
      decode: anyJson,
      options,
    });
  }

  /** The extension's icon: SVG text. */
  icon(name: string, options: RequestOptions = {}): APIPromise<string> {
    requireNonEmptyString(name, 'name');
    return this.#api.call(CANVAS_EXTENSIONS_OPERATIONS.icon, {
      params: { extension_name: name },
      responseType: 'text',
      headers: { accept: 'image/svg+xml, */*' },
      options,
    });
  }

  /** A session for the extension's app backend (an ingress URL for an iframe). */
  createAppBackendSession(name: string, options: RequestOptions = {}): APIPromise<AppBackendSession> {
    requireNonEmptyString(name, 'name');
    return this.#api.call(CANVAS_EXTENSIONS_OPERATIONS.createAppBackendSession, {
      params: { extension_name: name },
      decode: shape<AppBackendSession>({ ingress_url: 'string', expires_at: 'string' }),
      options,
    });
  }

  deleteAppBackendSession(name: string, options: RequestOptions = {}): APIPromise<void> {
    requireNonEmptyString(name, 'name');
    return this.#api.call(CANVAS_EXTENSIONS_OPERATIONS.deleteAppBackendSession, {
      params: { extension_name: name },
      responseType: 'none',
      options,
    });
  }
}
