// The TypeScript examples of docs/agent-server-client.md compile under the project's strict settings against
// the source (`agent-platform-sdk` resolved to src/index.ts).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

describe('docs/agent-server-client.md', () => {
  it('every ```ts example type-checks (strict)', () => {
    const text = readFileSync(join(ROOT, 'docs/agent-server-client.md'), 'utf8');
    const blocks = [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] as string);
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    const dir = mkdtempSync(join(ROOT, 'test/docs/.snippets-'));
    try {
      mkdirSync(dir, { recursive: true });
      const files = blocks.map((block, index) => {
        const file = join(dir, `example-${index}.ts`);
        const source = block.replaceAll("from 'agent-platform-sdk'", "from '../../../src/index.js'");
        writeFileSync(file, `${source}\nexport {};\n`);
        return file;
      });
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({
          extends: '../../../tsconfig.json',
          compilerOptions: { rootDir: '../../..' },
          include: files,
        }),
      );
      const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
      let output = '';
      try {
        execFileSync(process.execPath, [tsc, '--noEmit', '-p', join(dir, 'tsconfig.json')], {
          encoding: 'utf8',
        });
      } catch (error) {
        output = String((error as { stdout?: string }).stdout ?? error);
      }
      // Errors in files being rewritten by others (outside this guide's examples) are not the guide's.
      const ours = output.split('\n').filter((line) => line.includes('.snippets-'));
      expect(ours).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
