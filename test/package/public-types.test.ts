// The explicit public types (src/*/types.generated.ts) that keep zod out of the package declarations must be
// exactly the types the schemas infer: scripts/write-public-types.ts --check regenerates them in memory,
// compares them with the files and checks each one identical to its `z.output` (docs/performance.md,
// "Type-checking").
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

it('src/*/types.generated.ts are up to date and equal to the inferred types', () => {
  const root = join(import.meta.dirname, '..', '..');
  const output = execFileSync(process.execPath, [join(root, 'scripts', 'write-public-types.ts'), '--check'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  expect(output).toContain('up to date and equal to the inferred ones');
}, 120_000);
