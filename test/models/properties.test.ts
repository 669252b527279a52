/**
 * Property-based tests (fast-check). Valid events are generated from the OpenAPI document's Event schema; random
 * mutations (wrong types, missing fields, extra fields, unknown kinds, nulls, deep garbage) are applied to them.
 */
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isResponseValidationError } from '../../src/core/errors.js';
import {
  getUnknownInfo,
  isKnownEvent,
  isUnknownEvent,
  type ParseMode,
  parseEvent,
  safeParseEvent,
} from '../../src/models/index.js';
import { arbitrary, component, required, unionMembers } from './support/openapi.js';

const validEvent = arbitrary(component('Event')) as fc.Arbitrary<Record<string, unknown>>;
const roundTrip = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/** Every place in a JSON-like value: the path of each object or array field, and of each array item. */
function paths(value: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []) {
  if (typeof value !== 'object' || value === null) return out;
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : Object.entries(value as Record<string, unknown>);
  for (const [key, child] of entries) {
    const path = [...prefix, key];
    out.push(path);
    paths(child, path, out);
  }
  return out;
}

/** A deep copy of `value` with `edit` applied to the parent of `path`. */
function edit(
  value: unknown,
  path: (string | number)[],
  change: (parent: Record<string | number, unknown>, key: string | number) => void,
): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path.at(-1);
  if (last === undefined) return copy;
  change(parent, last);
  return copy;
}

const garbage = fc.anything({
  maxDepth: 3,
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withNullPrototype: true,
  withObjectString: true,
  withSet: true,
  withSparseArray: true,
  withTypedArray: true,
});
const wrongType = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.string(),
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
);

