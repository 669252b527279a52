/**
 * The Node entry points switch on compiled parsers (`enableCompiledParsers(compile)`); browser builds do not.
 * Both must give the same results, for valid samples and for failures.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compile } from 'zod/mini';
import { enableCompiledParsers, parseEvent, safeParseEvent } from '../../src/models/index.js';

const dir = new URL('../fixtures/anchor-events/', import.meta.url);
const samples = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => readFileSync(new URL(f, dir), 'utf8'));
const broken = [
  { kind: 'PauseEvent', source: 'robot' },
  { kind: 'ActionEvent', id: 'a', timestamp: 't', tool_name: 1 },
  { kind: 'HookExecutionEvent', id: 'h', timestamp: 't', source: 'hook', hook_event_type: 'Stop' },
];

function outcomes() {
  return (['strict', 'lenient'] as const).flatMap((mode) => [
    ...samples.map((text) => JSON.stringify(parseEvent(text, { mode }))),
    ...broken.map((value) => {
      const result = safeParseEvent(value, { mode });
      return JSON.stringify(result.success ? result.data : result.error.issues);
    }),
  ]);
}

describe('compiled parsers', () => {
  it('give the same results as the runtime parser', () => {
    const runtime = outcomes();
    enableCompiledParsers(compile);
    expect(outcomes()).toEqual(runtime);
  });
});
