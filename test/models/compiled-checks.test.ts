/**
 * The predicates compiled at build time (src/models/compiled/checks.ts, written by scripts/compile-checks.ts)
 * may accept a value only when zod's parser outputs an equal value (the parsers then return the value itself):
 * checked on every real recorded event (test/fixtures/real/**, test/fixtures/anchor-events) and on random
 * mutations of them, in both modes, for events, actions and observations. Every real event is accepted. The
 * committed file must also be what the generator writes from the current schemas.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import { generate } from '../../scripts/compile-checks.js';
import { identityChecks } from '../../src/models/compiled/checks.js';
import { parseEvent } from '../../src/models/index.js';
import { PARSE_PARAMS } from '../../src/models/messages.js';
import { eventSchemas } from '../../src/models/mode-schemas.js';
import { safeParseOwnedEvent } from '../../src/models/parse.js';

const [lenientSchemas, strictSchemas] = [eventSchemas('lenient'), eventSchemas('strict')];

import { mutateAt, parentOf, paths, VALUE_CHANGES } from './support/mutate.js';

type Json = Record<string, unknown>;

/** Every event of the real recordings (REST events, legacy and session socket frames) and the anchor samples. */
function corpus(): Json[] {
  const out: Json[] = [];
  const asJson = (frame: unknown) => (typeof frame === 'string' ? JSON.parse(frame) : frame);
  const root = new URL('../fixtures/real/', import.meta.url).pathname;
  for (const version of readdirSync(root).sort()) {
    for (const file of readdirSync(join(root, version)).sort()) {
      if (!file.endsWith('.json')) continue;
      const recording = JSON.parse(readFileSync(join(root, version, file), 'utf8'));
      out.push(...(recording.events ?? []));
      out.push(...(recording.frames?.events ?? []).map(asJson));
      for (const frame of recording.frames?.session ?? []) {
        const envelope = asJson(frame);
        if ((envelope.type === 'durable' || envelope.type === 'transient') && envelope.event)
          out.push(envelope.event);
      }
    }
  }
  const anchors = new URL('../fixtures/anchor-events/', import.meta.url);
  for (const file of readdirSync(anchors).sort()) {
    if (file.endsWith('.json')) out.push(JSON.parse(readFileSync(new URL(file, anchors), 'utf8')));
  }
  return out;
}

const events = corpus();
const actions = events.map((e) => e.action).filter((a): a is Json => typeof a === 'object' && a !== null);
const observations = events
  .map((e) => e.observation)
  .filter((o): o is Json => typeof o === 'object' && o !== null);

const roots = {
  'lenient Event': lenientSchemas.Event,
  'strict Event': strictSchemas.Event,
  'lenient Action': lenientSchemas.Action,
  'strict Action': strictSchemas.Action,
  'lenient Observation': lenientSchemas.Observation,
  'strict Observation': strictSchemas.Observation,
} as const;
const inputsOf = (name: string) =>
  name.endsWith('Event') ? events : name.endsWith('Action') ? actions : observations;

/** One input with one change at one place: a null, a deletion, a wrong type, an extra key, a new kind. */
function mutations(inputs: Json[]): fc.Arbitrary<Json> {
  const changes = [...VALUE_CHANGES, 'extra', 'kind'] as const;
  return fc
    .tuple(fc.nat({ max: inputs.length - 1 }), fc.nat(), fc.constantFrom(...changes))
    .map(([which, at, change]) => {
      const sample = structuredClone(inputs[which]!);
      const places = paths(sample);
      const path = places[at % places.length] ?? ['kind'];
      const { parent } = parentOf(sample, path);
      if (change === 'kind') parent.kind = 'SomethingNewAction';
      else if (change === 'extra') parent.extra_field = { nested: [1, null] };
      else mutateAt(sample, path, change);
      return sample;
    });
}

