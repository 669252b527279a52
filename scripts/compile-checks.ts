// Build step: writes src/models/compiled/checks.ts, one predicate per parsed schema that answers "is this value
// already exactly what the schema's parser would return?". When it is, the parsers return the value itself
// (no copy, no allocation); when it is not (a default to fill, an unknown key to drop, an unknown kind to wrap,
// anything invalid), zod's parser decides. Plain code written at build time: nothing is generated at run time
// (fine under a strict Content-Security-Policy) and nothing a bundler can drop, since parse.ts imports it. See
// docs/performance.md, "Validators compiled at build time".
//
//   node scripts/compile-checks.ts           writes the file (`npm run build` runs it)
//   node scripts/compile-checks.ts --check   exits 1 when the committed file is stale
//
// The predicates are conservative: a schema construct they do not know (transforms, pipes, custom checks, …)
// answers `false`, so the parser decides. test/models/compiled-checks.test.ts checks, on the real corpus and on
// mutated events, that every value a predicate accepts is parsed by zod into an equal value.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// The resolve hook first, so that Node runs the TypeScript sources (a variable: tsc rejects `.ts` specifiers).
const hooks = '../bench/_ts-sources.ts';
await import(hooks);

export const OUTPUT = fileURLToPath(new URL('../src/models/compiled/checks.ts', import.meta.url));

// biome-ignore lint/suspicious/noExplicitAny: zod's schema internals (`_zod.def`) are untyped here.
type Schema = any;

/** The schemas parse.ts checks, by the name the generated module exports them under. */
async function loadRoots(): Promise<[string, Schema][]> {
  const { eventSchemas } = await import('../src/models/mode-schemas.js');
  const { ConversationStateSchema } = await import('../src/models/conversation-state.js');
  const [lenient, strict] = [eventSchemas('lenient'), eventSchemas('strict')];
  return [
    ['lenientEvent', lenient.Event],
    ['strictEvent', strict.Event],
    ['lenientAction', lenient.Action],
    ['strictAction', strict.Action],
    ['lenientObservation', lenient.Observation],
    ['strictObservation', strict.Observation],
    ['conversationState', ConversationStateSchema],
  ];
}

