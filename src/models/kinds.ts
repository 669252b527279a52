/**
 * Wire kinds ↔ module paths (notes §3.1). On the wire `kind` is the bare class name; the agent server's events
 * `kind` search filter compares the fully qualified Python class path instead (`kind=ActionEvent` matches
 * nothing). These tables are the module paths embedded in the OpenAPI document's discriminator mapping keys.
 */
import { RequestValidationError } from '../core/errors.js';
import type { KnownActionKind } from './actions.js';
import type { KnownEventKind } from './events.js';
import type { KnownObservationKind } from './observations.js';
import type { KnownToolDefinitionKind } from './tools.js';

const EVENT = 'openhands.sdk.event';

/** The 14 known event kinds and the module path the events `kind` filter needs. */
export const EVENT_KIND_MODULE_PATHS = {
  Condensation: `${EVENT}.condenser.Condensation`,
  CondensationRequest: `${EVENT}.condenser.CondensationRequest`,
  CondensationSummaryEvent: `${EVENT}.condenser.CondensationSummaryEvent`,
  ConversationErrorEvent: `${EVENT}.conversation_error.ConversationErrorEvent`,
  ConversationStateUpdateEvent: `${EVENT}.conversation_state.ConversationStateUpdateEvent`,
  LLMCompletionLogEvent: `${EVENT}.llm_completion_log.LLMCompletionLogEvent`,
  ActionEvent: `${EVENT}.llm_convertible.action.ActionEvent`,
  MessageEvent: `${EVENT}.llm_convertible.message.MessageEvent`,
  AgentErrorEvent: `${EVENT}.llm_convertible.observation.AgentErrorEvent`,
  ObservationEvent: `${EVENT}.llm_convertible.observation.ObservationEvent`,
  UserRejectObservation: `${EVENT}.llm_convertible.observation.UserRejectObservation`,
  SystemPromptEvent: `${EVENT}.llm_convertible.system.SystemPromptEvent`,
  TokenEvent: `${EVENT}.token.TokenEvent`,
  PauseEvent: `${EVENT}.user_action.PauseEvent`,
} as const satisfies Record<KnownEventKind, string>;

/**
 * Event kinds of newer servers (notes §3.1, §3.9): not modelled, but their module paths are known, so a filter
 * by them works. ServerErrorEvent is sent on the websocket only and never stored, so no search finds it.
 */
export const NEWER_EVENT_KIND_MODULE_PATHS = {
  ACPToolCallEvent: `${EVENT}.acp_tool_call.ACPToolCallEvent`,
  HookExecutionEvent: `${EVENT}.hook_execution.HookExecutionEvent`,
  StreamingDeltaEvent: `${EVENT}.streaming_delta.StreamingDeltaEvent`,
  InterruptEvent: `${EVENT}.user_action.InterruptEvent`,
  ServerErrorEvent: 'openhands.agent_server.models.ServerErrorEvent',
} as const;

const BROWSER = 'openhands.tools.browser_use.definition';
const browser = <const N extends string>(name: N) => `${BROWSER}.${name}` as const;

/** Action kinds and their module paths. */
export const ACTION_KIND_MODULE_PATHS = {
  MCPToolAction: 'openhands.sdk.mcp.definition.MCPToolAction',
  FinishAction: 'openhands.sdk.tool.builtins.finish.FinishAction',
  ThinkAction: 'openhands.sdk.tool.builtins.think.ThinkAction',
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
  FileEditorAction: 'openhands.tools.file_editor.definition.FileEditorAction',
  EditAction: 'openhands.tools.gemini.edit.definition.EditAction',
  ListDirectoryAction: 'openhands.tools.gemini.list_directory.definition.ListDirectoryAction',
  ReadFileAction: 'openhands.tools.gemini.read_file.definition.ReadFileAction',
  WriteFileAction: 'openhands.tools.gemini.write_file.definition.WriteFileAction',
  GlobAction: 'openhands.tools.glob.definition.GlobAction',
  GrepAction: 'openhands.tools.grep.definition.GrepAction',
  PlanningFileEditorAction: 'openhands.tools.planning_file_editor.definition.PlanningFileEditorAction',
  TaskTrackerAction: 'openhands.tools.task_tracker.definition.TaskTrackerAction',
  TerminalAction: 'openhands.tools.terminal.definition.TerminalAction',
} as const satisfies Record<KnownActionKind, string>;

/** Observation kinds and their module paths. */
export const OBSERVATION_KIND_MODULE_PATHS = {
  MCPToolObservation: 'openhands.sdk.mcp.definition.MCPToolObservation',
  FinishObservation: 'openhands.sdk.tool.builtins.finish.FinishObservation',
  ThinkObservation: 'openhands.sdk.tool.builtins.think.ThinkObservation',
  BrowserObservation: browser('BrowserObservation'),
  FileEditorObservation: 'openhands.tools.file_editor.definition.FileEditorObservation',
  EditObservation: 'openhands.tools.gemini.edit.definition.EditObservation',
  ListDirectoryObservation: 'openhands.tools.gemini.list_directory.definition.ListDirectoryObservation',
  ReadFileObservation: 'openhands.tools.gemini.read_file.definition.ReadFileObservation',
  WriteFileObservation: 'openhands.tools.gemini.write_file.definition.WriteFileObservation',
  GlobObservation: 'openhands.tools.glob.definition.GlobObservation',
  GrepObservation: 'openhands.tools.grep.definition.GrepObservation',
  PlanningFileEditorObservation:
    'openhands.tools.planning_file_editor.definition.PlanningFileEditorObservation',
  TaskTrackerObservation: 'openhands.tools.task_tracker.definition.TaskTrackerObservation',
  TerminalObservation: 'openhands.tools.terminal.definition.TerminalObservation',
} as const satisfies Record<KnownObservationKind, string>;

/** Tool definition kinds and their module paths. */
export const TOOL_DEFINITION_KIND_MODULE_PATHS = {
  MCPToolDefinition: 'openhands.sdk.mcp.tool.MCPToolDefinition',
  FinishTool: 'openhands.sdk.tool.builtins.finish.FinishTool',
  ThinkTool: 'openhands.sdk.tool.builtins.think.ThinkTool',
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
  FileEditorTool: 'openhands.tools.file_editor.definition.FileEditorTool',
  EditTool: 'openhands.tools.gemini.edit.definition.EditTool',
  ListDirectoryTool: 'openhands.tools.gemini.list_directory.definition.ListDirectoryTool',
  ReadFileTool: 'openhands.tools.gemini.read_file.definition.ReadFileTool',
  WriteFileTool: 'openhands.tools.gemini.write_file.definition.WriteFileTool',
  GlobTool: 'openhands.tools.glob.definition.GlobTool',
  GrepTool: 'openhands.tools.grep.definition.GrepTool',
  PlanningFileEditorTool: 'openhands.tools.planning_file_editor.definition.PlanningFileEditorTool',
  TaskTrackerTool: 'openhands.tools.task_tracker.definition.TaskTrackerTool',
  TerminalTool: 'openhands.tools.terminal.definition.TerminalTool',
} as const satisfies Record<KnownToolDefinitionKind, string>;

/** An event kind the module-path table knows: the 14 modelled kinds and the newer servers' kinds. */
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
