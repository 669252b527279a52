import type { RequestHandler, WebSocketHandler } from 'msw';
import { agentServerApiHandlers } from '../agent-server/api-handlers.js';
import { agentServerHandlers } from '../agent-server/handlers.js';
import { agentServerSocketHandlers } from '../agent-server/socket-handlers.js';
import { AgentServerStore } from '../agent-server/store.js';
import { externalGatewayHandlers, type ReceivedUpstreamCall } from '../gateway/external-handlers.js';
import { gatewayHandlers } from '../gateway/handlers.js';
import { GatewayStore } from '../gateway/store.js';
import { platformHandlers } from '../platform/handlers.js';
import { PlatformStore } from '../platform/store.js';
import { runtimeApiHandlers } from '../runtime/handlers.js';
import { RuntimeApiState } from '../runtime/state.js';
import { platformBridgeHandlers } from './bridge.js';
import type { SimulatorCredentials } from './credentials.js';
import { EXTERNAL_GATEWAY_KEY_ENV, EXTERNAL_GATEWAY_MODELS, type SimulatedService } from './info.js';

/** The state of every simulated service: inspect it, or change it, from a test. */
export interface SimulatorStores {
  agentServer: AgentServerStore;
  runtimeApi: RuntimeApiState;
  gateway: GatewayStore;
  /** Profiles and the app's conversation records (synced from the agent server when listed or tagged). */
  platform: PlatformStore;
  /** Every call the external gateway received (what crossed the chain). */
  upstreamCalls: ReceivedUpstreamCall[];
}

export interface ComposeOptions {
  /** Where each service is reached (the conversation URLs and the gateway's model entry point there). */
  urls: Record<SimulatedService, string>;
  /**
   * The origin each handler set answers for: the service's URL when they share one msw server, `*` when each
   * service has a loopback port of its own.
   */
  bases: Record<SimulatedService, string>;
  credentials: SimulatorCredentials;
  version: string;
  stepDelayMs: number;
}

/** The handlers of a simulated platform, per service, sharing one set of stores. */
export interface ComposedPlatform {
  stores: SimulatorStores;
  http: Record<SimulatedService, RequestHandler[]>;
  /**
   * msw `ws` handlers of the agent server's sockets (in-process mode), each with the HTTP upgrade handler through
   * which Node clients such as `ws` reach it.
   */
  ws: (WebSocketHandler | RequestHandler)[];
  installerConfigs: string[];
  configuredModels: string[];
}

/** The gateway's proxy configuration: one model through the chain, header forwarding on (recipes 2, 4). */
function proxyConfig(externalUrl: string) {
  return {
    model_list: [
      {
        model_name: 'claude-haiku-4-5',
        gateway_params: {
          model: `gateway_proxy/${EXTERNAL_GATEWAY_MODELS[1]}`,
          api_base: externalUrl,
          api_key: `os.environ/${EXTERNAL_GATEWAY_KEY_ENV}`,
        },
      },
    ],
    general_settings: { forward_client_headers_to_llm_api: true },
  };
}

export function composePlatform(options: ComposeOptions): ComposedPlatform {
  const { urls, bases, credentials } = options;
  const config = proxyConfig(urls.externalGateway);
  const stores: SimulatorStores = {
    agentServer: new AgentServerStore(),
    runtimeApi: new RuntimeApiState({
      adminPassword: credentials.adminPassword,
      apiKeys: [{ id: 'key-1', name: 'default', key_value: credentials.apiKey }],
    }),
    gateway: new GatewayStore({
      config,
      env: { [EXTERNAL_GATEWAY_KEY_ENV]: credentials.externalGatewayKey },
    }),
    platform: new PlatformStore({ sandboxUrl: urls.agentServer }),
    upstreamCalls: [],
  };

  const agent = agentServerHandlers({
    ...(bases.agentServer === '*' ? {} : { baseUrl: bases.agentServer }),
    store: stores.agentServer,
    sessionApiKey: credentials.sessionApiKey,
    version: options.version,
    agent: { stepDelayMs: options.stepDelayMs },
  });
  const agentApi = agentServerApiHandlers({
    ...(bases.agentServer === '*' ? {} : { baseUrl: bases.agentServer }),
    store: stores.agentServer,
    sessionApiKey: credentials.sessionApiKey,
    version: options.version,
  });
  const platform = platformHandlers({
    ...(bases.app === '*' ? {} : { baseUrl: bases.app }),
    sessionApiKey: credentials.appSessionApiKey,
    store: stores.platform,
  });
  const bridge = platformBridgeHandlers({
    agentStore: stores.agentServer,
    platformStore: stores.platform,
    sessionApiKey: credentials.sessionApiKey,
    agentBase: bases.agentServer,
    appBase: bases.app,
    agentHandlers: () => agent,
    platformHandlers: () => platform,
  });

  return {
    stores,
    http: {
      // The whole agent-server API (files, bash, final answers, fork, …), as the newest real server has it.
      agentServer: [...bridge.agentServer, ...agentApi, ...agent],
      runtimeApi: runtimeApiHandlers({
        ...(bases.runtimeApi === '*' ? {} : { baseUrl: bases.runtimeApi }),
        state: stores.runtimeApi,
      }),
      gateway: gatewayHandlers({
        ...(bases.gateway === '*' ? {} : { baseUrl: bases.gateway }),
        masterKey: credentials.masterKey,
        store: stores.gateway,
      }),
      externalGateway: externalGatewayHandlers({
        baseUrl: bases.externalGateway,
        kind: 'same-kind',
        keys: [credentials.externalGatewayKey],
        models: [...EXTERNAL_GATEWAY_MODELS],
        received: stores.upstreamCalls,
      }),
      app: [...bridge.app, ...platform],
    },
    ws: agentServerSocketHandlers({
      baseUrl: urls.agentServer,
      store: stores.agentServer,
      sessionApiKey: credentials.sessionApiKey,
      version: options.version,
    }),
    installerConfigs: [...stores.runtimeApi.installer.keys()],
    configuredModels: config.model_list.map((entry) => entry.model_name),
  };
}
