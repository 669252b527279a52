/**
 * Action (kinds and fields of every matrix version's packages, test/fixtures/kinds/; the newest is 1.58.2): a union
 * discriminated by `kind`, the bare class name. The `…WithRisk` / `…WithSummary` kinds are variants the server
 * derives from a tool's action (adding `security_risk` and `summary`); it lists them in its document.
 */

import * as z from 'zod/mini';
import { SecurityRiskSchema } from './content.js';
import type { KnownActionKind } from './kind-lists.js';
import {
  closedObject,
  intAtLeast,
  jsonObject,
  openObject,
  optionalNullable,
  type ParseMode,
  withDefault,
} from './schema-kit.js';
// Written out from the schemas below by scripts/write-public-types.ts (keeps zod out of the declarations).
import type { FileEditorCommand, TaskItem } from './types.generated.js';

export { ACTION_KIND_SET, ACTION_KINDS, type KnownActionKind } from './kind-lists.js';
export type { FileEditorCommand, TaskItem };

/** The file editor's commands (FileEditorAction, PlanningFileEditorAction and their observations). */
export const FileEditorCommandSchema = z.enum(['view', 'create', 'str_replace', 'insert', 'undo_edit']);

/** A task of the task tracker: `{title, notes="", status="todo"}`. */
export const TaskItemSchema = openObject({
  title: z.string(),
  notes: withDefault(z.string(), ''),
  status: withDefault(z.enum(['todo', 'in_progress', 'done']), 'todo'),
});

/** A browser tab id: 4 characters. */
const tabId = () => z.string().check(z.length(4));
const nonNegativeInt = () => intAtLeast(0);

