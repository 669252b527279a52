/**
 * Where code generation is not allowed (CSP, `z.config({ jitless: true })`), parsing runs on zod's runtime parser
 * and gives the same results. (Each test file runs in its own process, so this config does not leak.)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';

describe('jitless', () => {
  it('parses every real sample in both modes without z.compile', async () => {
    z.config({ jitless: true });
    const { parseEvent, isKnownEvent, safeParseEvent } = await import('../../src/models/index.js');
    const dir = new URL('../fixtures/anchor-events/', import.meta.url);
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
      const text = readFileSync(new URL(file, dir), 'utf8');
      for (const mode of ['strict', 'lenient'] as const) {
        const event = parseEvent(text, { mode });
        expect(isKnownEvent(event)).toBe(true);
        expect(JSON.parse(JSON.stringify(event))).toEqual(JSON.parse(text));
      }
    }
    const bad = safeParseEvent({ kind: 'PauseEvent', source: 'robot' }, { mode: 'strict' });
    expect(bad.success).toBe(false);
    if (!bad.success) expect(bad.error.issues[0]?.message).toContain('expected one of');
  });
});
