import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isRequestValidationError, type RequestValidationError } from '../../src/core/errors.js';
import {
  applyTagsPatch,
  MAX_TAG_VALUE_LENGTH,
  validateConversationTags,
  validateConversationTagsPatch,
} from '../../src/platform/index.js';
import { neutral, readJsonFixture } from '../gateway/fixtures.js';

const documented = (
  neutral(readJsonFixture('ohe-request-bodies.ohe-docs.json')) as {
    conversation_tags_patch_body: { tags: Record<string, string> };
  }
).conversation_tags_patch_body.tags;

function rejection(tags: unknown): RequestValidationError {
  try {
    validateConversationTags(tags);
  } catch (error) {
    expect(isRequestValidationError(error)).toBe(true);
    return error as RequestValidationError;
  }
  throw new Error(`expected ${JSON.stringify(tags)} to be rejected`);
}

const badKeys = (tags: unknown) => rejection(tags).issues.map((i) => i.path[1]);

describe('validateConversationTags — good maps', () => {
  it.each([
    [{}],
    [documented],
    [{ a: '' }],
    [{ costcenter: 'x'.repeat(256) }],
    [{ k1: 'v', '2': 'digits only', abc123: 'Mixed Case and spaces, punctuation: ok!' }],
    [{ team: '🙂'.repeat(256) }],
    [{ unicode: 'é'.repeat(256) }],
    [{ json: '{"nested":"but a string"}' }],
  ])('accepts %j', (tags) => {
    expect(validateConversationTags(tags)).toEqual(tags);
  });

  it('returns a copy', () => {
    const tags = { a: '1' };
    const copy = validateConversationTags(tags);
    expect(copy).not.toBe(tags);
  });

  it('counts characters as the server does (code points): 256 emoji pass, 257 fail', () => {
    expect(() => validateConversationTags({ a: '😀'.repeat(256) })).not.toThrow();
    expect(badKeys({ a: '😀'.repeat(257) })).toEqual(['a']);
  });
});

describe('validateConversationTags — bad maps', () => {
  it.each<[string, Record<string, unknown>, string[]]>([
    ['uppercase key', { CostCenter: 'x' }, ['CostCenter']],
    ['underscore', { cost_center: 'x' }, ['cost_center']],
    ['hyphen', { 'cost-center': 'x' }, ['cost-center']],
    ['dot', { 'cost.center': 'x' }, ['cost.center']],
    ['space', { 'cost center': 'x' }, ['cost center']],
    ['empty key', { '': 'x' }, ['']],
    ['accented key', { café: 'x' }, ['café']],
    ['value of 257 characters', { a: 'x'.repeat(257) }, ['a']],
    ['number value', { a: 1 }, ['a']],
    ['null value', { a: null }, ['a']],
    ['object value', { a: { b: 'c' } }, ['a']],
    ['array value', { a: ['b'] }, ['a']],
    ['boolean value', { a: true }, ['a']],
    ['several bad keys', { Good: 'x', ok: 'y', 'b-ad': 1, c: 'z'.repeat(300) }, ['Good', 'b-ad', 'c']],
  ])('%s names every bad key', (_label, tags, keys) => {
    expect([...new Set(badKeys(tags))]).toEqual(keys);
    const message = rejection(tags).message;
    for (const key of keys) expect(message).toContain(`tags.${key}`);
  });

  it('a bad key with a bad value is reported for both', () => {
    expect(rejection({ BAD: 5 }).issues.map((i) => i.message)).toEqual([
      expect.stringMatching(/lowercase alphanumeric/),
      expect.stringMatching(/must be a string/),
    ]);
  });

  it.each([[null], [undefined], ['a=b'], [['a']], [42]])('rejects %j as a map', (tags) => {
    expect(rejection(tags).issues[0]!.path).toEqual(['tags']);
  });

  it('a long bad key is shortened in the message', () => {
    const key = `X${'a'.repeat(200)}`;
    expect(rejection({ [key]: 'v' }).issues[0]!.message.length).toBeLessThan(150);
  });
});