export async function generate(): Promise<string> {
  const roots = await loadRoots();
  const functions: string[] = [];
  const constants: string[] = [];
  const nameOf = new Map<unknown, string>(); // def → function name
  const byText = new Map<string, string>(); // function body → name (identical checks are written once)
  const setOf = new Map<string, string>();
  const building = new Set<unknown>();

  const set = (values: unknown[]): string => {
    const text = `new Set(${JSON.stringify(values)})`;
    let name = setOf.get(text);
    if (!name) {
      name = `S${setOf.size}`;
      setOf.set(text, name);
      constants.push(`const ${name} = ${text};`);
    }
    return name;
  };

  const patternOf = new Map<string, string>();
  /** A regular expression constant (a string format's pattern), written once. */
  const pattern = (regex: RegExp): string => {
    const text = String(regex);
    let name = patternOf.get(text);
    if (!name) {
      name = `R${patternOf.size}`;
      patternOf.set(text, name);
      constants.push(`const ${name} = ${text};`);
    }
    return name;
  };

  /** A function `(v) => boolean` for a container schema, written once per def. */
  const fn = (schema: Schema, body: () => string): string => {
    const def = schema._zod.def;
    const known = nameOf.get(def);
    if (known) return known;
    if (building.has(def)) throw new Error('recursive schema');
    building.add(def);
    const text = body();
    building.delete(def);
    let name = byText.get(text);
    if (!name) {
      name = `c${byText.size}`;
      byText.set(text, name);
      // A parenthesized function expression: V8 compiles it when the module loads instead of on its first
      // call, so the first events of a process do not wait for it (first 1,000 events 2.9x -> 2.3x JSON.parse).
      functions.push(`const ${name} = (function (v) {\n${text}\n});`);
    }
    nameOf.set(def, name);
    return name;
  };

  /** A boolean expression: `v` (an identifier) is exactly what the schema would output for it. */
  const expr = (schema: Schema, v: string): string => {
    const def = schema._zod.def;
    const checks: Schema[] = (def.checks ?? []).map((check: Schema) => check._zod.def);
    switch (def.type) {
      case 'string': {
        if (def.coerce) return 'false';
        const parts = [`typeof ${v} === "string"`];
        // A string format (`z.iso.datetime()`, …) is the schema's own check: test its pattern, or let zod decide.
        if (def.format !== undefined) {
          if (!(def.pattern instanceof RegExp)) return 'false';
          parts.push(`${pattern(def.pattern)}.test(${v})`);
        }
        for (const check of checks) {
          if (check.check === 'min_length') parts.push(`${v}.length >= ${check.minimum}`);
          else if (check.check === 'max_length') parts.push(`${v}.length <= ${check.maximum}`);
          else if (check.check === 'length_equals') parts.push(`${v}.length === ${check.length}`);
          else return 'false';
        }
        return `(${parts.join(' && ')})`;
      }
      case 'number': {
        // `z.int()` is a number of format `safeint`, which is also its own check.
        if (def.coerce || (def.format && def.format !== 'safeint')) return 'false';
        const parts = [
          `typeof ${v} === "number"`,
          def.format === 'safeint' ? `Number.isSafeInteger(${v})` : `Number.isFinite(${v})`,
        ];
        for (const check of checks) {
          const op = check.inclusive ? '=' : '';
          if (check.check === 'number_format' && check.format === def.format) continue;
          if (check.check === 'greater_than') parts.push(`${v} >${op} ${Number(check.value)}`);
          else if (check.check === 'less_than') parts.push(`${v} <${op} ${Number(check.value)}`);
          else return 'false';
        }
        return `(${parts.join(' && ')})`;
      }
      case 'boolean':
        return checks.length || def.coerce ? 'false' : `typeof ${v} === "boolean"`;
      case 'null':
        return `${v} === null`;
      case 'unknown':
      case 'any':
        return checks.length ? 'false' : 'true';
      case 'never':
        return 'false';
      case 'literal':
        return `(${(def.values as unknown[]).map((value) => `${v} === ${literal(value)}`).join(' || ')})`;
      case 'enum': {
        const values = Object.values(def.entries as Record<string, unknown>);
        // Up to 8 values, comparisons: cheaper than a `Set` lookup (`source`, on every event, has 4).
        return values.length <= 8
          ? `(${values.map((value) => `${v} === ${literal(value)}`).join(' || ')})`
          : `${set(values)}.has(${v})`;
      }
      case 'nullable': {
        const inner = expr(def.innerType, v);
        return inner === 'true' ? inner : `(${v} === null || ${inner})`;
      }
      case 'optional': {
        const inner = expr(def.innerType, v);
        return inner === 'true' ? inner : `(${v} === undefined || ${inner})`;
      }
      case 'default':
        // Absent, the parser would fill the default in: not the same value.
        return `(${present(def.innerType, v, expr(def.innerType, v))})`;
      case 'object':
      case 'array':
      case 'record':
      case 'tuple':
      case 'union':
        return checks.length ? 'false' : `${container(schema)}(${v})`;
      default:
        // Transforms, pipes, prefaults, lazy, catch, custom: the parser decides.
        return 'false';
    }
  };

  /**
   * `test` (the expression of `schema` for `v`) where a value must be present: `v !== undefined` is added only
   * when `test` can be true of `undefined`; every other test is false of it already (one comparison less per
   * field, which the first events of a process run in V8's interpreter).
   */
  const present = (schema: Schema, v: string, test: string): string =>
    acceptsUndefined(schema) ? `${v} !== undefined && ${test}` : test;

  const OBJECT_GUARD = 'if (typeof v !== "object" || v === null || Array.isArray(v)) return false;';
  // For objects that keep unknown keys: a plain object (not an array) without an own `__proto__` (JSON.parse
  // makes one from a `"__proto__"` key, which the parser never copies). `v.__proto__` reads that own key if
  // there is one, else the prototype: one load, where `Array.isArray` and `hasOwnProperty` were two calls
  // (predicates 17 % faster on the corpus, docs/performance.md, "Validators compiled at build time").
  const PLAIN_GUARD =
    'if (typeof v !== "object" || v === null || v.__proto__ !== ObjectPrototype) return false;';

  const container = (schema: Schema): string => {
    const def = schema._zod.def;
    switch (def.type) {
      case 'object':
        return fn(schema, () => {
          const keys = Object.keys(def.shape);
          const loose = def.catchall?._zod.def.type === 'unknown';
          const lines = [loose ? PLAIN_GUARD : OBJECT_GUARD];
          if (!loose) {
            // Strict objects reject unknown keys, stripping ones drop them: either way not this value.
            if (def.catchall && def.catchall._zod.def.type !== 'never') return 'return false;';
            lines.push(`for (const k in v) if (!${set(keys)}.has(k)) return false;`);
          }
          keys.forEach((key, i) => {
            const field = def.shape[key];
            const value = `f${i}`;
            const test = expr(field, value);
            // A required key the value lacks would come out as `key: undefined` (or fail): not the same value.
            // (`default` says so itself.)
            const optional = ['optional', 'default'].includes(field._zod.def.type);
            if (optional && test === 'true') return;
            lines.push(`const ${value} = v[${JSON.stringify(key)}];`);
            lines.push(`if (!(${optional ? test : present(field, value, test)})) return false;`);
          });
          lines.push('return true;');
          return lines.join('\n');
        });
      case 'array':
        return fn(
          schema,
          () =>
            `if (!Array.isArray(v)) return false;\nfor (let i = 0; i < v.length; i++) {\nconst e = v[i];\nif (!(${present(def.element, 'e', expr(def.element, 'e'))})) return false;\n}\nreturn true;`,
        );
      case 'tuple':
        return fn(schema, () => {
          const items: Schema[] = def.items;
          if (def.rest) return 'return false;';
          const parts = items.map((item, i) => present(item, `v[${i}]`, expr(item, `v[${i}]`)));
          return `return Array.isArray(v) && v.length === ${items.length}${parts.map((part) => ` && (${part})`).join('')};`;
        });
      case 'record':
        return fn(schema, () => {
          const key = def.keyType._zod.def;
          if (key.type !== 'string' || key.checks?.length || key.coerce) return 'return false;';
          return `${PLAIN_GUARD}\nfor (const k in v) {\nconst e = v[k];\nif (!(${present(def.valueType, 'e', expr(def.valueType, 'e'))})) return false;\n}\nreturn true;`;
        });
      case 'union':
        return fn(schema, () => {
          const options: Schema[] = def.options;
          const key = discriminator(options);
          // Without a discriminator only the first option is tried: a later option can give the value only when
          // every earlier one fails, which a predicate cannot tell. With one, at most one option can succeed.
          if (key === undefined) return `return ${expr(options[0], 'v')};`;
          const cases = options.flatMap((option) =>
            (option._zod.def.shape[key]._zod.def.values as unknown[]).map(
              (value) => `case ${literal(value)}: return ${expr(option, 'v')};`,
            ),
          );
          return `if (typeof v !== "object" || v === null) return false;\nswitch (v[${JSON.stringify(key)}]) {\n${cases.join('\n')}\ndefault: return false;\n}`;
        });
      default:
        throw new Error(`not a container: ${def.type}`);
    }
  };

  const exports = roots.map(([name, schema]) => `  ${name}: ${container(schema)},`);
  return `${[
    '// @ts-nocheck',
    '// GENERATED by scripts/compile-checks.ts from the schemas of src/models; do not edit. `npm run build`',
    '// regenerates it; test/models/compiled-checks.test.ts fails when it is stale.',
    '//',
    '// Each predicate answers whether a value is already exactly what the schema parses it into (then the parsers',
    '// return it as it is). `false` only means "let the parser decide". The functions are parenthesized so that V8',
    '// compiles them when the module loads.',
    'const ObjectPrototype = Object.prototype;',
    ...constants,
    '',
    ...functions,
    '',
    '/** The predicate of each schema parse.ts checks. */',
    'export const identityChecks: Readonly<Record<string, (value: unknown) => boolean>> = {',
    ...exports,
    '};',
  ].join('\n')}\n`;
}

