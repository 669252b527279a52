// The public surface of every entry point, as a reviewed list: test/package/exports.snapshot.txt holds each
// entry's exports (values and types), so that adding or removing a name shows in review. Update it with
// `npx vitest run test/package/exports.test.ts -u` after a deliberate change. The root entry must stay free of
// zod schemas and internal helpers (docs/performance.md, "Type-checking"; README "Entry points").
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as rootEntry from '../../src/index.js';

const root = join(import.meta.dirname, '..', '..');
const ENTRIES = {
  'agent-platform-sdk': 'src/index.ts',
  'agent-platform-sdk/models': 'src/models.ts',
  'agent-platform-sdk/tracing': 'src/tracing.ts',
  'agent-platform-sdk/testing': 'src/testing.ts',
  'agent-platform-sdk/react': 'src/react.ts',
};

/** `value name` or `type name` for every export of each entry, sorted. */
function surface(): Record<string, string[]> {
  const program = ts.createProgram(
    Object.values(ENTRIES).map((file) => join(root, file)),
    {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      skipLibCheck: true,
      noEmit: true,
      types: ['node'],
    },
  );
  const checker = program.getTypeChecker();
  const result: Record<string, string[]> = {};
  for (const [name, file] of Object.entries(ENTRIES)) {
    const source = program.getSourceFile(join(root, file));
    const module = source && checker.getSymbolAtLocation(source);
    if (!module) throw new Error(`no module for ${file}`);
    result[name] = checker
      .getExportsOfModule(module)
      .map((symbol) => {
        const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
        return `${target.flags & ts.SymbolFlags.Value ? 'value' : 'type'} ${symbol.getName()}`;
      })
      .sort((a, b) => a.split(' ')[1]!.localeCompare(b.split(' ')[1]!, 'en'));
  }
  return result;
}

describe('public surface', () => {
  const exports = surface();

  it('matches the reviewed list of every entry point', async () => {
    const text = Object.entries(exports)
      .map(([entry, names]) => {
        const values = names.filter((n) => n.startsWith('value ')).length;
        return `## ${entry} (${values} values, ${names.length - values} types)\n${names.join('\n')}\n`;
      })
      .join('\n');
    await expect(text).toMatchFileSnapshot('./exports.snapshot.txt');
  });

  it('keeps zod schemas and internal helpers out of the root entry', () => {
    const rootNames = exports['agent-platform-sdk']!.map((n) => n.split(' ')[1]!);
    const leaked = rootNames.filter(
      (name) =>
        /Schemas?$/.test(name) ||
        /^(strict|lenient)Schemas$|^(brandErrorClass|errorGuard|apiErrorClassFor|enableCompiledParsers|safeParseModel)$/.test(
          name,
        ) ||
        name.endsWith('_MODULE_PATHS') ||
        name.endsWith('OPERATIONS'),
    );
    expect(leaked).toEqual([]);
    // What an app needs is there: clients, errors with guards, event types, guards and parsers.
    for (const name of [
      'EventsClient',
      'AgentServerClient',
      'NotFoundError',
      'isNotFoundError',
      'parseEvent',
    ]) {
      expect(rootNames).toContain(name);
    }
    expect(exports['agent-platform-sdk']).toContain('type Event');
  });

  // issue 26: 166 runtime values made the root entry a list to search, not a surface to learn. Event-kind
  // tables, per-kind guards and tree helpers live in ./models; duplicates (one name per operation) are gone.
  it('keeps the root entry at 120 runtime values or fewer', () => {
    const values = Object.keys(rootEntry);
    expect(values.length, values.join(' ')).toBeLessThanOrEqual(120);
  });

  it('keeps the schemas available from ./models', () => {
    expect(exports['agent-platform-sdk/models']).toEqual(
      expect.arrayContaining(['value EventSchema', 'value safeParseModel', 'value EVENT_KIND_MODULE_PATHS']),
    );
  });
});
