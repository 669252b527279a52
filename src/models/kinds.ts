/**
 * Wire kinds ↔ module paths. On the wire `kind` is the bare class name; the agent server's events
 * `kind` search filter compares the fully qualified Python class path instead (`kind=ActionEvent` matches
 * nothing). These tables are the module paths embedded in the OpenAPI document's discriminator mapping keys.
 */
import { RequestValidationError } from '../core/errors.js';
import type { KnownActionKind } from './actions.js';
import type { KnownEventKind } from './events.js';
import type { KnownObservationKind } from './observations.js';
import type { KnownToolDefinitionKind } from './tools.js';

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

const BROWSER = 'openhands.tools.browser_use.definition';
const BUILTINS = 'openhands.sdk.tool.builtins';
const TOM = 'openhands.tools.tom_consult.definition';
const browser = <const N extends string>(name: N) => `${BROWSER}.${name}` as const;

/** Action kinds and their module paths (the server's derived `…WithRisk` classes live in `abc`). */
export const ACTION_KIND_MODULE_PATHS = {
  FileEditorActionWithRisk: 'abc.FileEditorActionWithRisk',
  FileEditorActionWithRiskWithSummary: 'abc.FileEditorActionWithRiskWithSummary',
  FinishActionWithSummary: 'abc.FinishActionWithSummary',
  TaskTrackerActionWithRisk: 'abc.TaskTrackerActionWithRisk',
  TaskTrackerActionWithRiskWithSummary: 'abc.TaskTrackerActionWithRiskWithSummary',
  TerminalActionWithRisk: 'abc.TerminalActionWithRisk',
  TerminalActionWithRiskWithSummary: 'abc.TerminalActionWithRiskWithSummary',
  ThinkActionWithSummary: 'abc.ThinkActionWithSummary',
  MCPToolAction: 'openhands.sdk.mcp.definition.MCPToolAction',
  ClassifyAndSwitchLLMAction: `${BUILTINS}.classify_and_switch_llm.ClassifyAndSwitchLLMAction`,
  FinishAction: `${BUILTINS}.finish.FinishAction`,
  InvokeSkillAction: `${BUILTINS}.invoke_skill.InvokeSkillAction`,
  SwitchLLMAction: `${BUILTINS}.switch_llm.SwitchLLMAction`,
  ThinkAction: `${BUILTINS}.think.ThinkAction`,
  VisionInspectAction: `${BUILTINS}.vision_inspect.VisionInspectAction`,
  ApplyPatchAction: 'openhands.tools.apply_patch.definition.ApplyPatchAction',
  AskOracleAction: 'openhands.tools.ask_oracle.definition.AskOracleAction',
  BrowserAction: browser('BrowserAction'),
  BrowserClickAction: browser('BrowserClickAction'),
  BrowserCloseTabAction: browser('BrowserCloseTabAction'),
  BrowserGetContentAction: browser('BrowserGetContentAction'),
  BrowserGetStateAction: browser('BrowserGetStateAction'),
  BrowserGetStorageAction: browser('BrowserGetStorageAction'),
  BrowserGoBackAction: browser('BrowserGoBackAction'),
  BrowserListTabsAction: browser('BrowserListTabsAction'),
  BrowserNavigateAction: browser('BrowserNavigateAction'),
  BrowserScrollAction: browser('BrowserScrollAction'),
  BrowserSetStorageAction: browser('BrowserSetStorageAction'),
  BrowserStartRecordingAction: browser('BrowserStartRecordingAction'),
  BrowserStopRecordingAction: browser('BrowserStopRecordingAction'),
  BrowserSwitchTabAction: browser('BrowserSwitchTabAction'),
  BrowserTypeAction: browser('BrowserTypeAction'),
  StartChildConversationAction: 'openhands.tools.child_conversation.definition.StartChildConversationAction',
  DelegateAction: 'openhands.tools.delegate.definition.DelegateAction',
  FileEditorAction: 'openhands.tools.file_editor.definition.FileEditorAction',
  EditAction: 'openhands.tools.gemini.edit.definition.EditAction',
  ListDirectoryAction: 'openhands.tools.gemini.list_directory.definition.ListDirectoryAction',
  ReadFileAction: 'openhands.tools.gemini.read_file.definition.ReadFileAction',
  WriteFileAction: 'openhands.tools.gemini.write_file.definition.WriteFileAction',
  GlobAction: 'openhands.tools.glob.definition.GlobAction',
  GrepAction: 'openhands.tools.grep.definition.GrepAction',
  PlanningFileEditorAction: 'openhands.tools.planning_file_editor.definition.PlanningFileEditorAction',
  TaskAction: 'openhands.tools.task.definition.TaskAction',
  TaskTrackerAction: 'openhands.tools.task_tracker.definition.TaskTrackerAction',
  TerminalAction: 'openhands.tools.terminal.definition.TerminalAction',
  ConsultTomAction: `${TOM}.ConsultTomAction`,
  SleeptimeComputeAction: `${TOM}.SleeptimeComputeAction`,
  WorkflowAction: 'openhands.tools.workflow.definition.WorkflowAction',
} as const satisfies Record<KnownActionKind, string>;

