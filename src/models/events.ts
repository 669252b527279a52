/**
 * Event: the variants of the newest server (1.58.0) with their per-variant `source` defaults, built for one
 * parse mode. Fields added since the spec (`parent_id`, `classification`, `extended_content` on observations)
 * are optional without a default, so the events of older servers parse in strict mode and serialise unchanged. In lenient
 * mode the nested Action, Observation and ToolDefinition unions also accept unknown kinds (`unknown.ts`).
 */

import * as z from 'zod/mini';
import { ACTION_KIND_SET, buildActionSchemas } from './actions.js';
import { buildContentSchemas, SecurityRiskSchema } from './content.js';
import type { KnownEventKind } from './kind-lists.js';
import { lenientKindUnion } from './lenient-union.js';
import { buildObservationSchemas, OBSERVATION_KIND_SET } from './observations.js';
import {
  closedObject,
  commonEventFields,
  EventSourceSchema,
  intAtLeast,
  optionalNullable,
  type ParseMode,
  withDefault,
} from './schema-kit.js';
import { buildToolSchemas, TOOL_DEFINITION_KIND_SET } from './tools.js';
// Written out from the schemas below by scripts/write-public-types.ts (keeps zod out of the declarations).
import type { FailureKind } from './types.generated.js';

export { EVENT_KIND_SET, EVENT_KINDS, type KnownEventKind } from './kind-lists.js';
export type { FailureKind };

/** Why an error happened and what a user can do (ErrorClassification, on errors of servers since 1.40). */
export const FailureKindSchema = z.enum([
  'auth',
  'quota',
  'rate_limit',
  'config',
  'transient',
  'agent_action',
  'internal',
  'unknown',
]);

export function buildErrorClassificationSchema(mode: ParseMode) {
  return closedObject(mode, {
    kind: FailureKindSchema,
    /** Whether trying again may succeed. */
    retryable: z.boolean(),
    /** What the user should do: nothing, retry, or change settings (e.g. an API key). */
    user_action: withDefault(z.enum(['none', 'retry', 'settings']), 'none'),
    error_id: optionalNullable(z.string()),
  });
}

