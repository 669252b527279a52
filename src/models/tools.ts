/**
 * ToolDefinition (SystemPromptEvent `tools`; fields from the OpenAPI document). There is no `name`
 * field: `title` is the LLM-facing tool name (e.g. "terminal"). Tool definitions are open objects on the server.
 */

import * as z from 'zod/mini';
import type { KnownToolDefinitionKind } from './kind-lists.js';
import { jsonObject, openObject, optionalNullable, withDefault } from './schema-kit.js';
// Written out from the schemas below by scripts/write-public-types.ts (keeps zod out of the declarations).
import type { MCPTool, ToolAnnotations } from './types.generated.js';

export {
  type KnownToolDefinitionKind,
  TOOL_DEFINITION_KIND_SET,
  TOOL_DEFINITION_KINDS,
} from './kind-lists.js';
export type { MCPTool, ToolAnnotations };

/** The SDK's tool annotations (`openhands.sdk.tool.tool.ToolAnnotations`), with the server's defaults. */
export const ToolAnnotationsSchema = openObject({
  title: optionalNullable(z.string()),
  readOnlyHint: withDefault(z.boolean(), false),
  destructiveHint: withDefault(z.boolean(), true),
  idempotentHint: withDefault(z.boolean(), false),
  openWorldHint: withDefault(z.boolean(), true),
});

/** MCP's own tool annotations (`mcp.types.ToolAnnotations`): every hint optional, no defaults. */
export const MCPToolAnnotationsSchema = openObject({
  title: optionalNullable(z.string()),
  readOnlyHint: optionalNullable(z.boolean()),
  destructiveHint: optionalNullable(z.boolean()),
  idempotentHint: optionalNullable(z.boolean()),
  openWorldHint: optionalNullable(z.boolean()),
});

export const MCPIconSchema = openObject({
  src: z.string(),
  mimeType: optionalNullable(z.string()),
  sizes: optionalNullable(z.array(z.string())),
});

/** An MCP tool as the MCP server described it (`mcp.types.Tool`). */
export const MCPToolSchema = openObject({
  name: z.string(),
  title: optionalNullable(z.string()),
  description: optionalNullable(z.string()),
  inputSchema: jsonObject(),
  outputSchema: optionalNullable(jsonObject()),
  icons: optionalNullable(z.array(MCPIconSchema)),
  annotations: optionalNullable(MCPToolAnnotationsSchema),
  _meta: optionalNullable(jsonObject()),
  /** Execution properties (`taskSupport`), newer MCP. */
  execution: optionalNullable(
    openObject({ taskSupport: optionalNullable(z.enum(['forbidden', 'optional', 'required'])) }),
  ),
});

export function buildToolSchemas() {
  const base = {
    description: z.string(),
    /** The Action class name, e.g. "TerminalAction". */
    action_type: z.string(),
    observation_type: optionalNullable(z.string()),
    annotations: optionalNullable(ToolAnnotationsSchema),
    meta: optionalNullable(jsonObject()),
    /** The LLM-facing tool name, e.g. "terminal". */
    title: z.string(),
  };
  const kinded = <K extends KnownToolDefinitionKind, S extends z.core.$ZodLooseShape>(kind: K, shape: S) =>
    openObject({ ...base, ...shape, kind: z.literal(kind) });
  const plain = <K extends KnownToolDefinitionKind>(kind: K) => kinded(kind, {});

  const variants = {
    MCPToolDefinition: kinded('MCPToolDefinition', { mcp_tool: MCPToolSchema }),
    ClassifyAndSwitchLLMTool: plain('ClassifyAndSwitchLLMTool'),
    FinishTool: plain('FinishTool'),
    InvokeSkillTool: plain('InvokeSkillTool'),
    SwitchLLMTool: plain('SwitchLLMTool'),
    ThinkTool: plain('ThinkTool'),
    VisionInspectTool: plain('VisionInspectTool'),
    /** A tool the client executes (`ClientAction_<name>` actions); `input_schema` is its JSON Schema. */
    ClientTool: kinded('ClientTool', { client_tool_name: z.string(), input_schema: jsonObject() }),
    ApplyPatchTool: plain('ApplyPatchTool'),
    AskOracleTool: plain('AskOracleTool'),
    BrowserClickTool: plain('BrowserClickTool'),
    BrowserCloseTabTool: plain('BrowserCloseTabTool'),
    BrowserGetContentTool: plain('BrowserGetContentTool'),
    BrowserGetStateTool: plain('BrowserGetStateTool'),
    BrowserGetStorageTool: plain('BrowserGetStorageTool'),
    BrowserGoBackTool: plain('BrowserGoBackTool'),
    BrowserListTabsTool: plain('BrowserListTabsTool'),
    BrowserNavigateTool: plain('BrowserNavigateTool'),
    BrowserScrollTool: plain('BrowserScrollTool'),
    BrowserSetStorageTool: plain('BrowserSetStorageTool'),
    BrowserStartRecordingTool: plain('BrowserStartRecordingTool'),
    BrowserStopRecordingTool: plain('BrowserStopRecordingTool'),
    BrowserSwitchTabTool: plain('BrowserSwitchTabTool'),
    BrowserToolSet: plain('BrowserToolSet'),
    BrowserTypeTool: plain('BrowserTypeTool'),
    StartChildConversationTool: plain('StartChildConversationTool'),
    /** The delegate tool of servers up to 1.18.1 (later: `DelegateAction` of the task tools). */
    DelegateTool: plain('DelegateTool'),
    FileEditorTool: plain('FileEditorTool'),
    EditTool: plain('EditTool'),
    ListDirectoryTool: plain('ListDirectoryTool'),
    ReadFileTool: plain('ReadFileTool'),
    WriteFileTool: plain('WriteFileTool'),
    GlobTool: plain('GlobTool'),
    GrepTool: plain('GrepTool'),
    PlanningFileEditorTool: plain('PlanningFileEditorTool'),
    TaskTool: plain('TaskTool'),
    TaskToolSet: plain('TaskToolSet'),
    TaskTrackerTool: plain('TaskTrackerTool'),
    TerminalTool: plain('TerminalTool'),
    SleeptimeComputeTool: plain('SleeptimeComputeTool'),
    TomConsultTool: plain('TomConsultTool'),
    WorkflowTool: plain('WorkflowTool'),
    WorkflowToolSet: plain('WorkflowToolSet'),
  } satisfies { [K in KnownToolDefinitionKind]: z.ZodMiniObject };

  const ToolDefinition = z.discriminatedUnion(
    'kind',
    Object.values(variants) as unknown as [
      (typeof variants)[KnownToolDefinitionKind],
      ...(typeof variants)[KnownToolDefinitionKind][],
    ],
  );
  return { variants, ToolDefinition };
}
