/**
 * The module graph of `src/` has no import circles, and keeps the layering CONTRIBUTING.md ("Layout") sets.
 * Every relative `import` / `export … from` of every `src/**` file counts, `import type` and `export type`
 * included (and `typeof import()`, `import()`): a type-only circle is still two modules that cannot be read (or
 * split) one without the other.
 *
 * A circle found is reported as its path (`a.ts → b.ts → a.ts`). Break it by moving what both sides need
 * into a module of its own; `ALLOWED_CYCLES` is for a circle that genuinely cannot be broken, with the reason
 * (none today).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const src = join(root, 'src');

/** Circles that stay, each as the sorted list of its files (relative to src/) and why. None today. */
const ALLOWED_CYCLES: { files: string[]; reason: string }[] = [];

/** The folders of `src/` that are services: each imports `core/` and `models/`, never another service. */
const SERVICES = ['agent-server', 'runtime', 'gateway', 'platform', 'tracing'];

type Graph = Map<string, Set<string>>;

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(path);
  }
  return files;
}

/**
 * The module specifiers a file depends on: its `import` and `export … from` declarations (type-only ones
 * included), `typeof import('…')` types and `import('…')` calls with a literal specifier (a lazy load still ties
 * the two modules together).
 */
function specifiersOf(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier)
    )
      found.push(node.moduleSpecifier.text);
    else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    )
      found.push(node.argument.literal.text);
    else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteralLike(node.arguments[0])
    )
      found.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** `./x.js` → `x.ts` (or `x.tsx`, or `x/index.ts`); undefined when no such file exists. */
function resolveSpecifier(from: string, specifier: string, files: Set<string>): string | undefined {
  const base = resolve(dirname(from), specifier).replace(/\.js$/, '');
  return [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((candidate) => files.has(candidate));
}

function buildGraph(): { graph: Graph; unresolved: string[] } {
  const files = sourceFiles(src);
  const known = new Set(files);
  const graph: Graph = new Map();
  const unresolved: string[] = [];
  for (const file of files) {
    const name = relative(src, file);
    const edges = new Set<string>();
    for (const specifier of specifiersOf(file, readFileSync(file, 'utf8'))) {
      if (!specifier.startsWith('.')) continue;
      const target = resolveSpecifier(file, specifier, known);
      if (target === undefined) unresolved.push(`${name}: ${specifier}`);
      else edges.add(relative(src, target));
    }
    graph.set(name, edges);
  }
  return { graph, unresolved };
}

/** The strongly connected components with more than one module (or a module importing itself): Tarjan. */
function circles(graph: Graph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || graph.get(node)?.has(node)) found.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return found;
}

/** One circle through a component, as a path from its first file back to it (breadth-first: a shortest one). */
function cyclePath(graph: Graph, component: string[]): string {
  const members = new Set(component);
  const start = component[0]!;
  const parent = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const next of graph.get(node) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(parent.get(path[0]!)!);
        const rest = component.filter((file) => !path.includes(file));
        return `${[...path, start].join(' → ')}${rest.length > 0 ? ` (in one circle with ${rest.join(', ')})` : ''}`;
      }
      if (!parent.has(next)) {
        parent.set(next, node);
        queue.push(next);
      }
    }
  }
  return component.join(', ');
}

/** Every circle of `graph` not in ALLOWED_CYCLES, each as a readable path. */
function unexpectedCycles(graph: Graph, allowed = ALLOWED_CYCLES): string[] {
  const allowedKeys = new Set(allowed.map((entry) => [...entry.files].sort().join('|')));
  return circles(graph)
    .filter((component) => !allowedKeys.has(component.join('|')))
    .map((component) => cyclePath(graph, component));
}

const topFolder = (file: string) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : undefined);

describe('the cycle finder', () => {
  it('reads type-only imports and re-exports, and skips imports in comments and strings', () => {
    const text = [
      "import type { A } from './a.js';",
      "import { b } from './b.js';",
      "export type { C } from './c.js';",
      "export * from './d.js';",
      "import './e.js';",
      "// import { f } from './f.js';",
      'const g = "import { g } from \'./g.js\'";',
      "type H = typeof import('./h.js');",
      "const i = () => import('./i.js');",
      'export const j = 1;',
    ].join('\n');
    expect(specifiersOf('x.ts', text)).toEqual([
      './a.js',
      './b.js',
      './c.js',
      './d.js',
      './e.js',
      './h.js',
      './i.js',
    ]);
  });

  it('reports a circle as its path, and only circles', () => {
    const graph: Graph = new Map([
      ['a.ts', new Set(['b.ts'])],
      ['b.ts', new Set(['c.ts', 'd.ts', 'f.ts'])],
      ['c.ts', new Set(['a.ts'])],
      ['f.ts', new Set(['b.ts'])],
      ['d.ts', new Set<string>()],
      ['e.ts', new Set(['e.ts'])],
    ]);
    expect(unexpectedCycles(graph)).toEqual([
      'a.ts → b.ts → c.ts → a.ts (in one circle with f.ts)',
      'e.ts → e.ts',
    ]);
    expect(unexpectedCycles(graph, [{ files: ['f.ts', 'c.ts', 'b.ts', 'a.ts'], reason: 'test' }])).toEqual([
      'e.ts → e.ts',
    ]);
  });
});

describe('src/ module graph', () => {
  const { graph, unresolved } = buildGraph();

  it('resolves every relative import to a file of src/', () => {
    expect(unresolved).toEqual([]);
    // The graph is the real one: the entry reaches the agent-server client, which reaches the live layer.
    expect(graph.size).toBeGreaterThan(200);
    expect(graph.get('index.ts')).toContain('agent-server/index.ts');
    expect(graph.get('agent-server/events-client.ts')).toContain('agent-server/live/subscription.ts');
  });

  it('has no import circles', () => {
    expect(unexpectedCycles(graph)).toEqual([]);
  });

  it('lists no allowed circle that no longer exists', () => {
    const present = new Set(circles(graph).map((component) => component.join('|')));
    const stale = ALLOWED_CYCLES.filter((entry) => !present.has([...entry.files].sort().join('|')));
    expect(stale).toEqual([]);
  });

  it('services import core/ and models/, never each other; core/ and models/ import no service', () => {
    const crossing: string[] = [];
    for (const [file, edges] of graph) {
      const from = topFolder(file);
      for (const target of edges) {
        const to = topFolder(target);
        if (to === undefined || to === from || !SERVICES.includes(to)) continue;
        if (SERVICES.includes(from ?? '') || from === 'core' || from === 'models')
          crossing.push(`${file} → ${target}`);
      }
    }
    expect(crossing).toEqual([]);
  });

  it('the view layer imports the live layer, never the reverse', () => {
    const reverse: string[] = [];
    for (const [file, edges] of graph) {
      if (!file.startsWith('agent-server/live/')) continue;
      for (const target of edges)
        if (target.startsWith('agent-server/view/')) reverse.push(`${file} → ${target}`);
    }
    expect(reverse).toEqual([]);
    // The rule is about a real edge: the view is built on the live subscription.
    expect(graph.get('agent-server/view/conversation-view.ts')).toContain(
      'agent-server/live/subscription.ts',
    );
  });
});
