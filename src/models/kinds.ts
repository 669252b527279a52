/**
 * Wire kinds ↔ module paths. On the wire `kind` is the bare class name; the agent server's events
 * `kind` search filter compares the fully qualified Python class path instead (`kind=ActionEvent` matches
 * nothing). These tables are the module paths embedded in the OpenAPI document's discriminator mapping keys.
 */
import type { KnownActionKind } from './actions.js';
import type { KnownObservationKind } from './observations.js';
import type { KnownToolDefinitionKind } from './tools.js';

export {
  EVENT_KIND_MODULE_PATHS,
  type EventKindWithModulePath,
  eventKindToModulePath,
  modulePathToEventKind,
  NEWER_EVENT_KIND_MODULE_PATHS,
} from './event-kind-paths.js';

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
