// Issue 33, item 6: under TypeScript's `moduleResolution: node` (node10), which ignores `exports`, every subpath
// entry finds its declarations through `typesVersions` (`attw --pack .` checks the packed result in
// scripts/check-package.mjs). A new entry without its mapping fails here, before any build.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

interface Manifest {
  exports: Record<string, string | { require?: { types?: string } }>;
  typesVersions?: Record<string, Record<string, string[]>>;
}

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as Manifest;

it("typesVersions maps every subpath entry to its require condition's declarations", () => {
  const subpaths = Object.entries(manifest.exports).filter(
    ([path, target]) => path !== '.' && typeof target === 'object',
  );
  expect(subpaths.length).toBeGreaterThan(0);
  const mapped = manifest.typesVersions?.['*'] ?? {};
  for (const [path, target] of subpaths) {
    const types = (target as { require?: { types?: string } }).require?.types;
    expect(types, path).toBeDefined();
    expect(mapped[path.replace(/^\.\//, '')], path).toEqual([types]);
  }
  expect(Object.keys(mapped).sort()).toEqual(subpaths.map(([path]) => path.replace(/^\.\//, '')).sort());
});
