import { describe, expect, it } from 'vitest';
import { updatedCompatibilityDocument } from '../../scripts/compat-table.js';

describe('docs/compatibility.md', () => {
  it('holds the versions × features table of the recorded real runs (node scripts/compat-table.ts)', () => {
    const { current, updated } = updatedCompatibilityDocument();
    expect(current).toBe(updated);
    expect(updated).toContain('| 1.58.0 | yes |');
  });
});
