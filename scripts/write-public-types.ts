// Writes the explicit declarations of the public types that are inferred from zod schemas
// (src/*/types.generated.ts). The package's .d.ts files then spell these types as plain object types instead
// of `z.output<typeof Schema>`, which made every app that type-checks the package load and instantiate zod's
// types for every schema (docs/performance.md, "Type-checking"). The schemas stay the source of truth: the
// types are printed by the TypeScript checker from `z.output`/`z.input` of the schemas below, and
// `test/package/public-types.test.ts` checks that the files are up to date and equal to the inferred types.
//
//   node scripts/write-public-types.ts           # rewrite the files
//   node scripts/write-public-types.ts --check   # exit 1 when a file is out of date
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '..');

interface Target {
  /** The generated file. */
  out: string;
  /** What the file says it is for. */
  about: string;
  /**
   * TypeScript placed next to `out` (imports resolve from there) that exports every type to write, as the
   * inferred type. Types listed in `maps` are written as interfaces; the others as type aliases.
   */
  source: string;
  maps?: string[];
  /** Types written as given (the test still checks them against the inferred ones). */
  verbatim?: Record<string, string>;
}

export const TARGETS: Target[] = [
  {
    out: 'src/models/types.generated.ts',
    about: 'the event model (schemas in src/models/*.ts)',
    maps: ['KnownActionMap', 'KnownObservationMap', 'KnownToolDefinitionMap'],
    verbatim: {
      Action: 'KnownActionMap[keyof KnownActionMap]',
      Observation: 'KnownObservationMap[keyof KnownObservationMap]',
      ToolDefinition: 'KnownToolDefinitionMap[keyof KnownToolDefinitionMap]',
    },
    source: `
import type * as z from 'zod/mini';
import type { FileEditorCommandSchema, TaskItemSchema } from './actions.js';
import type { SecurityRiskSchema } from './content.js';
import type {
  ConversationStateSchema,
  ConversationStatsSchema,
  ExecutionStatusSchema,
  MetricsSchema,
} from './conversation-state.js';
import type { FailureKindSchema } from './events.js';
import type { CmdOutputMetadataSchema } from './observations.js';
import type { EventSourceSchema } from './schema-kit.js';
import type { EventSchemas } from './mode-schemas.js';
import type { MCPToolSchema, ToolAnnotationsSchema } from './tools.js';
import type { UnknownAction, UnknownObservation, UnknownToolDefinition } from './unknown.js';

type S = EventSchemas;
type Out<K extends keyof S['variants']> = z.output<S['variants'][K]>;
type Override<T, U> = Flat<Omit<T, keyof U> & U>;
type Flat<T> = { [K in keyof T]: T[K] };
type OutputMap<V> = { [K in keyof V]: z.output<V[K]> };

export type FileEditorCommand = z.output<typeof FileEditorCommandSchema>;
export type TaskItem = z.output<typeof TaskItemSchema>;
export type SecurityRisk = z.output<typeof SecurityRiskSchema>;
export type ExecutionStatus = z.output<typeof ExecutionStatusSchema>;
export type Metrics = z.output<typeof MetricsSchema>;
export type ConversationStats = z.output<typeof ConversationStatsSchema>;
export type ConversationState = z.output<typeof ConversationStateSchema>;
export type FailureKind = z.output<typeof FailureKindSchema>;
export type CmdOutputMetadata = z.output<typeof CmdOutputMetadataSchema>;
export type EventSource = z.output<typeof EventSourceSchema>;
export type ToolAnnotations = z.output<typeof ToolAnnotationsSchema>;
export type MCPTool = z.output<typeof MCPToolSchema>;

export type TextContent = z.output<S['content']['TextContent']>;
export type ImageContent = z.output<S['content']['ImageContent']>;
export type ThinkingBlock = z.output<S['content']['ThinkingBlock']>;
export type RedactedThinkingBlock = z.output<S['content']['RedactedThinkingBlock']>;
export type ReasoningItemModel = z.output<S['content']['ReasoningItemModel']>;
export type MessageToolCall = z.output<S['content']['MessageToolCall']>;
export type CriticResult = z.output<S['content']['CriticResult']>;
export type ErrorClassification = z.output<S['ErrorClassification']>;
export type Message = z.output<S['content']['Message']>;
export type ValidationError = z.output<S['content']['ValidationError']>;
export type HTTPValidationError = z.output<S['content']['HTTPValidationError']>;

export type KnownActionMap = OutputMap<S['actions']['variants']>;
export type KnownObservationMap = OutputMap<S['observations']['variants']>;
export type KnownToolDefinitionMap = OutputMap<S['tools']['variants']>;
export type Action = z.output<S['Action']>;
export type Observation = z.output<S['Observation']>;
export type ToolDefinition = z.output<S['ToolDefinition']>;

export type ServerErrorEvent = Out<'ServerErrorEvent'>;
export type ACPToolCallEvent = Out<'ACPToolCallEvent'>;
export type HookExecutionEvent = Out<'HookExecutionEvent'>;
export type SecurityAnalysisEvent = Out<'SecurityAnalysisEvent'>;
export type StreamingDeltaEvent = Out<'StreamingDeltaEvent'>;
export type InterruptEvent = Out<'InterruptEvent'>;
export type Condensation = Out<'Condensation'>;
export type CondensationRequest = Out<'CondensationRequest'>;
export type CondensationSummaryEvent = Out<'CondensationSummaryEvent'>;
export type ConversationErrorEvent = Out<'ConversationErrorEvent'>;
export type ConversationStateUpdateEvent = Out<'ConversationStateUpdateEvent'>;
export type LLMCompletionLogEvent = Out<'LLMCompletionLogEvent'>;
export type ActionEvent = Override<Out<'ActionEvent'>, { action?: Action | UnknownAction | null | undefined }>;
export type MessageEvent = Out<'MessageEvent'>;
export type AgentErrorEvent = Out<'AgentErrorEvent'>;
export type ObservationEvent = Override<Out<'ObservationEvent'>, { observation: Observation | UnknownObservation }>;
export type UserRejectObservation = Out<'UserRejectObservation'>;
export type SystemPromptEvent = Override<Out<'SystemPromptEvent'>, { tools: (ToolDefinition | UnknownToolDefinition)[] }>;
export type TokenEvent = Out<'TokenEvent'>;
export type PauseEvent = Out<'PauseEvent'>;
export type EventInput = z.input<S['Event']>;
`,
  },
  {
    out: 'src/gateway/types.generated.ts',
    about: 'the gateway answers (schemas in src/gateway/schemas.ts)',
    source: `
import type * as z from 'zod/mini';
import type { addedModelSchema, gatewayModelSchema, modelInfoEntrySchema, spendLogRowSchema } from './schemas.js';

export type GatewayModel = z.output<typeof gatewayModelSchema>;
export type AddedGatewayModel = z.output<typeof addedModelSchema>;
export type GatewayModelInfo = z.output<typeof modelInfoEntrySchema>;
export type SpendLogRow = z.output<typeof spendLogRowSchema>;
`,
  },
  {
    out: 'src/platform/types.generated.ts',
    about: 'the platform answers (schemas in src/platform/schemas.ts)',
    source: `
import type * as z from 'zod/mini';
import type { appConversationSchema, profileSavedSchema } from './schemas.js';

export type LlmProfileSaved = z.output<typeof profileSavedSchema>;
export type AppConversation = z.output<typeof appConversationSchema>;
`,
  },
  {
    out: 'src/runtime/types.generated.ts',
    about: 'the runtime API answers (schemas in src/runtime/schemas.ts)',
    source: `
import type * as z from 'zod/mini';
import type { runtimeSchemas } from './schemas.js';

type Schemas = ReturnType<typeof runtimeSchemas>;
export type AdminChallenge = z.output<Schemas['AdminChallenge']>;
export type ApiKey = z.output<Schemas['ApiKey']>;
export type WarmRuntimeConfigSource = z.output<Schemas['Source']>;
export type WarmRuntimeConfig = z.output<Schemas['WarmRuntimeConfig']>;
`,
  },
];

