/**
 * `safeParseEvent`'s lenient path runs for every streamed event, so it keeps as little per call as it can (the
 * JSON text is decoded in place, the lenient parser is kept at hand). Its results must not depend on that, nor
 * on compiled parsers: checked for the real samples and for random mutations of them (nulls, missing fields,
 * wrong types, extra keys, at any depth), given as JSON text and as values, and for text that is not JSON.
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile } from 'zod/mini';
import { enableCompiledParsers, getUnknownInfo, safeParseEvent } from '../../src/models/index.js';
import { mutateAt, parentOf, paths, VALUE_CHANGES } from './support/mutate.js';

const dir = new URL('../fixtures/anchor-events/', import.meta.url);
const samples = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as Record<string, unknown>);

const changes = [...VALUE_CHANGES, 'extra'] as const;

/** A sample with one change at one place (the kind is left alone: unknown kinds do not reach a variant). */
const mutated: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(fc.nat({ max: samples.length - 1 }), fc.nat(), fc.constantFrom(...changes))
  .map(([which, at, change]) => {
    const sample = structuredClone(samples[which]!);
    const places = paths(sample).filter((p) => !(p.length === 1 && p[0] === 'kind'));
    const path = places[at % places.length]!;
    if (change !== 'extra') {
      mutateAt(sample, path, change);
      return sample;
    }
    const { parent, key } = parentOf(sample, path);
    if (typeof parent[key] === 'object' && parent[key] !== null && !Array.isArray(parent[key])) {
      (parent[key] as Record<string, unknown>).extra_field = { nested: [1, null] };
    } else parent.extra_field = 'x';
    return sample;
  });

/**
 * What a parse gave, comparable as text: key order counts. `id` and `timestamp` default to fresh values when
 * absent (or `null`, which lenient mode drops).
 */
function outcome(
  input: Record<string, unknown>,
  result: { success: boolean; data?: unknown; error?: unknown },
) {
  if (!result.success) {
    const error = result.error as { issues: { code: string; path: unknown; message: string }[] };
    return JSON.stringify({
      failed: error.issues.map(({ code, path, message }) => ({ code, path, message })),
    });
  }
  const data = { ...(result.data as Record<string, unknown>) };
  if (input.id == null) data.id = '(generated)';
  if (input.timestamp == null) data.timestamp = '(generated)';
  return JSON.stringify(sortedKeys({ data, unknown: getUnknownInfo(result.data) ?? null }));
}

/** The value with every object's keys sorted: key order is not part of a parse result (an event the SDK decoded
 * itself that needs no change keeps the server's order, a copy has the schema's). */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]),
  );
}

describe('safeParseEvent, lenient', () => {
  it('gives the same results with compiled parsers as with the runtime parser, from text or value', () => {
    const inputs = [...samples, ...fc.sample(mutated, { numRuns: 600, seed: 4 })];
    const texts = inputs.map((input) => JSON.stringify(input));
    const run = (fromText: boolean) =>
      inputs.map((input, i) =>
        outcome(input, safeParseEvent(fromText ? texts[i] : structuredClone(input), { mode: 'lenient' })),
      );
    const runtime = run(true);
    // Some of the mutations are repaired (a dropped null), some become UnknownEvents: all paths are exercised.
    expect(runtime.some((o) => o.includes('"reason":"invalid"'))).toBe(true);
    expect(runtime.some((o) => o.includes('"unknown":null'))).toBe(true);
    expect(run(false)).toEqual(runtime);
    enableCompiledParsers(compile);
    expect(run(true)).toEqual(runtime);
    expect(run(false)).toEqual(runtime);
  });

  it('text that is not JSON: an invalid_json issue, with the position when V8 gives one, never the text', () => {
    const cases: [string, string][] = [
      ['{"kind": "PauseEvent", "secret-ish": 1}}', 'not valid JSON (error at position 39)'],
      ['{"kind": "PauseEvent", "secret-ish": tru, "x": 1}', 'not valid JSON'],
      ['{"kind": "PauseEvent", "secret-ish"', 'not valid JSON (error at position 35)'],
    ];
    for (const mode of ['lenient', 'strict'] as const) {
      for (const [text, message] of cases) {
        const result = safeParseEvent(text, { mode });
        expect(result.success).toBe(false);
        if (result.success) continue;
        expect(result.error.issues).toEqual([{ path: [], code: 'invalid_json', message }]);
        expect(result.error.message).not.toContain('secret-ish');
      }
    }
  });
});