/** Observation kinds and their module paths. */
export const OBSERVATION_KIND_MODULE_PATHS = {
  MCPToolObservation: 'openhands.sdk.mcp.definition.MCPToolObservation',
  ClassifyAndSwitchLLMObservation: `${BUILTINS}.classify_and_switch_llm.ClassifyAndSwitchLLMObservation`,
  FinishObservation: `${BUILTINS}.finish.FinishObservation`,
  InvokeSkillObservation: `${BUILTINS}.invoke_skill.InvokeSkillObservation`,
  SwitchLLMObservation: `${BUILTINS}.switch_llm.SwitchLLMObservation`,
  ThinkObservation: `${BUILTINS}.think.ThinkObservation`,
  VisionInspectObservation: `${BUILTINS}.vision_inspect.VisionInspectObservation`,
  ClientToolObservation: 'openhands.sdk.tool.client_tool.ClientToolObservation',
  ApplyPatchObservation: 'openhands.tools.apply_patch.definition.ApplyPatchObservation',
  AskOracleObservation: 'openhands.tools.ask_oracle.definition.AskOracleObservation',
  BrowserObservation: browser('BrowserObservation'),
  StartChildConversationObservation:
    'openhands.tools.child_conversation.definition.StartChildConversationObservation',
  DelegateObservation: 'openhands.tools.delegate.definition.DelegateObservation',
  FileEditorObservation: 'openhands.tools.file_editor.definition.FileEditorObservation',
  EditObservation: 'openhands.tools.gemini.edit.definition.EditObservation',
  ListDirectoryObservation: 'openhands.tools.gemini.list_directory.definition.ListDirectoryObservation',
  ReadFileObservation: 'openhands.tools.gemini.read_file.definition.ReadFileObservation',
  WriteFileObservation: 'openhands.tools.gemini.write_file.definition.WriteFileObservation',
  GlobObservation: 'openhands.tools.glob.definition.GlobObservation',
  GrepObservation: 'openhands.tools.grep.definition.GrepObservation',
  PlanningFileEditorObservation:
    'openhands.tools.planning_file_editor.definition.PlanningFileEditorObservation',
  TaskObservation: 'openhands.tools.task.definition.TaskObservation',
  TaskTrackerObservation: 'openhands.tools.task_tracker.definition.TaskTrackerObservation',
  TerminalObservation: 'openhands.tools.terminal.definition.TerminalObservation',
  ConsultTomObservation: `${TOM}.ConsultTomObservation`,
  SleeptimeComputeObservation: `${TOM}.SleeptimeComputeObservation`,
  WorkflowObservation: 'openhands.tools.workflow.definition.WorkflowObservation',
} as const satisfies Record<KnownObservationKind, string>;

