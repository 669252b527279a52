import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REDACTED, redactText, redactValue } from '../../src/core/redact.js';

const KB = 1024;

/**
 * How much slower one text of `factor` times the length is than `factor` texts of one length: about 1 for
 * linear work, about `factor` for quadratic. Both sides do the same amount of linear work, so they take about
 * as long and a busy machine slows both alike; they alternate, and the fastest of each counts, so a pause
 * that hits one run cannot decide the figure (issue 31: no unit test depends on how fast the machine is).
 */
function costRatio(large: () => void, smalls: () => void, rounds = 7): number {
  large();
  smalls();
  let bestLarge = Number.POSITIVE_INFINITY;
  let bestSmalls = Number.POSITIVE_INFINITY;
  for (let i = 0; i < rounds; i++) {
    let started = performance.now();
    large();
    bestLarge = Math.min(bestLarge, performance.now() - started);
    started = performance.now();
    smalls();
    bestSmalls = Math.min(bestSmalls, performance.now() - started);
  }
  return bestLarge / Math.max(bestSmalls, 0.05);
}

/** Texts that made a backtracking pattern quadratic: many starts of a JWT, none of them complete. */
const ADVERSARIAL: Record<string, (bytes: number) => string> = {
  'eyJ repeated': (n) => 'eyJ'.repeat(Math.ceil(n / 3)),
  'headers without a payload': (n) => 'eyJaaaaa.'.repeat(Math.ceil(n / 9)),
  'header and payload without a signature dot': (n) => 'eyJaaaa.bbbb-'.repeat(Math.ceil(n / 13)),
  'one long header': (n) => `eyJ${'a'.repeat(n)}`,
  'Bearer with spaces': (n) => `Bearer${' '.repeat(n)}x`,
  'Bearer repeated': (n) => 'Bearer  abc '.repeat(Math.ceil(n / 12)),
};

describe('redaction in linear time', () => {
  // 32 times the length: quadratic work would cost about 32 times more, linear about the same. The bar sits
  // 4 times above linear and 4 times below quadratic.
  const FACTOR = 32;
  for (const [name, make] of Object.entries(ADVERSARIAL)) {
    it(`${name}: one text of 256 KB costs about what 32 texts of 8 KB cost, not 32 times more`, () => {
      const small = make(8 * KB);
      const large = make(FACTOR * 8 * KB);
      const secrets = ['planted-secret-value-0001'];
      const ratio = costRatio(
        () => redactText(large, secrets),
        () => {
          for (let i = 0; i < FACTOR; i++) redactText(small, secrets);
        },
      );
      expect(ratio).toBeLessThan(8);
    });
  }

  it('masks the same JWTs as the shape eyJ…{4,}.…{4,}.… (differential, property)', () => {
    const jwtShape = /eyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*/g;
    const alphabet = fc.constantFrom('e', 'y', 'J', 'a', 'Z', '0', '_', '-', '.', ' ', '"');
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 60 }).map((chars) => chars.join('')),
        (text) => {
          expect(redactText(text)).toBe(text.replace(jwtShape, REDACTED));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

const base64url = fc.string({
  unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'),
  minLength: 4,
  maxLength: 40,
});
const separator = fc.string({
  unit: fc.constantFrom(' ', '"', ',', ':', '\n', '{', '}', '(', '/'),
  minLength: 1,
  maxLength: 3,
});
const anyText = fc.string({ maxLength: 80 });

describe('redaction still masks planted secrets (properties)', () => {
  it('a known secret anywhere in any text', () => {
    const secret = fc.string({
      unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'),
      minLength: 8,
      maxLength: 40,
    });
    fc.assert(
      fc.property(anyText, secret, anyText, (before, value, after) => {
        expect(redactText(`${before}${value}${after}`, [value])).not.toContain(value);
      }),
      { numRuns: 500 },
    );
  });

  it('a known secret in its JSON-escaped and URL-encoded forms', () => {
    const secret = fc.string({ unit: fc.constantFrom(...'ab"/\\é€ 12+&=?'), minLength: 6, maxLength: 24 });
    fc.assert(
      fc.property(secret, anyText, (value, noise) => {
        const json = JSON.stringify({ detail: `${noise} ${value}` });
        const pythonJson = json.replace(
          /[\u0080-\uffff]/g,
          (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
        );
        const url = `https://x.test/?q=${encodeURIComponent(value)}`;
        for (const text of [json, json.replaceAll('/', '\\/'), pythonJson, url]) {
          const out = redactText(text, [value]);
          expect(out).not.toContain(value);
          expect(out).not.toContain(JSON.stringify(value).slice(1, -1));
          expect(out).not.toContain(encodeURIComponent(value));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('any JWT-shaped token between separators, with no secret known', () => {
    fc.assert(
      fc.property(
        anyText,
        separator,
        base64url,
        base64url,
        base64url,
        separator,
        anyText,
        (a, s1, h, p, sig, s2, b) => {
          const jwt = `eyJ${h}.${p}.${sig}`;
          const out = redactText(`${a}${s1}${jwt}${s2}${b}`);
          expect(out).not.toContain(jwt);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('secret JSON keys at any depth of a value', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('password', 'token', 'key_value', 'encrypted_content', 'master_key'),
        fc.string({ minLength: 1, maxLength: 30 }),
        fc.nat({ max: 6 }),
        (key, value, depth) => {
          let nested: unknown = { [key]: value };
          for (let i = 0; i < depth; i++) nested = { level: [nested] };
          expect(JSON.stringify(redactValue(nested))).toContain(`"${key}":"${REDACTED}"`);
        },
      ),
      { numRuns: 300 },
    );
  });
});
