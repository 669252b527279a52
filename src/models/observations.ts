/**
 * Observation (kinds and fields of every matrix version's packages, test/fixtures/kinds/; the newest is 1.58.2). Every observation has
 * `content` (text and image items, default `[]`) and `is_error` (default false); the human-readable result is in
 * `content[].text`.
 */

import * as z from 'zod/mini';
import { FileEditorCommandSchema, TaskItemSchema } from './actions.js';
import type { ContentSchemas } from './content.js';
import type { KnownObservationKind } from './kind-lists.js';
import {
  closedObject,
  openObject,
  optionalNullable,
  type ParseMode,
  requiredNullable,
  withDefault,
} from './schema-kit.js';
// Written out from the schemas below by scripts/write-public-types.ts (keeps zod out of the declarations).
import type { CmdOutputMetadata } from './types.generated.js';

export { type KnownObservationKind, OBSERVATION_KIND_SET, OBSERVATION_KINDS } from './kind-lists.js';
export type { CmdOutputMetadata };

/** Terminal output metadata. `exit_code` -1 means the command is still running (soft timeout). */
export const CmdOutputMetadataSchema = openObject({
  exit_code: withDefault(z.int(), -1),
  pid: withDefault(z.int(), -1),
  username: optionalNullable(z.string()),
  hostname: optionalNullable(z.string()),
  working_dir: optionalNullable(z.string()),
  py_interpreter_path: optionalNullable(z.string()),
  prefix: withDefault(z.string(), ''),
  suffix: withDefault(z.string(), ''),
});

/** One file an applied patch added, deleted or updated (`move_path`: where an update moved it). */
export const PatchFileChangeSchema = openObject({
  type: z.enum(['add', 'delete', 'update']),
  old_content: optionalNullable(z.string()),
  new_content: optionalNullable(z.string()),
  move_path: optionalNullable(z.string()),
});

/** What an applied patch changed, by path. */
export const PatchCommitSchema = openObject({
  changes: withDefault(z.record(z.string(), PatchFileChangeSchema), {}),
});

export function buildFileEntrySchema(mode: ParseMode) {
  return openObject({
    name: z.string(),
    path: z.string(),
    is_directory: z.boolean(),
    size: z.int(),
    /** `format: date-time`; pydantic writes naive or offset ISO times. Lenient mode accepts any string. */
    modified_time: mode === 'strict' ? z.iso.datetime({ offset: true, local: true }) : z.string(),
  });
}