type Mutation =
  | { type: 'replace'; at: number; value: unknown }
  | { type: 'delete'; at: number }
  | { type: 'extra'; at: number; key: string; value: unknown }
  | { type: 'kind'; at: number; kind: string }
  | { type: 'null'; at: number }
  | { type: 'garbage'; at: number; value: unknown };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ type: fc.constant('replace' as const), at: fc.nat(), value: wrongType }),
  fc.record({ type: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({
    type: fc.constant('extra' as const),
    at: fc.nat(),
    key: fc.string({ maxLength: 10 }),
    value: fc.jsonValue({ maxDepth: 2 }),
  }),
  fc.record({ type: fc.constant('kind' as const), at: fc.nat(), kind: fc.string({ maxLength: 20 }) }),
  fc.record({ type: fc.constant('null' as const), at: fc.nat() }),
  fc.record({ type: fc.constant('garbage' as const), at: fc.nat(), value: garbage }),
);

function mutate(event: Record<string, unknown>, m: Mutation): unknown {
  const all = paths(event);
  if (m.type === 'kind') {
    const kinded = [[], ...all].filter((p) => {
      let node: unknown = event;
      for (const key of p) node = (node as Record<string | number, unknown>)[key];
      return typeof node === 'object' && node !== null && 'kind' in node;
    });
    const target = kinded[m.at % kinded.length] ?? [];
    return edit(event, [...target, 'kind'], (parent, key) => {
      parent[key] = m.kind;
    });
  }
  if (m.type === 'extra') {
    const objects = [[], ...all].filter((p) => {
      let node: unknown = event;
      for (const key of p) node = (node as Record<string | number, unknown>)[key];
      return typeof node === 'object' && node !== null && !Array.isArray(node);
    });
    const target = objects[m.at % objects.length] ?? [];
    return edit(event, [...target, m.key], (parent, key) => {
      Object.defineProperty(parent, key, {
        value: m.value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    });
  }
  const path = all[m.at % all.length];
  if (!path) return event;
  return edit(event, path, (parent, key) => {
    if (m.type === 'delete') {
      if (Array.isArray(parent) && typeof key === 'number') parent.splice(key, 1);
      else delete parent[key];
    } else if (m.type === 'null') parent[key] = null;
    else parent[key] = m.value;
  });
}

/** Runs `fn` and returns what it threw (undefined when it returned). */
function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
    return undefined;
  } catch (error) {
    return error ?? new Error('threw a nullish value');
  }
}

const hasStringKind = (value: unknown) =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  typeof (value as { kind?: unknown }).kind === 'string';

describe('generated valid events', () => {
  it('round-trip: parse (strict) → JSON → parse (strict) gives the same event', () => {
    fc.assert(
      fc.property(validEvent, (input) => {
        const first = parseEvent(input, { mode: 'strict' });
        const again = parseEvent(JSON.stringify(first), { mode: 'strict' });
        expect(roundTrip(again)).toEqual(roundTrip(first));
      }),
      { numRuns: 300 },
    );
  });

  it('lenient and strict parse a valid event to the same value', () => {
    fc.assert(
      fc.property(validEvent, (input) => {
        // `id` and `timestamp` are generated when absent: compare the rest.
        const comparable = (event: unknown) => {
          const copy = roundTrip(event) as Record<string, unknown>;
          if (!('id' in input)) delete copy.id;
          if (!('timestamp' in input)) delete copy.timestamp;
          return copy;
        };
        const lenient = parseEvent(input);
        expect(isKnownEvent(lenient)).toBe(true);
        expect(comparable(lenient)).toEqual(comparable(parseEvent(input, { mode: 'strict' })));
      }),
      { numRuns: 300 },
    );
  });

  it('lenient: a null in any optional top-level field still gives a known event', () => {
    const withNulledOptional = fc
      .constantFrom(...unionMembers('Event'))
      .chain((member) =>
        fc.tuple(
          arbitrary(member.schema) as fc.Arbitrary<Record<string, unknown>>,
          fc.constant(member),
          fc.nat(),
        ),
      );
    fc.assert(
      fc.property(withNulledOptional, ([event, member, at]) => {
        const optional = Object.keys(member.schema.properties as object).filter(
          (k) => !required(member.schema).includes(k),
        );
        const key = optional[at % optional.length];
        if (key === undefined) return;
        const parsed = parseEvent({ ...event, [key]: null });
        expect(isKnownEvent(parsed)).toBe(true);
        expect(getUnknownInfo(parsed)).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });
});

describe('mutated events', () => {
  it.each(['strict', 'lenient'] as ParseMode[])(
    '%s: safeParseEvent never throws, parseEvent throws nothing but ResponseValidationError',
    (mode) => {
      const outcomes = { rejected: 0, accepted: 0 };
      fc.assert(
        fc.property(validEvent, mutation, fc.boolean(), (event, m, asText) => {
          const mutated = mutate(event, m);
          let input: unknown = mutated;
          if (asText) {
            const text = thrownBy(() => JSON.stringify(mutated)) ? undefined : JSON.stringify(mutated);
            if (text !== undefined) input = text;
          }
          expect(thrownBy(() => safeParseEvent(input, { mode }))).toBeUndefined();
          const error = thrownBy(() => parseEvent(input, { mode }));
          if (error !== undefined) expect(isResponseValidationError(error)).toBe(true);
          const known = error === undefined && isKnownEvent(parseEvent(input, { mode }));
          outcomes[known ? 'accepted' : 'rejected']++;
        }),
        { numRuns: 1000 },
      );
      // The mutations exercise both outcomes (a property that never rejects would prove nothing).
      expect(outcomes.rejected).toBeGreaterThan(50);
      expect(outcomes.accepted).toBeGreaterThan(50);
    },
  );

  it('lenient: never throws for an object with a string kind; the result keeps that kind', () => {
    fc.assert(
      fc.property(validEvent, mutation, (event, m) => {
        const mutated = mutate(event, m);
        if (!hasStringKind(mutated)) return;
        const result = parseEvent(mutated);
        expect(result.kind).toBe((mutated as { kind: string }).kind);
        expect(isKnownEvent(result) !== isUnknownEvent(result)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('lenient: an unknown event keeps every field of the input', () => {
    fc.assert(
      fc.property(validEvent, fc.string({ minLength: 1, maxLength: 20 }), (event, kind) => {
        fc.pre(!unionMembers('Event').some((m) => m.kind === kind));
        const input = { ...event, kind };
        const result = parseEvent(input);
        expect(isUnknownEvent(result)).toBe(true);
        expect(result).toEqual(input);
      }),
      { numRuns: 200 },
    );
  });

  it('strict: any extra top-level field is rejected', () => {
    fc.assert(
      fc.property(
        validEvent,
        fc.string({ minLength: 1, maxLength: 10 }),
        fc.jsonValue(),
        (event, key, value) => {
          fc.pre(!(key in event) && key !== '__proto__');
          const result = safeParseEvent({ ...event, [key]: value }, { mode: 'strict' });
          expect(result.success).toBe(false);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('deep garbage at the top level never throws anything but ResponseValidationError', () => {
    fc.assert(
      fc.property(garbage, (value) => {
        for (const mode of ['strict', 'lenient'] as const) {
          const error = thrownBy(() => parseEvent(value, { mode }));
          if (error !== undefined) expect(isResponseValidationError(error)).toBe(true);
          if (mode === 'lenient' && hasStringKind(value)) expect(error).toBeUndefined();
        }
      }),
      { numRuns: 500 },
    );
  });
});
