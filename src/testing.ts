// Subpath `agent-platform-sdk/testing`: msw handlers and in-memory state for testing apps built on the SDK.
export { type AgentServerHandlersOptions, agentServerHandlers } from './testing/agent-server/handlers.js';
export {
  AgentServerStore,
  canonicalUuid,
  type StoredConversation,
  type StoredEvent,
} from './testing/agent-server/store.js';
export { type LoopbackServer, serveHandlers } from './testing/serve-http.js';