export function buildObservationSchemas(mode: ParseMode, content: ContentSchemas) {
  const base = {
    content: withDefault(z.array(content.Content), []),
    is_error: withDefault(z.boolean(), false),
  };
  const kinded = <K extends KnownObservationKind, S extends z.core.$ZodLooseShape>(kind: K, shape: S) =>
    closedObject(mode, { ...base, ...shape, kind: z.literal(kind) });

  const fileEditorShape = {
    command: FileEditorCommandSchema,
    path: optionalNullable(z.string()),
    prev_exist: withDefault(z.boolean(), true),
    old_content: optionalNullable(z.string()),
    new_content: optionalNullable(z.string()),
  };

  const variants = {
    MCPToolObservation: kinded('MCPToolObservation', { tool_name: z.string() }),
    ClassifyAndSwitchLLMObservation: kinded('ClassifyAndSwitchLLMObservation', {
      chosen_class: optionalNullable(z.string()),
      model: optionalNullable(z.string()),
      active_model: optionalNullable(z.string()),
    }),
    FinishObservation: kinded('FinishObservation', {}),
    InvokeSkillObservation: kinded('InvokeSkillObservation', { skill_name: z.string() }),
    SwitchLLMObservation: kinded('SwitchLLMObservation', {
      profile_name: z.string(),
      reason: optionalNullable(z.string()),
      active_model: optionalNullable(z.string()),
    }),
    ThinkObservation: kinded('ThinkObservation', {}),
    VisionInspectObservation: kinded('VisionInspectObservation', {
      image_index: z.int(),
      question: z.string(),
      profile_name: optionalNullable(z.string()),
      model: optionalNullable(z.string()),
      base_url: optionalNullable(z.string()),
      answer: optionalNullable(z.string()),
    }),
    /** The result a client tool's caller posted back. */
    ClientToolObservation: kinded('ClientToolObservation', {}),
    /** `fuzz` counts the context lines matched loosely; `commit.changes` is what the patch did, by path. */
    ApplyPatchObservation: kinded('ApplyPatchObservation', {
      message: withDefault(z.string(), ''),
      fuzz: withDefault(z.int(), 0),
      commit: optionalNullable(PatchCommitSchema),
    }),
    AskOracleObservation: kinded('AskOracleObservation', {}),
    BrowserObservation: kinded('BrowserObservation', {
      /** Base64 screenshot. */
      screenshot_data: optionalNullable(z.string()),
      full_output_save_dir: optionalNullable(z.string()),
    }),
    StartChildConversationObservation: kinded('StartChildConversationObservation', {
      conversation_id: optionalNullable(z.string()),
      parent_conversation_id: optionalNullable(z.string()),
      status: optionalNullable(z.string()),
      title: optionalNullable(z.string()),
      url: optionalNullable(z.string()),
      workspace: optionalNullable(z.string()),
      isolation: optionalNullable(z.enum(['worktree', 'shared'])),
    }),
    DelegateObservation: kinded('DelegateObservation', { command: z.enum(['spawn', 'delegate']) }),
    FileEditorObservation: kinded('FileEditorObservation', fileEditorShape),
    EditObservation: kinded('EditObservation', {
      file_path: optionalNullable(z.string()),
      is_new_file: withDefault(z.boolean(), false),
      replacements_made: withDefault(z.int(), 0),
      old_content: optionalNullable(z.string()),
      new_content: optionalNullable(z.string()),
    }),
    ListDirectoryObservation: kinded('ListDirectoryObservation', {
      dir_path: optionalNullable(z.string()),
      entries: withDefault(z.array(buildFileEntrySchema(mode)), []),
      total_count: withDefault(z.int(), 0),
      is_truncated: withDefault(z.boolean(), false),
    }),
    ReadFileObservation: kinded('ReadFileObservation', {
      file_path: z.string(),
      file_content: withDefault(z.string(), ''),
      is_truncated: withDefault(z.boolean(), false),
      /** `[start, end]` line numbers. */
      lines_shown: optionalNullable(z.tuple([z.int(), z.int()])),
      total_lines: optionalNullable(z.int()),
    }),
    WriteFileObservation: kinded('WriteFileObservation', {
      file_path: optionalNullable(z.string()),
      is_new_file: withDefault(z.boolean(), false),
      old_content: optionalNullable(z.string()),
      new_content: optionalNullable(z.string()),
    }),
    GlobObservation: kinded('GlobObservation', {
      files: z.array(z.string()),
      pattern: z.string(),
      search_path: z.string(),
      truncated: withDefault(z.boolean(), false),
    }),
    GrepObservation: kinded('GrepObservation', {
      matches: z.array(z.string()),
      pattern: z.string(),
      search_path: z.string(),
      include_pattern: optionalNullable(z.string()),
      truncated: withDefault(z.boolean(), false),
    }),
    PlanningFileEditorObservation: kinded('PlanningFileEditorObservation', fileEditorShape),
    TaskObservation: kinded('TaskObservation', {
      task_id: z.string(),
      subagent: z.string(),
      status: z.string(),
    }),
    TaskTrackerObservation: kinded('TaskTrackerObservation', {
      command: z.enum(['view', 'plan']),
      task_list: withDefault(z.array(TaskItemSchema), []),
    }),
    /** `exit_code` -1 = soft timeout (still running); the exit-code line is in `metadata.suffix`. */
    TerminalObservation: kinded('TerminalObservation', {
      command: requiredNullable(mode, z.string()),
      exit_code: optionalNullable(z.int()),
      timeout: withDefault(z.boolean(), false),
      metadata: z.optional(CmdOutputMetadataSchema),
      full_output_save_dir: optionalNullable(z.string()),
    }),
    ConsultTomObservation: kinded('ConsultTomObservation', {
      suggestions: withDefault(z.string(), ''),
      confidence: optionalNullable(z.number()),
      reasoning: optionalNullable(z.string()),
    }),
    SleeptimeComputeObservation: kinded('SleeptimeComputeObservation', {
      message: withDefault(z.string(), ''),
      sessions_processed: withDefault(z.int(), 0),
    }),
    WorkflowObservation: kinded('WorkflowObservation', {
      name: z.string(),
      status: z.enum(['completed', 'error']),
    }),
  } satisfies { [K in KnownObservationKind]: z.ZodMiniObject };

  const Observation = z.discriminatedUnion(
    'kind',
    Object.values(variants) as unknown as [
      (typeof variants)[KnownObservationKind],
      ...(typeof variants)[KnownObservationKind][],
    ],
  );
  return { variants, Observation };
}
