import { versionAtLeast } from '../agent-server/versions.js';
import type { SimulatorCredentials } from './credentials.js';

export type SimulatorMode = 'msw' | 'loopback';

/** The services of a simulated platform, each at its own address. */
export type SimulatedService = 'agentServer' | 'runtimeApi' | 'gateway' | 'externalGateway' | 'app';

export const SIMULATED_SERVICES: readonly SimulatedService[] = [
  'agentServer',
  'runtimeApi',
  'gateway',
  'externalGateway',
  'app',
];

/** Name of the variable in the built-in gateway's environment that holds the external gateway's key. */
export const EXTERNAL_GATEWAY_KEY_ENV = 'EXTERNAL_GATEWAY_KEY';

/** Models the external gateway serves, as it names them (same-kind gateway). */
export const EXTERNAL_GATEWAY_MODELS: readonly string[] = [
  'claude-sonnet-4-5-20250929',
  'claude-haiku-4-5-20251001',
  'gpt-4o',
];

/**
 * Where a simulated platform answers and with which credentials: a plain JSON object (`agent-platform
 * simulate --json` prints it). Every value is for local use only: the credentials are generated per run.
 */
export interface SimulatorInfo {
  mode: SimulatorMode;
  agentServer: {
    /** `{base_url}`, e.g. `http://127.0.0.1:41000`. */
    url: string;
    /** The event socket, `ws://…/sockets/events/{conversation_id}`. */
    socketUrl: string;
    /** The session socket, `ws://…/sockets/session/{conversation_id}` (simulated versions ≥ 1.45.0). */
    sessionSocketUrl?: string;
    sessionApiKey: string;
    /** What `GET /server_info` reports; decides the socket protocol (auth, resend modes). */
    version: string;
  };
  runtimeApi: {
    url: string;
    adminPassword: string;
    /** The key named `default`. */
    apiKey: string;
    /** Names of the installer entries (`source: file`). */
    installerConfigs: string[];
  };
  gateway: {
    /** `{builtin_gateway_url}`. */
    url: string;
    masterKey: string;
    /** Models of the proxy configuration (kept across restarts, unlike models added with `addModel`). */
    configuredModels: string[];
  };
  externalGateway: {
    /** `{external_gateway_url}`: the company gateway the built-in one forwards to. */
    url: string;
    kind: 'same-kind';
    apiKey: string;
    /** Reference the key as `{ env: apiKeyEnv }` in `gatewayModelEntry` (the built-in gateway has it). */
    apiKeyEnv: string;
    models: string[];
  };
  app: {
    /** `{app_url}` of the platform application. */
    url: string;
    sessionApiKey: string;
  };
  tracing: {
    /** The simulated runtime pod's trace-export environment, input of `resolveTraceExport`. */
    env: Record<string, string>;
  };
}

export function simulatorInfo(
  mode: SimulatorMode,
  urls: Record<SimulatedService, string>,
  credentials: SimulatorCredentials,
  version: string,
  installerConfigs: string[],
  configuredModels: string[],
): SimulatorInfo {
  return {
    mode,
    agentServer: {
      url: urls.agentServer,
      socketUrl: `${urls.agentServer.replace(/^http/, 'ws')}/sockets/events/{conversation_id}`,
      ...(versionAtLeast(version, [1, 45, 0])
        ? { sessionSocketUrl: `${urls.agentServer.replace(/^http/, 'ws')}/sockets/session/{conversation_id}` }
        : {}),
      sessionApiKey: credentials.sessionApiKey,
      version,
    },
    runtimeApi: {
      url: urls.runtimeApi,
      adminPassword: credentials.adminPassword,
      apiKey: credentials.apiKey,
      installerConfigs,
    },
    gateway: { url: urls.gateway, masterKey: credentials.masterKey, configuredModels },
    externalGateway: {
      url: urls.externalGateway,
      kind: 'same-kind',
      apiKey: credentials.externalGatewayKey,
      apiKeyEnv: EXTERNAL_GATEWAY_KEY_ENV,
      models: [...EXTERNAL_GATEWAY_MODELS],
    },
    app: { url: urls.app, sessionApiKey: credentials.appSessionApiKey },
    tracing: {
      // A redirect to the operator's own collector, with a credential header.
      env: {
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://otel-collector:4318/v1/traces',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
        OTEL_EXPORTER_OTLP_TRACES_HEADERS: `x-api-key=${credentials.tracingApiKey}`,
      },
    },
  };
}

/**
 * The simulated platform as environment variables, under the names the examples (and the SDK's own
 * defaults, for the runtime API) read. Values include credentials: for local use only.
 */
export function simulatorEnv(info: SimulatorInfo): Record<string, string> {
  return {
    AGENT_SERVER_URL: info.agentServer.url,
    SESSION_API_KEY: info.agentServer.sessionApiKey,
    RUNTIME_API_URL: info.runtimeApi.url,
    ADMIN_PASSWORD: info.runtimeApi.adminPassword,
    API_KEY: info.runtimeApi.apiKey,
    GATEWAY_URL: info.gateway.url,
    MASTER_KEY: info.gateway.masterKey,
    EXTERNAL_GATEWAY_URL: info.externalGateway.url,
    EXTERNAL_GATEWAY_KEY_ENV: info.externalGateway.apiKeyEnv,
    EXTERNAL_GATEWAY_MODEL: info.externalGateway.models[0] ?? '',
    APP_URL: info.app.url,
    APP_SESSION_API_KEY: info.app.sessionApiKey,
  };
}