/**
 * Whether the expression `expr` writes for `schema` can be true of `undefined` (as `expr` decides: an optional,
 * `unknown`/`any`, a literal `undefined`, a nullable of one of those, a union without discriminator whose first
 * option is one). Everything else tests a type, a value or a container first.
 */
function acceptsUndefined(schema: Schema): boolean {
  const def = schema._zod.def;
  switch (def.type) {
    case 'optional':
    case 'unknown':
    case 'any':
      return true;
    case 'literal':
      return (def.values as unknown[]).includes(undefined);
    case 'nullable':
      return acceptsUndefined(def.innerType);
    case 'union':
      return discriminator(def.options) === undefined && acceptsUndefined(def.options[0]);
    default:
      return false;
  }
}

/** A key whose literal values tell every option (all objects) apart, or undefined. */
function discriminator(options: Schema[]): string | undefined {
  if (!options.every((option) => option._zod.def.type === 'object')) return undefined;
  const candidates = Object.keys(options[0]._zod.def.shape);
  return candidates.find((key) => {
    const seen = new Set<unknown>();
    for (const option of options) {
      const field = option._zod.def.shape[key]?._zod.def;
      if (field?.type !== 'literal') return false;
      for (const value of field.values as unknown[]) {
        if (seen.has(value)) return false;
        seen.add(value);
      }
    }
    return true;
  });
}

function literal(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'bigint') return `${value}n`;
  return JSON.stringify(value);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = await generate();
  if (process.argv.includes('--check')) {
    const current = existsSync(OUTPUT) ? readFileSync(OUTPUT, 'utf8') : '';
    if (current !== text) {
      console.error(`${OUTPUT} is stale: run node scripts/compile-checks.ts`);
      process.exit(1);
    }
  } else {
    writeFileSync(OUTPUT, text);
    console.log(`compile-checks: wrote ${OUTPUT} (${(text.length / 1000).toFixed(0)} kB)`);
  }
}
