import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../core/options.js';
import { optionsObject, requireNonEmptyString } from '../../core/validate.js';
import type { ApiContext } from './api-context.js';
import { arrayOf, shape } from './decode.js';
import { callNamed } from './named.js';
import { op } from './operation.js';
import { optionalString, requireObject } from './paths.js';
import { registerKeys } from './settings.js';
import type { JsonObject } from './types.js';

const SUB = '/api/llm/subscription/openai';
const CONNECTIONS = '/api/llm/provider-connections';

export const LLM_OPERATIONS = {
  providers: op('GET', '/api/llm/providers', '1.12.0'),
  models: op('GET', '/api/llm/models', '1.12.0'),
  verifiedModels: op('GET', '/api/llm/models/verified', '1.12.0'),
  subscriptionModels: op('GET', `${SUB}/models`, '1.31.1'),
  subscriptionStatus: op('GET', `${SUB}/status`, '1.31.1'),
  startDeviceLogin: op('POST', `${SUB}/device/start`, '1.31.1'),
  pollDeviceLogin: op('POST', `${SUB}/device/poll`, '1.31.1'),
  logout: op('POST', `${SUB}/logout`, '1.31.1'),
  discoverAcpModels: op('POST', '/api/acp/models', '1.58.0'),
  listConnections: op('GET', CONNECTIONS, '1.44.1'),
  createConnection: op('POST', CONNECTIONS, '1.44.1'),
  updateConnection: op('PATCH', `${CONNECTIONS}/{connection_id}`, '1.44.1'),
  deleteConnection: op('DELETE', `${CONNECTIONS}/{connection_id}`, '1.44.1'),
} as const;

/** OpenAPI `ProviderConnectionResponse` (the key is never sent back). */
export interface ProviderConnection {
  id: string;
  display_name?: string;
  provider?: string | null;
  base_url?: string | null;
  [field: string]: unknown;
}

const decodeConnection = shape<ProviderConnection>({ id: 'string' });

/** LLM providers and models, the OpenAI subscription login, provider connections and ACP model discovery. */
export class LlmApi {
  constructor(readonly api: ApiContext) {}

  providers(options: RequestOptions = {}): APIPromise<JsonObject> {
    return this.api.call(LLM_OPERATIONS.providers, { decode: shape(), options });
  }

  models(query: { provider?: string } = {}, options: RequestOptions = {}): APIPromise<JsonObject> {
    query = optionsObject(query, 'query');
    return this.api.call(LLM_OPERATIONS.models, {
      query: { provider: optionalString(query.provider, 'query.provider') },
      decode: shape(),
      options,
    });
  }

  verifiedModels(options: RequestOptions = {}): APIPromise<JsonObject> {
    return this.api.call(LLM_OPERATIONS.verifiedModels, { decode: shape(), options });
  }

  subscriptionModels(options: RequestOptions = {}): APIPromise<JsonObject> {
    return this.api.call(LLM_OPERATIONS.subscriptionModels, { decode: shape(), options });
  }

  subscriptionStatus(options: RequestOptions = {}): APIPromise<JsonObject> {
    return this.api.call(LLM_OPERATIONS.subscriptionStatus, { decode: shape(), options });
  }

  /** Starts the OpenAI device login: show the user code and URL, then `pollDeviceLogin(device_code)`. */
  startDeviceLogin(options: RequestOptions = {}): APIPromise<JsonObject> {
    return this.api.call(LLM_OPERATIONS.startDeviceLogin, { decode: shape(), retry: false, options });
  }

  pollDeviceLogin(deviceCode: string, options: RequestOptions = {}): APIPromise<JsonObject> {
    requireNonEmptyString(deviceCode, 'deviceCode');
    this.api.addSecret(deviceCode);
    return this.api.call(LLM_OPERATIONS.pollDeviceLogin, {
      json: { device_code: deviceCode },
      decode: shape(),
      options,
    });
  }

  logout(options: RequestOptions = {}): APIPromise<JsonObject> {
    return this.api.call(LLM_OPERATIONS.logout, { decode: shape(), options });
  }

  /** The models an ACP agent offers (OpenAPI `ACPModelDiscoveryRequest`); its secrets are redacted. */
  discoverAcpModels(
    request: { agent_settings: JsonObject; secrets?: JsonObject; refresh?: boolean },
    options: RequestOptions = {},
  ): APIPromise<JsonObject> {
    requireObject(request, 'request');
    requireObject(request.agent_settings, 'request.agent_settings');
    registerKeys(request, this.api.addSecret);
    for (const value of Object.values(request.secrets ?? {}))
      if (typeof value === 'string') this.api.addSecret(value);
    return this.api.call(LLM_OPERATIONS.discoverAcpModels, { json: request, decode: shape(), options });
  }

  listConnections(options: RequestOptions = {}): APIPromise<ProviderConnection[]> {
    return this.api.call(LLM_OPERATIONS.listConnections, { decode: arrayOf(decodeConnection), options });
  }

  /** Saves a provider connection; its `api_key` is registered for redaction. Not retried. */
  createConnection(
    request: { display_name: string; api_key: string; provider?: string; base_url?: string },
    options: RequestOptions = {},
  ): APIPromise<ProviderConnection> {
    requireObject(request, 'request');
    requireNonEmptyString(request.display_name, 'request.display_name');
    requireNonEmptyString(request.api_key, 'request.api_key');
    this.api.addSecret(request.api_key);
    return this.api.call(LLM_OPERATIONS.createConnection, {
      json: request,
      decode: decodeConnection,
      options,
    });
  }

  updateConnection(
    connectionId: string,
    update: JsonObject,
    options: RequestOptions = {},
  ): APIPromise<ProviderConnection> {
    return callNamed(
      this.api,
      LLM_OPERATIONS.updateConnection,
      'connection_id',
      connectionId,
      update,
      options,
    );
  }

  deleteConnection(connectionId: string, options: RequestOptions = {}): APIPromise<ProviderConnection> {
    return callNamed(
      this.api,
      LLM_OPERATIONS.deleteConnection,
      'connection_id',
      connectionId,
      undefined,
      options,
    );
  }
}
