/**
 * ConversationState (types from the OpenAPI document's ConversationInfo, which is ConversationState
 * plus title, metrics and timestamps) and the ConversationStateUpdateEvent helpers a state mirror needs.
 *
 * The agent, workspace, confirmation policy, security analyzer and secret sources are open objects identified by
 * their `kind`: their full shapes belong to the conversation API, not to the event model.
 */
import * as z from 'zod/mini';
import { intAtLeast, jsonObject, openObject, optionalNullable, withDefault } from './schema-kit.js';
import { EXECUTION_STATUSES } from './state-mirror.js';
// Written out from the schemas below by scripts/write-public-types.ts (keeps zod out of the declarations).
import type { ConversationState, ConversationStats, ExecutionStatus, Metrics } from './types.generated.js';

export {
  applyStateUpdate,
  type ConversationStateMirror,
  EXECUTION_STATUSES,
  FULL_STATE_KEY,
  isFullStateUpdate,
  isTerminalExecutionStatus,
  TERMINAL_EXECUTION_STATUSES,
  type TerminalExecutionStatus,
} from './state-mirror.js';
export type { ConversationState, ConversationStats, ExecutionStatus, Metrics };

export const ExecutionStatusSchema = z.enum(EXECUTION_STATUSES);

const kindedObject = () => openObject({ kind: z.string() });
const nonNegative = () => z.number().check(z.gte(0));

export const TokenUsageSchema = openObject({
  model: withDefault(z.string(), ''),
  prompt_tokens: withDefault(intAtLeast(0), 0),
  completion_tokens: withDefault(intAtLeast(0), 0),
  cache_read_tokens: withDefault(intAtLeast(0), 0),
  cache_write_tokens: withDefault(intAtLeast(0), 0),
  reasoning_tokens: withDefault(intAtLeast(0), 0),
  context_window: withDefault(intAtLeast(0), 0),
  per_turn_token: withDefault(intAtLeast(0), 0),
  response_id: withDefault(z.string(), ''),
});

/** Metrics of one LLM usage. `stats` updates carry the snapshot form (no `costs`/latency/usage lists). */
export const MetricsSchema = openObject({
  model_name: withDefault(z.string(), 'default'),
  accumulated_cost: withDefault(nonNegative(), 0),
  max_budget_per_task: optionalNullable(z.number()),
  accumulated_token_usage: optionalNullable(TokenUsageSchema),
  costs: z.optional(
    z.array(openObject({ model: z.string(), cost: nonNegative(), timestamp: z.optional(z.number()) })),
  ),
  response_latencies: z.optional(
    z.array(openObject({ model: z.string(), latency: nonNegative(), response_id: z.string() })),
  ),
  token_usages: z.optional(z.array(TokenUsageSchema)),
});

/** `{usage_to_metrics: {<usage_id>: Metrics}}`: the value of `stats` updates and of the state's `stats`. */
export const ConversationStatsSchema = openObject({
  usage_to_metrics: withDefault(z.record(z.string(), MetricsSchema), {}),
});

export const ConversationStateSchema = openObject({
  id: z.string(),
  agent: kindedObject(),
  workspace: kindedObject(),
  persistence_dir: optionalNullable(z.string()),
  max_iterations: withDefault(z.int().check(z.positive()), 500),
  stuck_detection: withDefault(z.boolean(), true),
  execution_status: withDefault(ExecutionStatusSchema, 'idle'),
  confirmation_policy: withDefault(kindedObject(), { kind: 'NeverConfirm' }),
  security_analyzer: optionalNullable(kindedObject()),
  activated_knowledge_skills: withDefault(z.array(z.string()), []),
  /** `{action_id: reason}` */
  blocked_actions: withDefault(z.record(z.string(), z.string()), {}),
  /** `{message_id: reason}` */
  blocked_messages: withDefault(z.record(z.string(), z.string()), {}),
  last_user_message_id: optionalNullable(z.string()),
  stats: z.optional(ConversationStatsSchema),
  secret_registry: z.optional(
    openObject({ secret_sources: withDefault(z.record(z.string(), kindedObject()), {}) }),
  ),
  agent_state: withDefault(jsonObject(), {}),
});
