/**
 * The event model of the agent server (docs/events-model.md): zod schemas, inferred types, strict and lenient
 * parsing, type guards, kind ↔ module-path tables, action/result pairing, state updates and text rendering.
 * Depends on zod only; ships as `agent-platform-sdk/models`.
 */

export {
  ACTION_KINDS,
  type FileEditorCommand,
  FileEditorCommandSchema,
  type KnownActionKind,
  type TaskItem,
  TaskItemSchema,
} from './actions.js';
export { type SecurityRisk, SecurityRiskSchema } from './content.js';
export {
  applyStateUpdate,
  type ConversationState,
  type ConversationStateMirror,
  ConversationStateSchema,
  type ConversationStats,
  ConversationStatsSchema,
  EXECUTION_STATUSES,
  type ExecutionStatus,
  ExecutionStatusSchema,
  FULL_STATE_KEY,
  isFullStateUpdate,
  isTerminalExecutionStatus,
  type Metrics,
  MetricsSchema,
  TERMINAL_EXECUTION_STATUSES,
  type TerminalExecutionStatus,
  TokenUsageSchema,
} from './conversation-state.js';
export { EVENT_KINDS, type FailureKind, FailureKindSchema, type KnownEventKind } from './events.js';
export {
  isACPToolCallEvent,
  isActionEvent,
  isActionKind,
  isAgentErrorEvent,
  isCondensation,
  isCondensationRequest,
  isCondensationSummaryEvent,
  isConversationErrorEvent,
  isConversationStateUpdateEvent,
  isEventKind,
  isHookExecutionEvent,
  isInterruptEvent,
  isKnownAction,
  isKnownEvent,
  isKnownObservation,
  isKnownToolDefinition,
  isLLMCompletionLogEvent,
  isMessageEvent,
  isObservationEvent,
  isObservationKind,
  isPauseEvent,
  isSecurityAnalysisEvent,
  isServerErrorEvent,
  isStreamingDeltaEvent,
  isSystemPromptEvent,
  isTokenEvent,
  isUnknownAction,
  isUnknownEvent,
  isUnknownObservation,
  isUnknownToolDefinition,
  isUserRejectObservation,
} from './guards.js';
export {
  ACTION_KIND_MODULE_PATHS,
  EVENT_KIND_MODULE_PATHS,
  type EventKindWithModulePath,
  eventKindToModulePath,
  modulePathToEventKind,
  NEWER_EVENT_KIND_MODULE_PATHS,
  OBSERVATION_KIND_MODULE_PATHS,
  TOOL_DEFINITION_KIND_MODULE_PATHS,
} from './kinds.js';
export {
  type CmdOutputMetadata,
  CmdOutputMetadataSchema,
  type KnownObservationKind,
  OBSERVATION_KINDS,
} from './observations.js';
export {
  type ActionPair,
  type ActionResultEvent,
  ActionTracker,
  findActionFor,
  findResultFor,
  groupByLlmResponse,
  isActionResultEvent,
  isResultOf,
  pairActions,
} from './pairing.js';
export { type EventLookup, type HasParent, parentChain, parentOf } from './parents.js';
export {
  enableCompiledParsers,
  type ParseOptions,
  parseAction,
  parseConversationState,
  parseEvent,
  parseObservation,
  type SafeParseResult,
  safeParseEvent,
  safeParseModel,
} from './parse.js';
export { redactEvent, SECRET_EVENT_FIELDS } from './redact.js';
export { type RenderOptions, renderAction, renderEvent, renderObservation } from './render.js';
export { type EventSource, EventSourceSchema, type ParseMode } from './schema-kit.js';
export * from './schemas.js';
export {
  type KnownToolDefinitionKind,
  type MCPTool,
  MCPToolSchema,
  TOOL_DEFINITION_KINDS,
  type ToolAnnotations,
  ToolAnnotationsSchema,
} from './tools.js';
export {
  getUnknownInfo,
  type UnknownAction,
  type UnknownEvent,
  type UnknownInfo,
  type UnknownKind,
  type UnknownObservation,
  type UnknownToolDefinition,
} from './unknown.js';
