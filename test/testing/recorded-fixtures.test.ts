// The recorded fixtures name no machine: scripts/record-real.ts writes this checkout's path as `<repo>`.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const fixtures = join(root, 'test/fixtures');

describe('recorded fixtures', () => {
  it("do not contain this checkout's path", () => {
    const files = readdirSync(fixtures, { recursive: true, encoding: 'utf8' }).filter((f) =>
      f.endsWith('.json'),
    );
    expect(files.length).toBeGreaterThan(0);
    const naming = files.filter((file) => readFileSync(join(fixtures, file), 'utf8').includes(root));
    expect(naming).toEqual([]);
  });
});