/** The virtual source of a target: a file next to its output. */
export const sourcePath = (target: Target) => join(root, dirname(target.out), '__inferred__.ts');
/** The virtual check of a target: every written type (from the file on disk) is identical to the inferred one. */
const verifyPath = (target: Target) => join(root, dirname(target.out), '__verify__.ts');

function verifySource(target: Target): string {
  const names = [...target.source.matchAll(/^export type (\w+)/gm)].map((match) => match[1]);
  const file = `./${target.out.split('/').at(-1)?.replace(/\.ts$/, '.js')}`;
  return [
    `import type * as Inferred from './__inferred__.js';`,
    `import type * as Written from '${file}';`,
    'type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;',
    'type Assert<T extends true> = T;',
    ...names.map((name) => `export type Check${name} = Assert<Equal<Inferred.${name}, Written.${name}>>;`),
  ].join('\n');
}

const FLAGS =
  ts.TypeFormatFlags.NoTruncation |
  ts.TypeFormatFlags.InTypeAlias |
  ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType;

/**
 * The text of every generated file, by path relative to the repository, and the problems found when the files
 * on disk were checked against the inferred types (a type that differs is named in a TS2344 error).
 */
export function generate(): { files: Map<string, string>; problems: string[] } {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    exactOptionalPropertyTypes: false,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  };
  const virtual = new Map(TARGETS.map((target) => [sourcePath(target), target.source]));
  const verifying = new Map(
    TARGETS.filter((target) => existsSync(join(root, target.out))).map((target) => [
      verifyPath(target),
      verifySource(target),
    ]),
  );
  for (const [path, text] of verifying) virtual.set(path, text);
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, language, ...rest) => {
    const text = virtual.get(resolve(file));
    return text === undefined
      ? getSourceFile(file, language, ...rest)
      : ts.createSourceFile(file, text, language, true);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (file) => virtual.has(resolve(file)) || fileExists(file);
  const readFile = host.readFile.bind(host);
  host.readFile = (file) => virtual.get(resolve(file)) ?? readFile(file);
  const sourcePaths = new Set(TARGETS.map(sourcePath));
  const program = ts.createProgram([...virtual.keys()], options, host);
  const format = (list: readonly ts.Diagnostic[]) =>
    ts.formatDiagnostics(list, { ...host, getNewLine: () => '\n' } as ts.FormatDiagnosticsHost);
  const diagnostics = ts.getPreEmitDiagnostics(program).filter((d) => d.file);
  const broken = diagnostics.filter((d) => d.file && sourcePaths.has(resolve(d.file.fileName)));
  if (broken.length) throw new Error(format(broken));
  const problems = diagnostics
    .filter((d) => d.file && verifying.has(resolve(d.file.fileName)))
    .map((d) => {
      // The failing line names the type (`CheckX = Assert<Equal<Inferred.X, Written.X>>`).
      const line = d.file?.text.split('\n')[d.file.getLineAndCharacterOfPosition(d.start ?? 0).line] ?? '';
      return `${format([d]).trim()}\n  ${line.trim()}\n`;
    });
  const checker = program.getTypeChecker();

  const files = new Map<string, string>();
  for (const target of TARGETS) {
    const file = program.getSourceFile(sourcePath(target));
    if (!file) throw new Error(`no source for ${target.out}`);
    const printed: { name: string; text: string }[] = [];
    for (const statement of file.statements) {
      if (!ts.isTypeAliasDeclaration(statement)) continue;
      if (!statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
      const type = checker.getTypeAtLocation(statement.name);
      printed.push({ name: statement.name.text, text: checker.typeToString(type, statement, FLAGS) });
    }
    // A type that another one contains, printed the same, is written by name (longest first, so that a
    // name never replaces part of a bigger named type).
    const named = [...printed]
      .filter((p) => p.text.startsWith('{') || p.text.includes("'"))
      .sort((a, b) => b.text.length - a.text.length);
    const imports = new Map<string, string>();
    const lines = [
      `// Generated by scripts/write-public-types.ts from ${target.about}: do not edit.`,
      '// Run `node scripts/write-public-types.ts` after changing a schema (test/package/public-types.test.ts checks).',
      '// Explicit types keep zod out of the package declarations (docs/performance.md, "Type-checking").',
      '',
    ];
    for (const { name, text } of printed) {
      let body = target.verbatim?.[name] ?? text;
      for (const other of named) {
        if (other.name === name || other.text.length >= body.length) continue;
        body = body.split(other.text).join(other.name);
      }
      // Types of other modules print as `import('./m.js').Name`: import them once at the top instead.
      body = body.replace(
        /import\((['"])(\.[^'"]+)\1\)\.(\w+)/g,
        (_, _quote: string, from: string, type: string) => {
          imports.set(type, from);
          return type;
        },
      );
      const isMap = target.maps?.includes(name);
      lines.push(isMap ? `export interface ${name} ${body}` : `export type ${name} = ${body};`, '');
    }
    // Types the source imports from our modules and the printer wrote by name (e.g. `UnknownObservation`).
    for (const statement of file.statements) {
      if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
      const bindings = statement.importClause?.namedBindings;
      if (!bindings || !ts.isNamedImports(bindings)) continue;
      for (const element of bindings.elements) {
        const used = new RegExp(`\\b${element.name.text}\\b`);
        if (!element.name.text.endsWith('Schema') && lines.some((line) => used.test(line))) {
          imports.set(element.name.text, statement.moduleSpecifier.text);
        }
      }
    }
    const byModule = new Map<string, string[]>();
    for (const [type, from] of imports) byModule.set(from, [...(byModule.get(from) ?? []), type]);
    const importLines = [...byModule].map(
      ([from, types]) => `import type { ${types.sort().join(', ')} } from '${from}';`,
    );
    lines.splice(3, 0, ...importLines, ...(importLines.length ? [''] : []));
    files.set(target.out, lines.join('\n'));
  }
  // biome formats the printed one-line types.
  for (const [out, text] of files) {
    const formatted = execFileSync(
      join(root, 'node_modules', '.bin', 'biome'),
      ['format', `--stdin-file-path=${out}`],
      { cwd: root, input: text, encoding: 'utf8' },
    );
    files.set(out, formatted);
  }
  return { files, problems };
}

if (import.meta.main) {
  const check = process.argv.includes('--check');
  let stale = 0;
  const { files, problems } = generate();
  for (const [out, text] of files) {
    const path = join(root, out);
    let current = '';
    try {
      current = readFileSync(path, 'utf8');
    } catch {}
    if (current === text) continue;
    stale += 1;
    if (check) console.error(`${out} is out of date: run node scripts/write-public-types.ts`);
    else {
      writeFileSync(path, text);
      console.log(`wrote ${out}`);
    }
  }
  if (check && problems.length)
    console.error(`written types differ from the inferred ones:\n${problems.join('')}`);
  if (check && (stale || problems.length)) process.exit(1);
  if (check) console.log('public types: up to date and equal to the inferred ones');
}
