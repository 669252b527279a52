/**
 * The event kinds' module paths, which the events `kind` search filter compares (see kinds.ts), and the
 * conversions both ways; apart from the action, observation and tool tables, which a client does not need.
 */
import { RequestValidationError } from '../core/errors.js';
import type { KnownEventKind } from './kind-lists.js';

const EVENT = 'openhands.sdk.event';

/** The known event kinds (those of the newest server's document) and the module path the events `kind` filter needs. */
export const EVENT_KIND_MODULE_PATHS = {
  ServerErrorEvent: 'openhands.agent_server.models.ServerErrorEvent',
  ACPToolCallEvent: `${EVENT}.acp_tool_call.ACPToolCallEvent`,
  Condensation: `${EVENT}.condenser.Condensation`,
  CondensationRequest: `${EVENT}.condenser.CondensationRequest`,
  CondensationSummaryEvent: `${EVENT}.condenser.CondensationSummaryEvent`,
  ConversationErrorEvent: `${EVENT}.conversation_error.ConversationErrorEvent`,
  ConversationStateUpdateEvent: `${EVENT}.conversation_state.ConversationStateUpdateEvent`,
  HookExecutionEvent: `${EVENT}.hook_execution.HookExecutionEvent`,
  LLMCompletionLogEvent: `${EVENT}.llm_completion_log.LLMCompletionLogEvent`,
  ActionEvent: `${EVENT}.llm_convertible.action.ActionEvent`,
  MessageEvent: `${EVENT}.llm_convertible.message.MessageEvent`,
  AgentErrorEvent: `${EVENT}.llm_convertible.observation.AgentErrorEvent`,
  ObservationEvent: `${EVENT}.llm_convertible.observation.ObservationEvent`,
  UserRejectObservation: `${EVENT}.llm_convertible.observation.UserRejectObservation`,
  SystemPromptEvent: `${EVENT}.llm_convertible.system.SystemPromptEvent`,
  SecurityAnalysisEvent: `${EVENT}.security.SecurityAnalysisEvent`,
  StreamingDeltaEvent: `${EVENT}.streaming_delta.StreamingDeltaEvent`,
  TokenEvent: `${EVENT}.token.TokenEvent`,
  InterruptEvent: `${EVENT}.user_action.InterruptEvent`,
  PauseEvent: `${EVENT}.user_action.PauseEvent`,
} as const satisfies Record<KnownEventKind, string>;

/**
 * @deprecated Every kind listed here is now modelled and in EVENT_KIND_MODULE_PATHS. ServerErrorEvent and
 * StreamingDeltaEvent are sent on the websocket only and never stored, so no search finds them.
 */
export const NEWER_EVENT_KIND_MODULE_PATHS = {
  ACPToolCallEvent: EVENT_KIND_MODULE_PATHS.ACPToolCallEvent,
  HookExecutionEvent: EVENT_KIND_MODULE_PATHS.HookExecutionEvent,
  StreamingDeltaEvent: EVENT_KIND_MODULE_PATHS.StreamingDeltaEvent,
  InterruptEvent: EVENT_KIND_MODULE_PATHS.InterruptEvent,
  ServerErrorEvent: EVENT_KIND_MODULE_PATHS.ServerErrorEvent,
} as const;

/** An event kind the module-path table knows. */
export type EventKindWithModulePath = KnownEventKind | keyof typeof NEWER_EVENT_KIND_MODULE_PATHS;

const ALL_EVENT_PATHS: Readonly<Record<string, string>> = {
  ...EVENT_KIND_MODULE_PATHS,
  ...NEWER_EVENT_KIND_MODULE_PATHS,
};
const EVENT_KIND_BY_PATH = new Map(Object.entries(ALL_EVENT_PATHS).map(([kind, path]) => [path, kind]));

/**
 * The value the events `kind` search filter needs for an event kind: a wire kind (`ActionEvent`) becomes its
 * module path; a value that already is a module path (contains a dot) is passed through unchanged. Throws
 * RequestValidationError for a bare kind the table does not know (the server would silently match nothing).
 */
export function eventKindToModulePath(kind: EventKindWithModulePath | (string & {})): string {
  if (kind.includes('.')) return kind;
  const path = ALL_EVENT_PATHS[kind];
  if (path === undefined) {
    throw new RequestValidationError(
      `unknown event kind ${JSON.stringify(kind)}; pass a known kind (${Object.keys(ALL_EVENT_PATHS).join(', ')}) or a full module path`,
      'kind',
    );
  }
  return path;
}

/** The wire kind of a module path (`openhands.sdk.event.token.TokenEvent` → `TokenEvent`); a bare kind is returned as is. */
export function modulePathToEventKind(path: string): string {
  return EVENT_KIND_BY_PATH.get(path) ?? path.slice(path.lastIndexOf('.') + 1);
}
