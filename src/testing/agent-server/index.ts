/**
 * The simulated agent server: msw HTTP handlers for every endpoint the SDK uses, msw `ws` handlers for the
 * event socket, a loopback server (REST + a `ws` socket server) that can be killed and restarted, and the
 * in-memory store they share.
 */
export { AgentRunner, type AgentRunnerOptions } from './agent-runner.js';
export { type AgentServerHandlersOptions, agentRunnerFor, agentServerHandlers } from './handlers.js';
export { SimulatedInstallables } from './installable-handlers.js';
export { type AgentServerLoopback, type ServeAgentServerOptions, serveAgentServer } from './loopback.js';
export { ScriptedAgent, type ScriptedAgentOptions } from './scripted-agent.js';
export { SimulatedSettings } from './settings-handlers.js';
export { type GitChangeEntry, type SimulatedCommit, SimulatedGit } from './simulated-git.js';
export { type SimulatedMachine, simulatedShell } from './simulated-shell.js';
export { type AgentServerSocketHandlersOptions, agentServerSocketHandlers } from './socket-handlers.js';
export {
  decideHandshake,
  EventSocketSession,
  isSessionSocketPath,
  type SocketPeer,
  type SocketSimulationOptions,
} from './socket-session.js';
export {
  AgentServerStore,
  canonicalUuid,
  isUuid,
  type SimulatedExecutionStatus,
  type StoredConversation,
  type StoredConversationInfo,
  type StoredEvent,
  type StoreEventListener,
} from './store.js';
