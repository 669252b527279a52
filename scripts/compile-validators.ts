// Build step: compiles the event validators ahead of time into plain code, src/models/compiled/validators.ts.
// Nothing is generated at run time (no `new Function`, fine under a strict CSP), browsers and Node run the same
// code, and since parse.ts simply imports it there is nothing for a bundler to drop. See docs/performance.md.
//
//   node scripts/compile-validators.ts           writes the file (`npm run build` runs it first)
//   node scripts/compile-validators.ts --check   exits 1 when the committed file is stale
//
// How: zod's own ahead-of-time compiler (zod/v4/core `compileFn`) writes the code, and this script writes that
// code into a module instead of handing it to `new Function`. Its output is a function body plus hoisted
// constants; each constant becomes an expression of the module (a Set literal, a zod helper, a reference into the
// live schema, …) or the build fails. Schemas used in several places (the 39 tool annotations, message content,
// the action and observation unions, …) are compiled once as a function of their own and called from each
// place: zod's compiler would inline each use, which made the code three times as large.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { fileURLToPath } from 'node:url';

// The sources import siblings as `./x.js` (TypeScript's NodeNext convention); map those to the `.ts` files.
registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier.startsWith('.') && specifier.endsWith('.js') && context.parentURL?.endsWith('.ts')) {
      const url = new URL(`${specifier.slice(0, -3)}.ts`, context.parentURL);
      if (existsSync(fileURLToPath(url))) return nextResolve(url.href, context);
    }
    return nextResolve(specifier, context);
  },
});

export const OUTPUT = fileURLToPath(new URL('../src/models/compiled/validators.ts', import.meta.url));

// biome-ignore lint/suspicious/noExplicitAny: zod's schema internals (`_zod.def`) are untyped here.
type Schema = any;
type Def = Record<string, Schema>;

/** Child schemas of a node, with the source expression that reaches each from its parent. */
function children(schema: Schema): [Schema, string][] {
  const def: Def = schema._zod.def;
  const out: [Schema, string][] = [];
  const at = (child: Schema, suffix: string) => {
    if (child?._zod) out.push([child, `._zod.def${suffix}`]);
  };
  for (const key of ['innerType', 'element', 'in', 'out', 'keyType', 'valueType', 'catchall', 'rest']) {
    at(def[key], `.${key}`);
  }
  if (def.type === 'object') {
    for (const [key, child] of Object.entries(def.shape as Def)) at(child, `.shape[${JSON.stringify(key)}]`);
  }
  for (const key of ['options', 'items']) {
    (def[key] as Schema[] | undefined)?.forEach((child, i) => {
      at(child, `.${key}[${i}]`);
    });
  }
  at(def.left, '.left');
  at(def.right, '.right');
  return out;
}

/** The roots: what parse.ts validates (the source expressions are evaluated in the generated module). */
export async function loadRoots(): Promise<[string, Schema][]> {
  const { lenientSchemas, strictSchemas } = await import('../src/models/schemas.js');
  const { ConversationStateSchema } = await import('../src/models/conversation-state.js');
  return [
    ['lenientSchemas.Event', lenientSchemas.Event],
    ['strictSchemas.Event', strictSchemas.Event],
    ['lenientSchemas.Action', lenientSchemas.Action],
    ['strictSchemas.Action', strictSchemas.Action],
    ['lenientSchemas.Observation', lenientSchemas.Observation],
    ['strictSchemas.Observation', strictSchemas.Observation],
    ['ConversationStateSchema', ConversationStateSchema],
  ];
}