export function buildActionSchemas(mode: ParseMode) {
  const kinded = <K extends KnownActionKind, S extends z.core.$ZodLooseShape>(kind: K, shape: S) =>
    closedObject(mode, { ...shape, kind: z.literal(kind) });

  const fileEditorShape = {
    command: FileEditorCommandSchema,
    path: z.string(),
    file_text: optionalNullable(z.string()),
    old_str: optionalNullable(z.string()),
    new_str: optionalNullable(z.string()),
    insert_line: optionalNullable(nonNegativeInt()),
    view_range: optionalNullable(z.array(z.int())),
  };

  const terminalShape = {
    command: z.string(),
    is_input: withDefault(z.boolean(), false),
    timeout: optionalNullable(z.number().check(z.gte(0))),
    reset: withDefault(z.boolean(), false),
  };
  const taskTrackerShape = {
    command: withDefault(z.enum(['view', 'plan']), 'view'),
    task_list: withDefault(z.array(TaskItemSchema), []),
  };
  const risk = { security_risk: withDefault(SecurityRiskSchema, 'UNKNOWN') };
  const summary = { summary: optionalNullable(z.string()) };

  const variants = {
    FileEditorActionWithRisk: kinded('FileEditorActionWithRisk', { ...fileEditorShape, ...risk }),
    FileEditorActionWithRiskWithSummary: kinded('FileEditorActionWithRiskWithSummary', {
      ...fileEditorShape,
      ...risk,
      ...summary,
    }),
    FinishActionWithSummary: kinded('FinishActionWithSummary', { message: z.string(), ...summary }),
    TaskTrackerActionWithRisk: kinded('TaskTrackerActionWithRisk', { ...taskTrackerShape, ...risk }),
    TaskTrackerActionWithRiskWithSummary: kinded('TaskTrackerActionWithRiskWithSummary', {
      ...taskTrackerShape,
      ...risk,
      ...summary,
    }),
    TerminalActionWithRisk: kinded('TerminalActionWithRisk', { ...terminalShape, ...risk }),
    TerminalActionWithRiskWithSummary: kinded('TerminalActionWithRiskWithSummary', {
      ...terminalShape,
      ...risk,
      ...summary,
    }),
    ThinkActionWithSummary: kinded('ThinkActionWithSummary', { thought: z.string(), ...summary }),
    MCPToolAction: kinded('MCPToolAction', { data: withDefault(jsonObject(), {}) }),
    /** Lets the agent pick an LLM profile by task class; no fields. */
    ClassifyAndSwitchLLMAction: kinded('ClassifyAndSwitchLLMAction', {}),
    FinishAction: kinded('FinishAction', { message: z.string() }),
    /** Loads an agent skill by name. */
    InvokeSkillAction: kinded('InvokeSkillAction', { name: z.string() }),
    SwitchLLMAction: kinded('SwitchLLMAction', { profile_name: z.string(), reason: z.string() }),
    ThinkAction: kinded('ThinkAction', { thought: z.string() }),
    /** Asks a vision-capable model about an image of the conversation. */
    VisionInspectAction: kinded('VisionInspectAction', {
      image_index: nonNegativeInt(),
      question: z.string().check(z.minLength(1)),
      profile_name: optionalNullable(z.string()),
    }),
    /** A patch in the `*** Begin Patch` … `*** End Patch` format (the GPT-5 presets' file editor). */
    ApplyPatchAction: kinded('ApplyPatchAction', { patch: z.string() }),
    AskOracleAction: kinded('AskOracleAction', {
      question: z.string(),
      context: optionalNullable(z.string()),
    }),
    BrowserAction: kinded('BrowserAction', {}),
    BrowserClickAction: kinded('BrowserClickAction', {
      index: nonNegativeInt(),
      new_tab: withDefault(z.boolean(), false),
    }),
    BrowserCloseTabAction: kinded('BrowserCloseTabAction', { tab_id: tabId() }),
    BrowserGetContentAction: kinded('BrowserGetContentAction', {
      extract_links: withDefault(z.boolean(), false),
      start_from_char: withDefault(nonNegativeInt(), 0),
    }),
    BrowserGetStateAction: kinded('BrowserGetStateAction', {
      include_screenshot: withDefault(z.boolean(), false),
    }),
    BrowserGetStorageAction: kinded('BrowserGetStorageAction', {}),
    BrowserGoBackAction: kinded('BrowserGoBackAction', {}),
    BrowserListTabsAction: kinded('BrowserListTabsAction', {}),
    BrowserNavigateAction: kinded('BrowserNavigateAction', {
      url: z.string(),
      new_tab: withDefault(z.boolean(), false),
    }),
    BrowserScrollAction: kinded('BrowserScrollAction', {
      direction: withDefault(z.enum(['up', 'down']), 'down'),
    }),
    /** `storage_state` holds `cookies` and `origins`, as returned by the get-storage action. */
    BrowserSetStorageAction: kinded('BrowserSetStorageAction', { storage_state: jsonObject() }),
    BrowserStartRecordingAction: kinded('BrowserStartRecordingAction', {}),
    BrowserStopRecordingAction: kinded('BrowserStopRecordingAction', {}),
    BrowserSwitchTabAction: kinded('BrowserSwitchTabAction', { tab_id: tabId() }),
    BrowserTypeAction: kinded('BrowserTypeAction', { index: nonNegativeInt(), text: z.string() }),
    StartChildConversationAction: kinded('StartChildConversationAction', {
      task: z.string(),
      title: optionalNullable(z.string()),
      isolation: withDefault(z.enum(['worktree', 'shared']), 'worktree'),
    }),
    DelegateAction: kinded('DelegateAction', {
      command: z.enum(['spawn', 'delegate']),
      ids: optionalNullable(z.array(z.string())),
      agent_types: optionalNullable(z.array(z.string())),
      tasks: optionalNullable(z.record(z.string(), z.string())),
    }),
    FileEditorAction: kinded('FileEditorAction', fileEditorShape),
    EditAction: kinded('EditAction', {
      file_path: z.string(),
      old_string: z.string(),
      new_string: z.string(),
      expected_replacements: withDefault(nonNegativeInt(), 1),
    }),
    ListDirectoryAction: kinded('ListDirectoryAction', {
      dir_path: withDefault(z.string(), '.'),
      recursive: withDefault(z.boolean(), false),
    }),
    ReadFileAction: kinded('ReadFileAction', {
      file_path: z.string(),
      offset: optionalNullable(nonNegativeInt()),
      limit: optionalNullable(intAtLeast(1)),
    }),
    WriteFileAction: kinded('WriteFileAction', { file_path: z.string(), content: z.string() }),
    GlobAction: kinded('GlobAction', { pattern: z.string(), path: optionalNullable(z.string()) }),
    GrepAction: kinded('GrepAction', {
      pattern: z.string(),
      path: optionalNullable(z.string()),
      include: optionalNullable(z.string()),
    }),
    PlanningFileEditorAction: kinded('PlanningFileEditorAction', fileEditorShape),
    /** Runs a sub-agent on a task. */
    TaskAction: kinded('TaskAction', {
      description: optionalNullable(z.string()),
      prompt: z.string(),
      subagent_type: withDefault(z.string(), 'general-purpose'),
      resume: optionalNullable(z.string()),
      /** Servers 1.12.0 to 1.15.0 only: a cap on the sub-agent's turns. */
      max_turns: optionalNullable(intAtLeast(1)),
    }),
    TaskTrackerAction: kinded('TaskTrackerAction', taskTrackerShape),
    /** `command` may be `""` to read more output after a soft timeout; `timeout` is in seconds. */
    TerminalAction: kinded('TerminalAction', terminalShape),
    /** Asks the Theory-of-Mind agent (tom-swe) for suggestions about the user's intent. */
    ConsultTomAction: kinded('ConsultTomAction', {
      reason: z.string(),
      use_user_message: withDefault(z.boolean(), true),
      custom_query: optionalNullable(z.string()),
    }),
    /** Lets the Theory-of-Mind agent process past sessions; no fields. */
    SleeptimeComputeAction: kinded('SleeptimeComputeAction', {}),
    WorkflowAction: kinded('WorkflowAction', {
      name: z.string(),
      script: z.string(),
      max_concurrency: withDefault(z.int().check(z.gte(1), z.lte(64)), 8),
    }),
  } satisfies { [K in KnownActionKind]: z.ZodMiniObject };

  const Action = z.discriminatedUnion(
    'kind',
    Object.values(variants) as unknown as ActionVariantTuple<typeof variants>,
  );
  return { variants, Action };
}

type ActionVariantTuple<V extends Record<string, z.ZodMiniObject>> = [V[keyof V], ...V[keyof V][]];
