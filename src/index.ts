// Everything: clients, errors and the event model.
export * from './agent-server/index.js';
export type { AgentServerClientOptions } from './agent-server/options.js';
export type { ConnectionFailureReason } from './core/connection-failure.js';
export * from './core/errors.js';
export type { Logger, LogLevel } from './core/logger.js';
export type { ClientOptions, Credential, RequestOptions } from './core/options.js';
export * from './gateway/index.js';
export * from './models/index.js';
export * from './platform/index.js';
export * from './runtime/index.js';
