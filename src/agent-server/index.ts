/**
 * The agent-server clients: events (paged search, count, send, live subscription)
 * and conversations (lifecycle, search, waiting for a status), the version gate and their errors.
 */

export { type Page, PagedIterable } from '../core/paginate.js';
export { AgentServerClient, type RawRequest } from './agent-server-client.js';
export type { BashCommandRequest, BashEventSearch, BashOutputOptions } from './api/bash.js';
export type { BashCommand, BashEvent, BashOutput } from './api/bash-events.js';
export type { ConversationHandle } from './api/conversation-handle.js';
export type { ConversationRuntime, FinalResponseOptions, ForkRequest } from './api/conversations.js';
export type { ExposeSecrets, ExposeSecretsOptions } from './api/expose-secrets.js';
export type { UploadData } from './api/file-body.js';
export type {
  ArchiveOptions,
  DownloadOptions,
  FileUploadResult,
  HomeDirectory,
  Subdirectory,
} from './api/files.js';
export type { GitChange, GitChangeStatus, GitCommit, GitCommitsPage, GitDiff } from './api/git.js';
export type { Operation, OperationTable } from './api/operation.js';
export { AGENT_SERVER_OPERATIONS, EXCLUDED_OPERATIONS } from './api/operations.js';
export type { SecretItem } from './api/secrets.js';
export type { HealthStatus, InitRequest, InitStatus } from './api/server.js';
export type { Settings } from './api/settings.js';
export type { JsonObject } from './api/types.js';
export type { ConversationInfo } from './conversation-info.js';
export type { ConversationTrace, TraceMetadataValue } from './conversation-trace.js';
export {
  type AgentSpec,
  type ConfirmationPolicy,
  type ConversationSearchQuery,
  type ConversationSortOrder,
  ConversationsClient,
  type CreateConversationOptions,
  type CreateConversationRequest,
  type SavedAgentStart,
  type StartConversationRequest,
} from './conversations-client.js';
export {
  AGENT_SERVER_VERSION_TOO_OLD,
  AgentServerVersionError,
  type AgentServerVersionErrorInit,
  ConversationEventError,
  conversationEventError,
  isAgentServerVersionError,
  isConversationEventError,
  isNotAnAgentServerError,
  isSubscriptionAuthenticationError,
  isSubscriptionConfigurationError,
  isSubscriptionConnectionError,
  isSubscriptionCredentialBindingError,
  isSubscriptionEndpointNotFoundError,
  isSubscriptionError,
  isSubscriptionFrameTooLargeError,
  isSubscriptionNotFoundError,
  isSubscriptionOverflowError,
  isSubscriptionProtocolError,
  isSubscriptionServerError,
  isWaitTimeoutError,
  NotAnAgentServerError,
  SubscriptionAuthenticationError,
  SubscriptionConfigurationError,
  SubscriptionConnectionError,
  SubscriptionCredentialBindingError,
  SubscriptionEndpointNotFoundError,
  SubscriptionError,
  type SubscriptionErrorInit,
  SubscriptionFrameTooLargeError,
  SubscriptionNotFoundError,
  SubscriptionOverflowError,
  SubscriptionProtocolError,
  SubscriptionServerError,
  WaitTimeoutError,
} from './errors.js';
export type { EventFilter, EventSearchQuery, EventSortOrder } from './event-query.js';
export { type ConfirmationResponse, EventsClient } from './events-client.js';
export type { ConversationReadOptions } from './include-skills.js';
export type { BashLiveEventMap, BashLiveOptions, BashLiveStream } from './live/bash-live.js';
export type { ResumePosition } from './live/delivery-ledger.js';
export type { ReconnectOptions } from './live/reconnect-options.js';
export type { WebSocketAuthMode } from './live/socket-auth.js';
export { Subscription } from './live/subscription.js';
export type {
  CloseInfo,
  OpenInfo,
  ReconnectInfo,
  ReconnectReason,
  StreamDelta,
  SubscribeOptions,
  SubscriptionEventMap,
  SubscriptionPhase,
} from './live/types.js';
export type { WebSocketConstructor, WebSocketLike } from './live/web-socket.js';
export type { ImageContentInput, MessageInput, MessageRole, TextContentInput } from './message-input.js';
export type { AgentServerClientOptions } from './options.js';
export {
  type OpenTelemetryApiLike,
  type ParentSpanSource,
  parentSpanContext,
  type SpanContextLike,
} from './parent-span-context.js';
export type { ServerInfo } from './server-info.js';
export {
  AGENT_SERVER_FEATURES,
  type AgentServerFeature,
  assertFeatureSupported,
  compareAgentServerVersions,
  parseAgentServerVersion,
  supportsFeature,
} from './version-gate.js';
export { ConversationView } from './view/conversation-view.js';
export {
  isViewClosedError,
  isViewEchoTimeoutError,
  ViewClosedError,
  ViewEchoTimeoutError,
} from './view/errors.js';
export { Projection } from './view/projection.js';
export type {
  ConversationItem,
  ConversationItemType,
  ConversationSnapshot,
  ConversationViewApi,
  ConversationViewOptions,
  LoadOlderOptions,
  PendingMessage,
  ViewConnection,
  ViewSendOptions,
  WhenIdleOptions,
} from './view/types.js';
export type { WaitUntilOptions } from './wait-until.js';
