/**
 * `react` is an optional peer dependency of `./react` alone (docs/react.md): no other entry may import it, or
 * an app without React would fail to load (or bundle) the SDK. Each entry's module graph is bundled from the
 * sources with every package left external, and the packages it imports are listed; the built files of
 * `dist/` are checked too when a build is there.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const ENTRIES = ['index.ts', 'index.node.ts', 'models.ts', 'models.node.ts', 'tracing.ts', 'testing.ts'];

/** The packages (bare specifiers) the module graph of `src/<entry>` imports. */
async function packagesImportedBy(entry: string): Promise<Set<string>> {
  const result = await build({
    entryPoints: [join(root, 'src', entry)],
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'neutral',
    packages: 'external',
    logLevel: 'silent',
  });
  const packages = new Set<string>();
  for (const input of Object.values(result.metafile.inputs)) {
    for (const imported of input.imports) {
      if (imported.external) packages.add(imported.path);
    }
  }
  return packages;
}

const isReact = (specifier: string) => /^react(-dom)?(\/|$)/.test(specifier);

describe('react only in ./react', () => {
  it.each(ENTRIES)('src/%s imports no react', async (entry) => {
    const packages = await packagesImportedBy(entry);
    // The graph is real: every entry but ./tracing imports zod or ky.
    if (entry !== 'tracing.ts') expect([...packages].some((name) => /^(zod|ky)/.test(name))).toBe(true);
    expect([...packages].filter(isReact)).toEqual([]);
  });

  it('src/react.ts imports react', async () => {
    expect([...(await packagesImportedBy('react.ts'))].filter(isReact)).toEqual(['react']);
  });

  it.skipIf(!existsSync(join(root, 'dist', 'esm', 'react.js')))(
    'no built file of dist/ outside the react entry names react',
    () => {
      const offenders: string[] = [];
      const walk = (dir: string) => {
        for (const entry of readdirSync(dir, { withFileTypes: true })) {
          const path = join(dir, entry.name);
          if (entry.isDirectory()) walk(path);
          else if (
            /\.(c?js|d\.c?ts)$/.test(entry.name) &&
            !/(^|\/)react(\.|\/)/.test(path.slice(root.length))
          ) {
            if (/from ['"]react(-dom)?['"/]|require\(['"]react/.test(readFileSync(path, 'utf8')))
              offenders.push(path);
          }
        }
      };
      walk(join(root, 'dist'));
      expect(offenders).toEqual([]);
    },
  );
});
