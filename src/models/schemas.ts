/**
 * The built schemas (both modes) and the public types. Types are inferred from the strict schemas; the fields
 * that can hold an unknown kind after lenient parsing (`action`, `observation`, `tools[]`) are widened to say so.
 */
import type * as z from 'zod/mini';
import { buildEventSchemas, type KnownEventKind } from './events.js';
import type { UnknownAction, UnknownEvent, UnknownObservation, UnknownToolDefinition } from './unknown.js';

export const strictSchemas = buildEventSchemas('strict');
export const lenientSchemas = buildEventSchemas('lenient');

const s = strictSchemas;

// ---- Schemas (strict: exactly the published shapes; see `lenientSchemas` for the lenient ones) ----
export const EventSchema = s.Event;
export const LenientEventSchema = lenientSchemas.Event;
export const ActionSchema = s.Action;
export const ObservationSchema = s.Observation;
export const ToolDefinitionSchema = s.ToolDefinition;
export const TextContentSchema = s.content.TextContent;
export const ImageContentSchema = s.content.ImageContent;
export const ContentSchema = s.content.Content;
export const ThinkingBlockSchema = s.content.ThinkingBlock;
export const RedactedThinkingBlockSchema = s.content.RedactedThinkingBlock;
export const ReasoningItemModelSchema = s.content.ReasoningItemModel;
export const MessageToolCallSchema = s.content.MessageToolCall;
export const CriticResultSchema = s.content.CriticResult;
export const ErrorClassificationSchema = s.ErrorClassification;
export const MessageSchema = s.content.Message;
export const ValidationErrorSchema = s.content.ValidationError;
export const HTTPValidationErrorSchema = s.content.HTTPValidationError;
/** Per-kind schemas: `EventVariantSchemas.ActionEvent`, `ActionVariantSchemas.TerminalAction`, … */
export const EventVariantSchemas = s.variants;
export const ActionVariantSchemas = s.actions.variants;
export const ObservationVariantSchemas = s.observations.variants;
export const ToolDefinitionVariantSchemas = s.tools.variants;

// ---- Nested types ----
export type TextContent = z.output<typeof s.content.TextContent>;
export type ImageContent = z.output<typeof s.content.ImageContent>;
export type Content = TextContent | ImageContent;
export type ThinkingBlock = z.output<typeof s.content.ThinkingBlock>;
export type RedactedThinkingBlock = z.output<typeof s.content.RedactedThinkingBlock>;
export type ReasoningItemModel = z.output<typeof s.content.ReasoningItemModel>;
export type MessageToolCall = z.output<typeof s.content.MessageToolCall>;
export type CriticResult = z.output<typeof s.content.CriticResult>;
/** Why an error happened (`kind`), whether retrying may help (`retryable`) and what the user should do. */
export type ErrorClassification = z.output<typeof s.ErrorClassification>;
export type Message = z.output<typeof s.content.Message>;
export type ValidationError = z.output<typeof s.content.ValidationError>;
export type HTTPValidationError = z.output<typeof s.content.HTTPValidationError>;

// ---- Actions, observations, tool definitions ----
type ActionVariants = typeof s.actions.variants;
type ObservationVariants = typeof s.observations.variants;
type ToolVariants = typeof s.tools.variants;

/** A known action; narrow with `switch (action.kind)`. */
export type Action = z.output<typeof s.Action>;
export type KnownActionOf<K extends keyof ActionVariants> = z.output<ActionVariants[K]>;
export type TerminalAction = KnownActionOf<'TerminalAction'>;
export type FinishAction = KnownActionOf<'FinishAction'>;
export type ThinkAction = KnownActionOf<'ThinkAction'>;
export type MCPToolAction = KnownActionOf<'MCPToolAction'>;
export type FileEditorAction = KnownActionOf<'FileEditorAction'>;
export type TaskTrackerAction = KnownActionOf<'TaskTrackerAction'>;

/** A known observation; narrow with `switch (observation.kind)`. */
export type Observation = z.output<typeof s.Observation>;
export type KnownObservationOf<K extends keyof ObservationVariants> = z.output<ObservationVariants[K]>;
export type TerminalObservation = KnownObservationOf<'TerminalObservation'>;
export type FinishObservation = KnownObservationOf<'FinishObservation'>;
export type FileEditorObservation = KnownObservationOf<'FileEditorObservation'>;

/** A known tool definition (SystemPromptEvent `tools`). */
export type ToolDefinition = z.output<typeof s.ToolDefinition>;
export type KnownToolDefinitionOf<K extends keyof ToolVariants> = z.output<ToolVariants[K]>;
export type MCPToolDefinition = KnownToolDefinitionOf<'MCPToolDefinition'>;

// ---- Events ----
type Variants = typeof s.variants;
type Out<K extends KnownEventKind> = z.output<Variants[K]>;
type Override<T, U> = Omit<T, keyof U> & U;

export type ServerErrorEvent = Out<'ServerErrorEvent'>;
export type ACPToolCallEvent = Out<'ACPToolCallEvent'>;
export type HookExecutionEvent = Out<'HookExecutionEvent'>;
export type SecurityAnalysisEvent = Out<'SecurityAnalysisEvent'>;
export type StreamingDeltaEvent = Out<'StreamingDeltaEvent'>;
export type InterruptEvent = Out<'InterruptEvent'>;
export type Condensation = Out<'Condensation'>;
export type CondensationRequest = Out<'CondensationRequest'>;
export type CondensationSummaryEvent = Out<'CondensationSummaryEvent'>;
export type ConversationErrorEvent = Out<'ConversationErrorEvent'>;
export type ConversationStateUpdateEvent = Out<'ConversationStateUpdateEvent'>;
export type LLMCompletionLogEvent = Out<'LLMCompletionLogEvent'>;
/** `action` is an UnknownAction when a lenient parse met an action kind it does not know. */
export type ActionEvent = Override<
  Out<'ActionEvent'>,
  { action?: Action | UnknownAction | null | undefined }
>;
export type MessageEvent = Out<'MessageEvent'>;
export type AgentErrorEvent = Out<'AgentErrorEvent'>;
/** `observation` is an UnknownObservation when a lenient parse met an observation kind it does not know. */
export type ObservationEvent = Override<
  Out<'ObservationEvent'>,
  { observation: Observation | UnknownObservation }
>;
export type UserRejectObservation = Out<'UserRejectObservation'>;
/** A `tools` item is an UnknownToolDefinition when a lenient parse met a tool kind it does not know. */
export type SystemPromptEvent = Override<
  Out<'SystemPromptEvent'>,
  { tools: (ToolDefinition | UnknownToolDefinition)[] }
>;
export type TokenEvent = Out<'TokenEvent'>;
export type PauseEvent = Out<'PauseEvent'>;

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
/** What the server may send for an event, before defaults (`z.input` of the strict schema). */
export type EventInput = z.input<typeof s.Event>;
