import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../core/options.js';
import { decodeServerInfo, type ServerInfo } from '../server-info.js';
import type { ApiContext } from './api-context.js';
import { shape } from './decode.js';
import { op } from './operation.js';
import { requireObject } from './paths.js';

export const SERVER_OPERATIONS = {
  root: op('GET', '/'),
  alive: op('GET', '/alive'),
  health: op('GET', '/health'),
  ready: op('GET', '/ready'),
  info: op('GET', '/server_info'),
  initStatus: op('GET', '/api/init', '1.31.1'),
  initialize: op('POST', '/api/init', '1.31.1'),
} as const;

/** OpenAPI `HealthStatus`. */
export interface HealthStatus {
  status: string;
}

/** OpenAPI `InitStatus`: `dormant` until `POST /api/init`, then `initializing`, `ready`. */
export interface InitStatus {
  state: 'dormant' | 'initializing' | 'ready';
  error?: string | null;
}

/** OpenAPI `InitRequest` (every field optional); `session_api_keys` and secret keys are redacted. */
export interface InitRequest {
  session_api_keys?: string[] | null;
  secret_key?: string | null;
  previous_secret_keys?: string[] | null;
  conversations_path?: string | null;
  bash_events_dir?: string | null;
  web_url?: string | null;
  allow_cors_origins?: string[] | null;
  max_concurrent_runs?: number | null;
  env?: Record<string, string> | null;
  [field: string]: unknown;
}

const decodeStatus = shape<HealthStatus>({ status: 'string' });
// Servers before 1.31 answer `/health` with a bare JSON string (`"OK"`); it is the same answer, so it is
// returned in the newer `{status}` shape instead of being rejected.
const decodeHealth: typeof decodeStatus = (input) =>
  typeof input === 'string' ? { success: true, data: { status: input } } : decodeStatus(input);
const decodeInit = shape<InitStatus>({ state: 'string', error: 'string?' });

/** Liveness, readiness, version and first-start initialisation of the server. */
export class ServerApi {
  constructor(readonly api: ApiContext) {}

  /** `GET /server_info`, cached per client (the version gate reads it); `refresh` fetches again. */
  info(options: { signal?: AbortSignal; refresh?: boolean } = {}): Promise<ServerInfo> {
    return this.api.serverInfo(options);
  }

  /** `GET /` (the same server info, never cached). */
  root(options: RequestOptions = {}): APIPromise<ServerInfo> {
    return this.api.call(SERVER_OPERATIONS.root, { decode: decodeServerInfo, options });
  }

  alive(options: RequestOptions = {}): APIPromise<HealthStatus> {
    return this.api.call(SERVER_OPERATIONS.alive, { decode: decodeHealth, options });
  }

  health(options: RequestOptions = {}): APIPromise<HealthStatus> {
    return this.api.call(SERVER_OPERATIONS.health, { decode: decodeHealth, options });
  }

  /** `GET /ready`: resolves when ready; a 503 (still starting) is an `APIError` with status 503. */
  ready(options: RequestOptions = {}): APIPromise<Record<string, string>> {
    return this.api.call(SERVER_OPERATIONS.ready, { decode: shape<Record<string, string>>(), options });
  }

  /** `GET /api/init`; a server not started with deferred init answers 404 (`NotFoundError`). */
  initStatus(options: RequestOptions = {}): APIPromise<InitStatus> {
    return this.api.call(SERVER_OPERATIONS.initStatus, { decode: decodeInit, options });
  }

  /** `POST /api/init`: configures a dormant server; the keys in the request are registered for redaction. */
  initialize(request: InitRequest, options: RequestOptions = {}): APIPromise<InitStatus> {
    requireObject(request, 'request');
    for (const key of [...(request.session_api_keys ?? []), ...(request.previous_secret_keys ?? [])])
      this.api.addSecret(key);
    this.api.addSecret(request.secret_key ?? undefined);
    return this.api.call(SERVER_OPERATIONS.initialize, { json: request, decode: decodeInit, options });
  }
}