describe('predicates compiled at build time (a value that needs no change is returned as it is)', () => {
  const checkOf: Record<keyof typeof roots, (value: unknown) => boolean> = {
    'lenient Event': identityChecks.lenientEvent!,
    'strict Event': identityChecks.strictEvent!,
    'lenient Action': identityChecks.lenientAction!,
    'strict Action': identityChecks.strictAction!,
    'lenient Observation': identityChecks.lenientObservation!,
    'strict Observation': identityChecks.strictObservation!,
  };

  it('are what scripts/compile-checks.ts writes from the current schemas (run it when this fails)', async () => {
    const committed = readFileSync(new URL('../../src/models/compiled/checks.ts', import.meta.url), 'utf8');
    expect((await generate()) === committed).toBe(true);
  }, 60_000);

  it('contain no code generated at run time', () => {
    const text = readFileSync(new URL('../../src/models/compiled/checks.ts', import.meta.url), 'utf8');
    expect(text).not.toMatch(/new Function|\beval\(|compileFn|\bimport\b/);
  });

  it("are what parseEvent runs: zod's runtime parser is not asked for a valid event from text, in either mode", () => {
    let runs = 0;
    const saved = [lenientSchemas.Event, strictSchemas.Event].map((schema) => {
      const run = schema._zod.run;
      schema._zod.run = (...args) => {
        runs++;
        return run(...args);
      };
      return () => {
        schema._zod.run = run;
      };
    });
    try {
      for (const input of events) {
        parseEvent(JSON.stringify(input));
        parseEvent(JSON.stringify(input), { mode: 'strict' });
      }
      expect(runs).toBe(0);
      // And the counter works: an invalid event goes to zod.
      parseEvent({ kind: 'PauseEvent', source: 'robot' });
      expect(runs).toBeGreaterThan(0);
    } finally {
      for (const restore of saved) restore();
    }
  });

  for (const [name, schema] of Object.entries(roots) as [keyof typeof roots, z.ZodMiniType][]) {
    const check = checkOf[name];
    /**
     * Whatever the predicate accepts, zod parses into an equal value (no default filled, no key dropped). The
     * values are JSON texts decoded, as the SDK only returns values it decoded itself.
     */
    const sound = (input: unknown) => {
      const value: unknown = JSON.parse(JSON.stringify(input));
      if (!check(value)) return false;
      const result = schema.safeParse(structuredClone(value), PARSE_PARAMS);
      expect(result.success, `${name}: ${JSON.stringify(value).slice(0, 200)}`).toBe(true);
      expect(result.data).toStrictEqual(value);
      return true;
    };

    it(`${name}: accept every real recorded input, each parsed by zod into an equal value`, () => {
      const accepted = inputsOf(name).filter(sound);
      // Real servers send every field: none of their events needs a copy.
      expect(accepted.length).toBe(inputsOf(name).length);
    });

    it(`${name}: accept a mutated input only when zod parses it into an equal value`, () => {
      const inputs = fc.sample(mutations(inputsOf(name)), { numRuns: 1500, seed: 23 });
      const accepted = inputs.filter(sound).length;
      // Both answers occur: mutations that keep the value exact, and ones that need the parser.
      expect(accepted).toBeGreaterThan(0);
      expect(accepted).toBeLessThan(inputs.length);
    });
  }

  it('the SDK returns a value it decoded itself when it needs no change, and copies anything a caller passes', () => {
    const input = structuredClone(events.find((event) => event.kind === 'ActionEvent')!);
    const owned = safeParseOwnedEvent(input);
    expect(owned.success && owned.data).toBe(input);
    const given = parseEvent(input);
    expect(given).not.toBe(input);
    expect(given).toStrictEqual(input);
    // A value that needs a default filled in is copied even when the SDK decoded it.
    const { timestamp: _, ...withoutTimestamp } = input;
    const filled = safeParseOwnedEvent(withoutTimestamp);
    expect(filled.success && filled.data).not.toBe(withoutTimestamp);
    expect(filled.success && typeof (filled.data as Json).timestamp).toBe('string');
  });

  it('leave to zod an object with an own `__proto__` key, an array or an object of another prototype where a plain object belongs', () => {
    const event = events.find((e) => e.kind === 'ActionEvent' && typeof e.tool_call === 'object')!;
    const text = JSON.stringify(event);
    expect(identityChecks.lenientEvent!(JSON.parse(text))).toBe(true);
    // JSON.parse makes `"__proto__"` an own key, which zod's parser never copies (the check reads that key, not
    // the prototype), at the top level and in a nested object.
    const ownProto = JSON.parse(`{"__proto__":{"x":1},${text.slice(1)}`);
    expect(Object.hasOwn(ownProto, '__proto__')).toBe(true);
    expect(identityChecks.lenientEvent!(ownProto)).toBe(false);
    const nested = JSON.parse(text.replace('"tool_call":{', '"tool_call":{"__proto__":null,'));
    expect(Object.hasOwn(nested.tool_call, '__proto__')).toBe(true);
    expect(identityChecks.lenientEvent!(nested)).toBe(false);
    expect(
      identityChecks.lenientEvent!({ ...event, tool_call: Object.values(event.tool_call as Json) }),
    ).toBe(false);
    expect(identityChecks.lenientEvent!(Object.setPrototypeOf({ ...event }, null))).toBe(false);
    class Event {}
    expect(identityChecks.lenientEvent!(Object.assign(new Event(), event))).toBe(false);
    // Whatever the predicate left, the parser answers: the own `__proto__` key is not in its output.
    const parsed = safeParseOwnedEvent(ownProto);
    expect(parsed.success && Object.hasOwn(parsed.data, '__proto__')).toBe(false);
  });
});
