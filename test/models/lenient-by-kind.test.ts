/**
 * With compiled parsers, a lenient parse of a known kind runs the compiled variant of that kind instead of the
 * compiled Event union (one small function per kind is faster on a stream of mixed kinds). The Event union is a
 * discriminated union that hands an object of a known kind to its variant, so the results must be the same:
 * checked against the compiled union directly, and against the runtime parser through `safeParseEvent`, for the
 * real samples and for random mutations of them (nulls, missing fields, wrong types, extra keys, at any depth).
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile } from 'zod/mini';
import { EVENT_KINDS } from '../../src/models/events.js';
import { enableCompiledParsers, getUnknownInfo, safeParseEvent } from '../../src/models/index.js';
import { PARSE_PARAMS } from '../../src/models/messages.js';
import { lenientSchemas } from '../../src/models/schemas.js';

const dir = new URL('../fixtures/anchor-events/', import.meta.url);
const samples = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as Record<string, unknown>);

type Path = (string | number)[];

function paths(value: unknown, prefix: Path = [], out: Path[] = []): Path[] {
  if (typeof value !== 'object' || value === null) return out;
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : Object.entries(value as Record<string, unknown>);
  for (const [key, child] of entries) {
    out.push([...prefix, key]);
    paths(child, [...prefix, key], out);
  }
  return out;
}

const changes = ['null', 'delete', 'number', 'string', 'boolean', 'array', 'object', 'extra'] as const;

/** A sample with one change at one place (the kind is left alone: unknown kinds do not reach a variant). */
const mutated: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(fc.nat({ max: samples.length - 1 }), fc.nat(), fc.constantFrom(...changes))
  .map(([which, at, change]) => {
    const sample = structuredClone(samples[which]!);
    const places = paths(sample).filter((p) => !(p.length === 1 && p[0] === 'kind'));
    const path = places[at % places.length]!;
    let parent = sample as Record<string | number, unknown>;
    for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
    const key = path.at(-1)!;
    if (change === 'null') parent[key] = null;
    else if (change === 'delete') {
      if (Array.isArray(parent) && typeof key === 'number') parent.splice(key, 1);
      else delete parent[key];
    } else if (change === 'number') parent[key] = 42.5;
    else if (change === 'string') parent[key] = 'surprise';
    else if (change === 'boolean') parent[key] = true;
    else if (change === 'array') parent[key] = [];
    else if (change === 'object') parent[key] = {};
    else if (typeof parent[key] === 'object' && parent[key] !== null && !Array.isArray(parent[key])) {
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
  return JSON.stringify({ data, unknown: getUnknownInfo(result.data) ?? null });
}

describe('lenient parsing by kind', () => {
  it('there is one lenient variant per known kind, under that kind', () => {
    expect(Object.keys(lenientSchemas.variants).sort()).toEqual([...EVENT_KINDS].sort());
    for (const kind of EVENT_KINDS) {
      const others = EVENT_KINDS.filter((other) => other !== kind);
      const variant = compile(lenientSchemas.variants[kind]);
      // A variant accepts its own kind only: an object of another kind fails on `kind`.
      for (const other of others) {
        const result = variant.safeParse({ kind: other }, PARSE_PARAMS);
        expect(result.success).toBe(false);
        if (!result.success) expect(result.error.issues.some((i) => i.path[0] === 'kind')).toBe(true);
      }
    }
  });

  it("a kind's compiled variant gives the compiled union's result: data, key order, or issues", () => {
    const union = compile(lenientSchemas.Event);
    const variants = new Map(EVENT_KINDS.map((kind) => [kind, compile(lenientSchemas.variants[kind])]));
    const check = (input: Record<string, unknown>) => {
      const variant = variants.get(input.kind as (typeof EVENT_KINDS)[number])!;
      expect(outcome(input, variant.safeParse(input, PARSE_PARAMS))).toBe(
        outcome(input, union.safeParse(input, PARSE_PARAMS)),
      );
    };
    for (const sample of samples) check(sample);
    fc.assert(fc.property(mutated, check), { numRuns: 1_000 });
  });

  it('safeParseEvent gives the same results with compiled parsers (by kind) as with the runtime parser', () => {
    const inputs = [...samples, ...fc.sample(mutated, { numRuns: 600, seed: 4 })];
    const texts = inputs.map((input) => JSON.stringify(input));
    const run = () => texts.map((text, i) => outcome(inputs[i]!, safeParseEvent(text, { mode: 'lenient' })));
    const runtime = run();
    // Some of the mutations are repaired (a dropped null), some become UnknownEvents: all paths are exercised.
    expect(runtime.some((o) => o.includes('"reason":"invalid"'))).toBe(true);
    expect(runtime.some((o) => o.includes('"unknown":null'))).toBe(true);
    enableCompiledParsers(compile);
    expect(run()).toEqual(runtime);
  });
});
