// Subpath `agent-platform-sdk/testing`: msw handlers and in-memory state for testing apps built on the SDK.

export {
  type AgentServerApiHandlersOptions,
  agentServerApiHandlers,
} from './testing/agent-server/api-handlers.js';
export { type BashResult, runSimulatedCommand } from './testing/agent-server/bash-simulation.js';
export { type AgentServerHandlersOptions, agentServerHandlers } from './testing/agent-server/handlers.js';
export * from './testing/agent-server/index.js';
export {
  AgentServerStore,
  canonicalUuid,
  type StoredConversation,
  type StoredEvent,
} from './testing/agent-server/store.js';
export { SimulatedFiles } from './testing/agent-server/workspace-files.js';
export {
  type ExternalGatewayHandlersOptions,
  externalGatewayHandlers,
  type ReceivedUpstreamCall,
} from './testing/gateway/external-handlers.js';
export { type GatewayHandlersOptions, gatewayHandlers } from './testing/gateway/handlers.js';
export {
  GatewayStore,
  type GatewayStoreInit,
  type StoredGatewayModel,
  type StoredSpendRow,
} from './testing/gateway/store.js';
export { type PlatformHandlersOptions, platformHandlers } from './testing/platform/handlers.js';
export {
  PlatformStore,
  type PlatformStoreInit,
  type StoredAppConversation,
  type StoredProfile,
} from './testing/platform/store.js';
export { type RuntimeApiHandlersOptions, runtimeApiHandlers } from './testing/runtime/handlers.js';
export {
  type ConfigSource,
  DEFAULT_INSTALLER_CONFIG,
  type InstallerConfig,
  type LoginOutcome,
  type PoolChange,
  type RuntimeApiLogEntry,
  RuntimeApiState,
  type RuntimeApiStateOptions,
  type StoredApiKey,
  type WarmPool,
} from './testing/runtime/state.js';
export { type LoopbackServer, serveHandlers } from './testing/serve-http.js';
export {
  EXTERNAL_GATEWAY_KEY_ENV,
  type LoopbackSimulator,
  type LoopbackSimulatorOptions,
  type MswSimulator,
  type MswSimulatorOptions,
  SIMULATED_SERVICES,
  SIMULATOR_AGENT_SERVER_VERSION,
  SIMULATOR_MSW_URLS,
  type SimulatedService,
  type Simulator,
  type SimulatorCredentials,
  type SimulatorInfo,
  type SimulatorMode,
  type SimulatorOptions,
  type SimulatorStores,
  simulatorEnv,
  startSimulator,
} from './testing/simulator.js';
