/**
 * The built schemas (both modes) and the public types, which are the strict schemas' output types written out;
 * the fields that can hold an unknown kind after lenient parsing (`action`, `observation`, `tools[]`) are
 * widened to say so.
 */
import type * as z from 'zod/mini';
import type { KnownEventKind } from './events.js';
import { eventSchemas } from './mode-schemas.js';
import type { UnknownEvent } from './unknown.js';

export type { EventSchemas } from './mode-schemas.js';

// This module builds the schemas of both modes when it is loaded: only `agent-platform-sdk/models`, which exports
// them, loads it; the parsers build them on first use (mode-schemas.ts).
const s = eventSchemas('strict');

// ---- Schemas (strict: exactly the published shapes; `eventSchemas('lenient')` has the lenient ones) ----
// Typed by what they parse (`z.ZodMiniType<Output>`), not by their zod structure, so that the declarations of
// `agent-platform-sdk/models` stay small (docs/performance.md, "Type-checking"). The objects are the schemas
// themselves: `.safeParse`, `z.array(EventSchema)` and the like work as before.
type Schema<T> = z.ZodMiniType<T, unknown>;
type SchemaMap<M> = { readonly [K in keyof M]: Schema<M[K]> };
export const EventSchema: Schema<KnownEvent> = s.Event;
export const LenientEventSchema: Schema<Event> = eventSchemas('lenient').Event;
export const ActionSchema: Schema<Action> = s.Action;
export const ObservationSchema: Schema<Observation> = s.Observation;
export const ToolDefinitionSchema: Schema<ToolDefinition> = s.ToolDefinition;
export const TextContentSchema: Schema<TextContent> = s.content.TextContent;
export const ImageContentSchema: Schema<ImageContent> = s.content.ImageContent;
export const ContentSchema: Schema<Content> = s.content.Content;
export const ThinkingBlockSchema: Schema<ThinkingBlock> = s.content.ThinkingBlock;
export const RedactedThinkingBlockSchema: Schema<RedactedThinkingBlock> = s.content.RedactedThinkingBlock;
export const ReasoningItemModelSchema: Schema<ReasoningItemModel> = s.content.ReasoningItemModel;
export const MessageToolCallSchema: Schema<MessageToolCall> = s.content.MessageToolCall;
export const CriticResultSchema: Schema<CriticResult> = s.content.CriticResult;
export const ErrorClassificationSchema: Schema<ErrorClassification> = s.ErrorClassification;
export const MessageSchema: Schema<Message> = s.content.Message;
export const ValidationErrorSchema: Schema<ValidationError> = s.content.ValidationError;
export const HTTPValidationErrorSchema: Schema<HTTPValidationError> = s.content.HTTPValidationError;
/** Per-kind schemas: `EventVariantSchemas.ActionEvent`, `ActionVariantSchemas.TerminalAction`, … */
export const EventVariantSchemas: SchemaMap<KnownEventMap> = s.variants;
export const ActionVariantSchemas: SchemaMap<KnownActionMap> = s.actions.variants;
export const ObservationVariantSchemas: SchemaMap<KnownObservationMap> = s.observations.variants;
export const ToolDefinitionVariantSchemas: SchemaMap<KnownToolDefinitionMap> = s.tools.variants;

// ---- Types ----
// Written out in types.generated.ts (printed from `z.output` of the strict schemas by
// scripts/write-public-types.ts, checked equal by test/package/public-types.test.ts), so that the package's
// declarations do not carry zod's types (docs/performance.md, "Type-checking"). The fields that can hold an
// unknown kind after lenient parsing (`action`, `observation`, `tools[]`) are widened there.
import type {
  ACPToolCallEvent,
  Action,
  ActionEvent,
  AgentErrorEvent,
  Condensation,
  CondensationRequest,
  CondensationSummaryEvent,
  ConversationErrorEvent,
  ConversationStateUpdateEvent,
  CriticResult,
  ErrorClassification,
  HookExecutionEvent,
  HTTPValidationError,
  ImageContent,
  InterruptEvent,
  KnownActionMap,
  KnownObservationMap,
  KnownToolDefinitionMap,
  LLMCompletionLogEvent,
  Message,
  MessageEvent,
  MessageToolCall,
  Observation,
  ObservationEvent,
  PauseEvent,
  ReasoningItemModel,
  RedactedThinkingBlock,
  SecurityAnalysisEvent,
  ServerErrorEvent,
  StreamingDeltaEvent,
  SystemPromptEvent,
  TextContent,
  ThinkingBlock,
  TokenEvent,
  ToolDefinition,
  UserRejectObservation,
  ValidationError,
} from './types.generated.js';

export type * from './types.generated.js';

/** One of the content items of a message. */
export type Content = TextContent | ImageContent;

/** A known action of the given kind. */
export type KnownActionOf<K extends keyof KnownActionMap> = KnownActionMap[K];
export type TerminalAction = KnownActionOf<'TerminalAction'>;
export type FinishAction = KnownActionOf<'FinishAction'>;
export type ThinkAction = KnownActionOf<'ThinkAction'>;
export type MCPToolAction = KnownActionOf<'MCPToolAction'>;
export type FileEditorAction = KnownActionOf<'FileEditorAction'>;
export type TaskTrackerAction = KnownActionOf<'TaskTrackerAction'>;

/** A known observation of the given kind. */
export type KnownObservationOf<K extends keyof KnownObservationMap> = KnownObservationMap[K];
export type TerminalObservation = KnownObservationOf<'TerminalObservation'>;
export type FinishObservation = KnownObservationOf<'FinishObservation'>;
export type FileEditorObservation = KnownObservationOf<'FileEditorObservation'>;

/** A known tool definition (SystemPromptEvent `tools`) of the given kind. */
export type KnownToolDefinitionOf<K extends keyof KnownToolDefinitionMap> = KnownToolDefinitionMap[K];
export type MCPToolDefinition = KnownToolDefinitionOf<'MCPToolDefinition'>;

/** Every known event, by kind. */
export interface KnownEventMap {
  ServerErrorEvent: ServerErrorEvent;
  ACPToolCallEvent: ACPToolCallEvent;
  HookExecutionEvent: HookExecutionEvent;
  SecurityAnalysisEvent: SecurityAnalysisEvent;
  StreamingDeltaEvent: StreamingDeltaEvent;
  InterruptEvent: InterruptEvent;
  Condensation: Condensation;
  CondensationRequest: CondensationRequest;
  CondensationSummaryEvent: CondensationSummaryEvent;
  ConversationErrorEvent: ConversationErrorEvent;
  ConversationStateUpdateEvent: ConversationStateUpdateEvent;
  LLMCompletionLogEvent: LLMCompletionLogEvent;
  ActionEvent: ActionEvent;
  MessageEvent: MessageEvent;
  AgentErrorEvent: AgentErrorEvent;
  ObservationEvent: ObservationEvent;
  UserRejectObservation: UserRejectObservation;
  SystemPromptEvent: SystemPromptEvent;
  TokenEvent: TokenEvent;
  PauseEvent: PauseEvent;
}
/** One of the known events; `switch (event.kind)` narrows exhaustively. */
export type KnownEvent = KnownEventMap[KnownEventKind];
/** What `parseEvent` returns: a known event, or (lenient mode only) an UnknownEvent. */
export type Event = KnownEvent | UnknownEvent;
