/**
 * Type guards. A guard for a known kind is true only for a value that parsed as that kind: values a lenient parse
 * turned into unknown ones (unknown kind, or invalid fields) are excluded, even when their `kind` is known.
 */
import {
  ACTION_KIND_SET,
  EVENT_KIND_SET,
  type KnownEventKind,
  OBSERVATION_KIND_SET,
  TOOL_DEFINITION_KIND_SET,
} from './kind-lists.js';
import type { Action, Event, KnownEvent, KnownEventMap, Observation, ToolDefinition } from './schemas.js';
import {
  getUnknownInfo,
  isKinded,
  isUnknownOf,
  type UnknownAction,
  type UnknownEvent,
  type UnknownObservation,
  type UnknownToolDefinition,
} from './unknown.js';

/** True when `event` is an event of the given known kind. */
export function isEventKind<K extends KnownEventKind>(event: unknown, kind: K): event is KnownEventMap[K] {
  return isKinded(event) && event.kind === kind && getUnknownInfo(event) === undefined;
}

/** True for an event of one of the 14 known kinds (and valid, when parsed leniently). */
export function isKnownEvent(event: unknown): event is KnownEvent {
  return isKinded(event) && EVENT_KIND_SET.has(event.kind) && getUnknownInfo(event) === undefined;
}

/** True for an event a lenient parse could not type: an unknown kind, or a known kind with invalid fields. */
export function isUnknownEvent(event: unknown): event is UnknownEvent {
  return isUnknownOf(event, EVENT_KIND_SET);
}

/** True for an action a lenient parse could not type. */
export function isUnknownAction(action: unknown): action is UnknownAction {
  return isUnknownOf(action, ACTION_KIND_SET);
}

/** True for an observation a lenient parse could not type. */
export function isUnknownObservation(observation: unknown): observation is UnknownObservation {
  return isUnknownOf(observation, OBSERVATION_KIND_SET);
}

/** True for a tool definition a lenient parse could not type. */
export function isUnknownToolDefinition(tool: unknown): tool is UnknownToolDefinition {
  return isUnknownOf(tool, TOOL_DEFINITION_KIND_SET);
}

/** True for a known, valid action (narrow further with `switch (action.kind)`). */
export function isKnownAction(action: unknown): action is Action {
  return isKinded(action) && ACTION_KIND_SET.has(action.kind) && getUnknownInfo(action) === undefined;
}

/** True for a known, valid observation. */
export function isKnownObservation(observation: unknown): observation is Observation {
  return (
    isKinded(observation) &&
    OBSERVATION_KIND_SET.has(observation.kind) &&
    getUnknownInfo(observation) === undefined
  );
}

/** True for a known, valid tool definition. */
export function isKnownToolDefinition(tool: unknown): tool is ToolDefinition {
  return isKinded(tool) && TOOL_DEFINITION_KIND_SET.has(tool.kind) && getUnknownInfo(tool) === undefined;
}

/** True when `action` is a known action of the given kind. */
export function isActionKind<K extends Action['kind']>(
  action: unknown,
  kind: K,
): action is Extract<Action, { kind: K }> {
  return isKnownAction(action) && action.kind === kind;
}

/** True when `observation` is a known observation of the given kind. */
export function isObservationKind<K extends Observation['kind']>(
  observation: unknown,
  kind: K,
): observation is Extract<Observation, { kind: K }> {
  return isKnownObservation(observation) && observation.kind === kind;
}

const guard =
  <K extends KnownEventKind>(kind: K) =>
  (event: Event | unknown): event is KnownEventMap[K] =>
    isEventKind(event, kind);

export const isCondensation = guard('Condensation');
export const isCondensationRequest = guard('CondensationRequest');
export const isCondensationSummaryEvent = guard('CondensationSummaryEvent');
export const isConversationErrorEvent = guard('ConversationErrorEvent');
export const isConversationStateUpdateEvent = guard('ConversationStateUpdateEvent');
export const isLLMCompletionLogEvent = guard('LLMCompletionLogEvent');
export const isActionEvent = guard('ActionEvent');
export const isMessageEvent = guard('MessageEvent');
export const isAgentErrorEvent = guard('AgentErrorEvent');
export const isObservationEvent = guard('ObservationEvent');
export const isUserRejectObservation = guard('UserRejectObservation');
export const isSystemPromptEvent = guard('SystemPromptEvent');
export const isTokenEvent = guard('TokenEvent');
export const isPauseEvent = guard('PauseEvent');
export const isInterruptEvent = guard('InterruptEvent');
export const isServerErrorEvent = guard('ServerErrorEvent');
export const isACPToolCallEvent = guard('ACPToolCallEvent');
export const isHookExecutionEvent = guard('HookExecutionEvent');
export const isSecurityAnalysisEvent = guard('SecurityAnalysisEvent');
export const isStreamingDeltaEvent = guard('StreamingDeltaEvent');