export function buildEventSchemas(mode: ParseMode) {
  const content = buildContentSchemas(mode);
  const actions = buildActionSchemas(mode);
  const observations = buildObservationSchemas(mode, content);
  const tools = buildToolSchemas();

  const Action = mode === 'strict' ? actions.Action : lenientKindUnion(actions.Action, ACTION_KIND_SET);
  const Observation =
    mode === 'strict'
      ? observations.Observation
      : lenientKindUnion(observations.Observation, OBSERVATION_KIND_SET);
  const ToolDefinition =
    mode === 'strict'
      ? tools.ToolDefinition
      : lenientKindUnion(tools.ToolDefinition, TOOL_DEFINITION_KIND_SET);

  /** `source` with the variant's default, or required when the variant has none. */
  const source = (fallback: z.infer<typeof EventSourceSchema>) => withDefault(EventSourceSchema, fallback);
  const kinded = <K extends KnownEventKind, S extends z.core.$ZodLooseShape>(kind: K, shape: S) =>
    closedObject(mode, { ...commonEventFields(), ...shape, kind: z.literal(kind) });

  const { TextContent, CriticResult } = content;
  const ErrorClassification = buildErrorClassificationSchema(mode);

  const variants = {
    /**
     * Sent on a websocket (never stored) when the server could not handle a frame the client sent; the
     * subscriber reports it on its `error` channel.
     */
    ServerErrorEvent: kinded('ServerErrorEvent', {
      source: EventSourceSchema,
      code: z.string(),
      detail: z.string(),
    }),
    /** A tool call of an ACP agent (an external agent driven over the Agent Client Protocol). */
    ACPToolCallEvent: kinded('ACPToolCallEvent', {
      source: source('agent'),
      tool_call_id: z.string(),
      title: z.string(),
      status: optionalNullable(z.string()),
      tool_kind: optionalNullable(z.string()),
      raw_input: optionalNullable(z.unknown()),
      raw_output: optionalNullable(z.unknown()),
      content: optionalNullable(z.array(z.unknown())),
      is_error: withDefault(z.boolean(), false),
    }),
    Condensation: kinded('Condensation', {
      source: source('environment'),
      /** Ids removed from the view given to the LLM. */
      forgotten_event_ids: withDefault(z.array(z.string()), []),
      /** Summary of the forgotten events. */
      summary: optionalNullable(z.string()),
      /** Where in the resulting view the summary is inserted; when absent it is not inserted. */
      summary_offset: optionalNullable(intAtLeast(0)),
      llm_response_id: z.string(),
    }),
    CondensationRequest: kinded('CondensationRequest', { source: source('environment') }),
    CondensationSummaryEvent: kinded('CondensationSummaryEvent', {
      source: source('environment'),
      summary: z.string(),
    }),
    /** A conversation-level failure, never sent to the LLM; the run loop then moves to ERROR. */
    ConversationErrorEvent: kinded('ConversationErrorEvent', {
      source: EventSourceSchema,
      /** Typically an error type. */
      code: z.string(),
      detail: z.string(),
      classification: optionalNullable(ErrorClassification),
    }),
    /** `key` is `full_state` (whole ConversationState in `value`) or a ConversationState field name. */
    ConversationStateUpdateEvent: kinded('ConversationStateUpdateEvent', {
      source: source('environment'),
      key: z.optional(z.string()),
      value: z.optional(z.unknown()),
    }),
    /** One run of a hook command (PreToolUse, PostToolUse, …) and its outcome. */
    HookExecutionEvent: kinded('HookExecutionEvent', {
      source: source('hook'),
      hook_event_type: z.enum([
        'PreToolUse',
        'PostToolUse',
        'UserPromptSubmit',
        'SessionStart',
        'SessionEnd',
        'Stop',
      ]),
      hook_command: z.string(),
      tool_name: optionalNullable(z.string()),
      success: z.boolean(),
      /** Whether the hook blocked the action or message. */
      blocked: withDefault(z.boolean(), false),
      exit_code: z.int(),
      stdout: withDefault(z.string(), ''),
      stderr: withDefault(z.string(), ''),
      reason: optionalNullable(z.string()),
      additional_context: optionalNullable(z.string()),
      error: optionalNullable(z.string()),
      action_id: optionalNullable(z.string()),
      message_id: optionalNullable(z.string()),
      hook_input: optionalNullable(z.record(z.string(), z.unknown())),
    }),
    LLMCompletionLogEvent: kinded('LLMCompletionLogEvent', {
      source: source('environment'),
      /** Relative to the log directory. */
      filename: z.string(),
      /** JSON-encoded. */
      log_data: z.string(),
      model_name: withDefault(z.string(), 'unknown'),
      usage_id: withDefault(z.string(), 'default'),
    }),
    ActionEvent: kinded('ActionEvent', {
      source: source('agent'),
      thought: z.array(TextContent),
      reasoning_content: optionalNullable(z.string()),
      thinking_blocks: withDefault(z.array(content.ThinkingBlockItem), []),
      responses_reasoning_item: optionalNullable(content.ReasoningItemModel),
      /** `null` when the tool call is not executable (an AgentErrorEvent follows). */
      action: optionalNullable(Action),
      tool_name: z.string(),
      tool_call_id: z.string(),
      /** May differ from `action`, e.g. it may carry the LLM's predicted `security_risk`. */
      tool_call: content.MessageToolCall,
      /** Groups the actions of one LLM response (parallel tool calls). */
      llm_response_id: z.string(),
      security_risk: withDefault(SecurityRiskSchema, 'UNKNOWN'),
      critic_result: optionalNullable(CriticResult),
      /** About 10 words describing the action. */
      summary: optionalNullable(z.string()),
    }),
    MessageEvent: kinded('MessageEvent', {
      source: EventSourceSchema,
      llm_message: content.Message,
      /** `null` when the source is not the agent. */
      llm_response_id: optionalNullable(z.string()),
      activated_skills: withDefault(z.array(z.string()), []),
      extended_content: withDefault(z.array(TextContent), []),
      /** Message origin in multi-agent use. */
      sender: optionalNullable(z.string()),
      critic_result: optionalNullable(CriticResult),
    }),
    /** Produced by the agent scaffold, not model output; the conversation can continue. */
    AgentErrorEvent: kinded('AgentErrorEvent', {
      source: source('agent'),
      tool_name: z.string(),
      tool_call_id: z.string(),
      error: z.string(),
      classification: optionalNullable(ErrorClassification),
    }),
    ObservationEvent: kinded('ObservationEvent', {
      source: source('environment'),
      tool_name: z.string(),
      tool_call_id: z.string(),
      observation: Observation,
      action_id: z.string(),
      /** Extra text given to the LLM with the observation (newer servers; absent on older ones). */
      extended_content: z.optional(z.array(TextContent)),
    }),
    UserRejectObservation: kinded('UserRejectObservation', {
      source: source('environment'),
      tool_name: z.string(),
      tool_call_id: z.string(),
      rejection_reason: withDefault(z.string(), 'User rejected the action'),
      /** `user` = confirmation-mode rejection, `hook` = blocked by a pre-tool-use hook. */
      rejection_source: withDefault(z.enum(['user', 'hook']), 'user'),
      action_id: z.string(),
    }),
    SystemPromptEvent: kinded('SystemPromptEvent', {
      source: source('agent'),
      system_prompt: TextContent,
      tools: z.array(ToolDefinition),
      /** Per-conversation context, sent as a second content block of the system message. */
      dynamic_context: optionalNullable(TextContent),
    }),
    /** A security analyzer's risk verdict per action id. */
    SecurityAnalysisEvent: kinded('SecurityAnalysisEvent', {
      source: source('environment'),
      analyzer: z.string(),
      policy: z.string(),
      risks: z.record(z.string(), SecurityRiskSchema),
      details: z.optional(z.record(z.string(), z.record(z.string(), z.unknown()))),
    }),
    /**
     * A chunk of streamed LLM output, sent on the legacy socket only (never stored) when the LLM has `stream`
     * on. The subscriber reports it on its delta channel, not as an event.
     */
    StreamingDeltaEvent: kinded('StreamingDeltaEvent', {
      source: source('agent'),
      content: optionalNullable(z.string()),
      reasoning_content: optionalNullable(z.string()),
    }),
    TokenEvent: kinded('TokenEvent', {
      source: EventSourceSchema,
      prompt_token_ids: z.array(z.int()),
      response_token_ids: z.array(z.int()),
    }),
    /** Agent execution paused by user request. */
    /** Agent execution interrupted by user request (the current LLM call is cancelled). */
    InterruptEvent: kinded('InterruptEvent', { source: source('user') }),
    PauseEvent: kinded('PauseEvent', { source: source('user') }),
  } satisfies { [K in KnownEventKind]: z.ZodMiniObject };

  const Event = z.discriminatedUnion(
    'kind',
    Object.values(variants) as unknown as [
      (typeof variants)[KnownEventKind],
      ...(typeof variants)[KnownEventKind][],
    ],
  );

  return {
    content,
    actions,
    observations,
    tools,
    variants,
    Event,
    Action,
    Observation,
    ToolDefinition,
    ErrorClassification,
  };
}

export type EventSchemas = ReturnType<typeof buildEventSchemas>;