/** The generated module's text. */
export async function generate(): Promise<string> {
  const core = await import('zod/v4/core');
  const roots = await loadRoots();

  // Where each def is reached from (the first path found) and how often it is used, counting every use.
  const where = new Map<Def, string>();
  const uses = new Map<Def, number>();
  const nodes: Schema[] = [];
  const visit = (schema: Schema, expr: string) => {
    const def = schema._zod.def;
    uses.set(def, (uses.get(def) ?? 0) + 1);
    if (where.has(def)) return;
    where.set(def, expr);
    nodes.push(schema);
    for (const [child, suffix] of children(schema)) visit(child, expr + suffix);
  };
  for (const [expr, schema] of roots) visit(schema, expr);

  // Compiled as functions of their own: the roots, containers used more than once, and each object variant of a
  // union (each event, action, observation and tool kind). One function per variant keeps every function small
  // enough for V8 to optimise and lets it compile only the kinds a process meets; a single function for all
  // events was several hundred kB, never optimised, and slow on the first events. Objects, arrays, records and
  // unions of them output neither `undefined` nor absence, so calling them changes nothing around the call.
  const SHAREABLE = new Set(['object', 'array', 'record', 'union']);
  const units = new Set<Def>(roots.map(([, schema]) => schema._zod.def));
  for (const schema of nodes) {
    const def = schema._zod.def;
    if (SHAREABLE.has(def.type) && (uses.get(def) ?? 0) > 1) units.add(def);
    if (def.type === 'union') {
      for (const option of def.options as Schema[]) {
        if (option._zod.def.type === 'object') units.add(option._zod.def);
      }
    }
  }
  const schemaOf = new Map<Def, Schema>(nodes.map((schema) => [schema._zod.def, schema]));

  // Helpers of zod the generated code may call, by identity.
  const helpers = new Map<unknown, string>([
    [core.util.shallowClone, 'util.shallowClone'],
    [core.util.isPlainObject, 'util.isPlainObject'],
    [core.util.codePointLength, 'util.codePointLength'],
    [core.util.floatSafeRemainder, 'util.floatSafeRemainder'],
    [Object.prototype.propertyIsEnumerable, 'Object.prototype.propertyIsEnumerable'],
  ]);

  // Captures what zod's compiler hands to `new Function`: parameter names, body, and the constants' values.
  type Capture = { names: string[]; body: string; values: unknown[] };
  let captured: Capture | undefined;
  const RealFunction = globalThis.Function;
  const compileUnit = (schema: Schema): Capture => {
    globalThis.Function = new Proxy(RealFunction, {
      construct(target, args: string[]) {
        const factory = Reflect.construct(target, args) as (...values: unknown[]) => unknown;
        return (...values: unknown[]) => {
          captured = { names: args.slice(0, -1), body: args[args.length - 1] as string, values };
          return factory(...values);
        };
      },
    });
    captured = undefined;
    try {
      core.compileFn(schema);
    } finally {
      globalThis.Function = RealFunction;
    }
    if (!captured) throw new Error('zod did not generate code');
    return captured;
  };

  /**
   * What a closure of zod's compiler reads, found by calling it while every default is swapped for a tag: a
   * default getter (`() => schema._zod.def.defaultValue`) becomes the same read of the live schema (generated
   * defaults, ids and times, differ on every call). Transforms were swapped while compiling (zod's helper keeps
   * the function it was given): a transform helper becomes zod's helper on the live transform, a disguised unit
   * its function.
   */
  const probe = (fn: (value?: unknown) => unknown): { unit: Def } | { expr: string } | undefined => {
    const restore: (() => void)[] = [];
    try {
      for (const schema of nodes) {
        const def = schema._zod.def;
        const expr = where.get(def);
        if (def.type === 'default' || def.type === 'prefault') {
          const descriptor = Object.getOwnPropertyDescriptor(def, 'defaultValue');
          if (!descriptor) continue;
          const tag = { expr: `() => ${expr}._zod.def.defaultValue` };
          Object.defineProperty(def, 'defaultValue', { get: () => tag, configurable: true });
          restore.push(() => Object.defineProperty(def, 'defaultValue', descriptor));
        }
      }
      const result = fn(undefined) as { unit?: Def; expr?: string } | undefined;
      if (result?.unit && units.has(result.unit)) return { unit: result.unit };
      if (typeof result?.expr === 'string') return { expr: result.expr };
      return undefined;
    } catch (error) {
      if (process.env.DEBUG_PROBE) console.error(error);
      return undefined;
    } finally {
      for (const undo of restore.reverse()) undo();
    }
  };

  /** A constant of generated code as an expression of the module, or undefined when it has none. */
  const expressionOf = (value: unknown): string | undefined => {
    if (value === core.INVALID) return 'INVALID';
    if (value === null || ['string', 'number', 'boolean', 'undefined'].includes(typeof value))
      return literal(value);
    if (typeof value === 'symbol') {
      const key = Symbol.keyFor(value);
      return key === undefined ? undefined : `Symbol.for(${JSON.stringify(key)})`;
    }
    if (value instanceof RegExp)
      return `new RegExp(${JSON.stringify(value.source)}, ${JSON.stringify(value.flags)})`;
    if (value instanceof Set) {
      const items = [...value].map((item) => expressionOf(item));
      return items.includes(undefined) ? undefined : `new Set([${items.join(', ')}])`;
    }
    if (Array.isArray(value)) {
      const items = value.map((item) => expressionOf(item));
      return items.includes(undefined) ? undefined : `[${items.join(', ')}]`;
    }
    if (helpers.has(value)) return helpers.get(value);
    // A schema zod runs with its runtime parser (an "island"); runtimeRun is zod's helper for that, re-made here.
    if ((value as Schema)?._zod) return where.get((value as Schema)._zod.def);
    if (typeof value === 'function' && value.name === 'runtimeRun') return 'runtimeRun';
    return undefined;
  };

  const names = new Map<Def, string>(); // unit → name of its function
  const byText = new Map<string, string>(); // unit text → name (identical code is emitted once)
  const lines: string[] = [];

  const build = (def: Def, stack: Def[]): string => {
    const known = names.get(def);
    if (known) return known;
    if (stack.includes(def)) throw new Error(`reference cycle at ${where.get(def)}`);
    // Every other unit is disguised as a transform while this one compiles: zod's compiler then calls it (through
    // a helper constant, replaced below by the unit's function) instead of inlining it. A transform is what zod
    // assumes least about (it may accept absence and output undefined), so the code around the call stays
    // correct; units never output undefined, so it is also exact.
    const hidden: [Def, string][] = [];
    for (const other of units) {
      if (other === def) continue;
      hidden.push([other, other.type]);
      other.type = 'transform';
      other.transform = () => ({ unit: other });
    }
    const transforms: [Def, unknown][] = [];
    for (const schema of nodes) {
      const node = schema._zod.def;
      if (units.has(node) && node !== def) continue;
      if (typeof node.transform !== 'function') continue;
      transforms.push([node, node.transform]);
      const tag = { expr: `transformHelper(${where.get(node)}._zod.def.transform)` };
      node.transform = () => tag;
    }
    let capture: Capture;
    try {
      capture = compileUnit(schemaOf.get(def));
    } finally {
      for (const [other, type] of hidden) {
        other.type = type;
        delete other.transform;
      }
      for (const [node, transform] of transforms) node.transform = transform;
    }
    const params: string[] = [];
    const args: string[] = [];
    capture.names.forEach((name, i) => {
      const value = capture.values[i];
      if (name === 'INVALID') return;
      const found = typeof value === 'function' ? probe(value as (value?: unknown) => unknown) : undefined;
      let expr: string | undefined;
      if (found && 'unit' in found) expr = build(found.unit, [...stack, def]);
      else if (found) expr = found.expr;
      else expr = expressionOf(value);
      if (expr === undefined)
        throw new Error(`cannot write constant ${name} (${String(value).slice(0, 80)}) of ${where.get(def)}`);
      params.push(name);
      args.push(expr);
    });
    const code = capture.body.replace(/^return \(input\) => \{\n/, '').replace(/\n\}$/, '');
    const text = `((${params.join(', ')}) => (input) => {\n${code}\n})(${args.join(', ')})`;
    let name = byText.get(text);
    if (!name) {
      name = `unit${byText.size}`;
      byText.set(text, name);
      // Built on first call: importing the module then costs little more than reading its text, and a process
      // builds only the validators of the kinds it meets.
      lines.push(`const ${name} = lazy(() => ${text});`);
    }
    names.set(def, name);
    return name;
  };
  for (const [, schema] of roots) build(schema._zod.def, []);

  const exports = roots.map(([expr, schema]) => `  [${expr}, ${names.get(schema._zod.def)}],`);
  return `${[
    '// @ts-nocheck',
    '// GENERATED by scripts/compile-validators.ts from the schemas of src/models (zod ahead-of-time compiler); do',
    '// not edit. `npm run build` regenerates it; test/models/compiled-validators.test.ts fails when it is stale.',
    '//',
    '// Each function returns the parsed value, or INVALID where zod must decide (the caller then runs the schema,',
    '// which gives the issues). Only zod itself and the live schemas are referenced: defaults and transforms run',
    '// from the schema, so generated ids and times are fresh on every parse.',
    "import { util } from 'zod/v4/core';",
    "import { ConversationStateSchema } from '../conversation-state.js';",
    "import { lenientSchemas, strictSchemas } from '../schemas.js';",
    "import { INVALID, lazy, runtimeRun, transformHelper } from './runtime.js';",
    '',
    ...lines,
    '',
    '/** The fast parser of each schema compiled here. */',
    'export const compiledParsers: ReadonlyMap<unknown, (input: unknown) => unknown> = new Map([',
    ...exports,
    ']);',
  ].join('\n')}\n`;
}

function literal(value: unknown): string {
  return value === undefined ? 'undefined' : JSON.stringify(value);
}

/** Writes a generated module, or with `--check` exits 1 when the committed one is not `text`. */
export function writeGenerated(output: string, text: string, script: string): void {
  if (process.argv.includes('--check')) {
    const current = existsSync(output) ? readFileSync(output, 'utf8') : '';
    if (current !== text) {
      console.error(`${output} is stale: run node scripts/${script}.ts`);
      process.exit(1);
    }
  } else {
    writeFileSync(output, text);
    console.log(`${script}: wrote ${output} (${(text.length / 1000).toFixed(0)} kB)`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeGenerated(OUTPUT, await generate(), 'compile-validators');
}