/** Tool definition kinds and their module paths. */
export const TOOL_DEFINITION_KIND_MODULE_PATHS = {
  MCPToolDefinition: 'openhands.sdk.mcp.tool.MCPToolDefinition',
  ClassifyAndSwitchLLMTool: `${BUILTINS}.classify_and_switch_llm.ClassifyAndSwitchLLMTool`,
  FinishTool: `${BUILTINS}.finish.FinishTool`,
  InvokeSkillTool: `${BUILTINS}.invoke_skill.InvokeSkillTool`,
  SwitchLLMTool: `${BUILTINS}.switch_llm.SwitchLLMTool`,
  ThinkTool: `${BUILTINS}.think.ThinkTool`,
  VisionInspectTool: `${BUILTINS}.vision_inspect.VisionInspectTool`,
  ClientTool: 'openhands.sdk.tool.client_tool.ClientTool',
  ApplyPatchTool: 'openhands.tools.apply_patch.definition.ApplyPatchTool',
  AskOracleTool: 'openhands.tools.ask_oracle.definition.AskOracleTool',
  BrowserClickTool: browser('BrowserClickTool'),
  BrowserCloseTabTool: browser('BrowserCloseTabTool'),
  BrowserGetContentTool: browser('BrowserGetContentTool'),
  BrowserGetStateTool: browser('BrowserGetStateTool'),
  BrowserGetStorageTool: browser('BrowserGetStorageTool'),
  BrowserGoBackTool: browser('BrowserGoBackTool'),
  BrowserListTabsTool: browser('BrowserListTabsTool'),
  BrowserNavigateTool: browser('BrowserNavigateTool'),
  BrowserScrollTool: browser('BrowserScrollTool'),
  BrowserSetStorageTool: browser('BrowserSetStorageTool'),
  BrowserStartRecordingTool: browser('BrowserStartRecordingTool'),
  BrowserStopRecordingTool: browser('BrowserStopRecordingTool'),
  BrowserSwitchTabTool: browser('BrowserSwitchTabTool'),
  BrowserToolSet: browser('BrowserToolSet'),
  BrowserTypeTool: browser('BrowserTypeTool'),
  StartChildConversationTool: 'openhands.tools.child_conversation.definition.StartChildConversationTool',
  DelegateTool: 'openhands.tools.delegate.definition.DelegateTool',
  FileEditorTool: 'openhands.tools.file_editor.definition.FileEditorTool',
  EditTool: 'openhands.tools.gemini.edit.definition.EditTool',
  ListDirectoryTool: 'openhands.tools.gemini.list_directory.definition.ListDirectoryTool',
  ReadFileTool: 'openhands.tools.gemini.read_file.definition.ReadFileTool',
  WriteFileTool: 'openhands.tools.gemini.write_file.definition.WriteFileTool',
  GlobTool: 'openhands.tools.glob.definition.GlobTool',
  GrepTool: 'openhands.tools.grep.definition.GrepTool',
  PlanningFileEditorTool: 'openhands.tools.planning_file_editor.definition.PlanningFileEditorTool',
  TaskTool: 'openhands.tools.task.definition.TaskTool',
  TaskToolSet: 'openhands.tools.task.definition.TaskToolSet',
  TaskTrackerTool: 'openhands.tools.task_tracker.definition.TaskTrackerTool',
  TerminalTool: 'openhands.tools.terminal.definition.TerminalTool',
  SleeptimeComputeTool: `${TOM}.SleeptimeComputeTool`,
  TomConsultTool: `${TOM}.TomConsultTool`,
  WorkflowTool: 'openhands.tools.workflow.definition.WorkflowTool',
  WorkflowToolSet: 'openhands.tools.workflow.definition.WorkflowToolSet',
} as const satisfies Record<KnownToolDefinitionKind, string>;

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