describe('validateConversationTags — properties', () => {
  const goodKey = fc.stringMatching(/^[a-z0-9]{1,20}$/);
  const goodValue = fc
    .string({ unit: 'grapheme-composite', maxLength: MAX_TAG_VALUE_LENGTH })
    .filter((v) => [...v].length <= MAX_TAG_VALUE_LENGTH);

  it('every map of lowercase alphanumeric keys to values of at most 256 characters passes', () => {
    fc.assert(
      fc.property(fc.dictionary(goodKey, goodValue), (tags) => {
        expect(validateConversationTags(tags)).toEqual(tags);
      }),
    );
  });

  it('any key with a character outside [a-z0-9] fails, and only that key is named', () => {
    const badKey = fc
      .tuple(
        fc.stringMatching(/^[a-z0-9]{0,5}$/),
        fc.string({ minLength: 1, maxLength: 3 }),
        fc.stringMatching(/^[a-z0-9]{0,5}$/),
      )
      .map(([a, b, c]) => a + b + c)
      .filter((k) => !/^[a-z0-9]+$/.test(k));
    fc.assert(
      fc.property(fc.dictionary(goodKey, goodValue), badKey, goodValue, (tags, key, value) => {
        fc.pre(!(key in tags));
        expect(badKeys({ ...tags, [key]: value })).toEqual([key]);
      }),
    );
  });

  it('any value longer than 256 characters fails', () => {
    fc.assert(
      fc.property(
        goodKey,
        fc.integer({ min: 257, max: 600 }),
        fc.constantFrom('a', 'é', '😀', '字'),
        (key, n, ch) => {
          expect(badKeys({ [key]: ch.repeat(n) })).toEqual([key]);
        },
      ),
    );
  });

  it('the set of named keys is exactly the set of bad entries', () => {
    const anyKey = fc.oneof(goodKey, fc.string({ maxLength: 6 }));
    const anyValue = fc.oneof(
      goodValue,
      fc.integer(),
      fc.constant(null),
      fc.string({ minLength: 257, maxLength: 300 }),
    );
    fc.assert(
      fc.property(fc.dictionary(anyKey, anyValue), (tags) => {
        const expected = Object.entries(tags)
          .filter(([k, v]) => !/^[a-z0-9]+$/.test(k) || typeof v !== 'string' || [...v].length > 256)
          .map(([k]) => k);
        if (expected.length === 0) expect(validateConversationTags(tags)).toEqual(tags);
        else expect([...new Set(badKeys(tags))]).toEqual(expected);
      }),
    );
  });
});

describe('applyTagsPatch — tags replace the whole map, so merge before writing', () => {
  it('sets, overrides and removes', () => {
    expect(applyTagsPatch({ a: '1', b: '2', c: '3' }, { b: 'two', c: null, d: '4' })).toEqual({
      a: '1',
      b: 'two',
      d: '4',
    });
  });

  it('does not change its inputs', () => {
    const current = { a: '1' };
    applyTagsPatch(current, { a: null });
    expect(current).toEqual({ a: '1' });
  });

  it('the patch validator allows null and names bad keys', () => {
    expect(validateConversationTagsPatch({ a: null, b: 'x' })).toEqual({ a: null, b: 'x' });
    expect(() => validateConversationTagsPatch({ A: null })).toThrow(/tags\.A/);
  });

  it('keys of the result are current ∪ set keys − removed keys (property)', () => {
    const key = fc.stringMatching(/^[a-z0-9]{1,4}$/);
    fc.assert(
      fc.property(
        fc.dictionary(key, fc.string()),
        fc.dictionary(key, fc.option(fc.string(), { nil: null })),
        (current, patch) => {
          const merged = applyTagsPatch(current, patch);
          for (const k of new Set([...Object.keys(current), ...Object.keys(patch)])) {
            if (k in patch) expect(merged[k]).toBe(patch[k] === null ? undefined : patch[k]);
            else expect(merged[k]).toBe(current[k]);
          }
          expect(Object.keys(merged).every((k) => k in current || patch[k] !== null)).toBe(true);
        },
      ),
    );
  });
});
