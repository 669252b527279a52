import { pbkdf2Sync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isRequestValidationError } from '../../src/core/errors.js';
import { computeAdminLoginHash, hasWebCryptoPbkdf2 } from '../../src/runtime/index.js';

interface Vector {
  password: string;
  salt: string;
  challenge: string;
  iterations: number;
  hash: string;
  WRONG_hash_if_salt_hex_decoded: string | null;
}
const { vectors } = JSON.parse(
  readFileSync(
    new URL('../fixtures/gateway-runtime-tracing/pbkdf2-admin-login-vectors.json', import.meta.url),
    'utf8',
  ),
) as { vectors: Vector[] };

const nodeHash = (password: string, salt: string, challenge: string, iterations: number) =>
  pbkdf2Sync(
    Buffer.from(password, 'utf8'),
    Buffer.from(salt + challenge, 'utf8'),
    iterations,
    32,
    'sha256',
  ).toString('hex');

describe('computeAdminLoginHash: the fixture vectors', () => {
  it('has the seven vectors', () => {
    expect(vectors).toHaveLength(7);
  });

  for (const engine of ['auto', 'webcrypto', 'js'] as const) {
    it.each(vectors)(`${engine}: $password / $salt / $challenge / $iterations`, async (vector) => {
      const hash = await computeAdminLoginHash(
        vector.password,
        vector.salt,
        vector.challenge,
        vector.iterations,
        {
          engine,
        },
      );
      expect(hash).toBe(vector.hash);
      expect(hash).toMatch(/^[0-9a-f]{64}$/);
      if (vector.WRONG_hash_if_salt_hex_decoded) expect(hash).not.toBe(vector.WRONG_hash_if_salt_hex_decoded);
    });
  }

  it('uses WebCrypto on Node', () => {
    expect(hasWebCryptoPbkdf2()).toBe(true);
  });

  it('salt then challenge, as text: swapping them changes the hash', async () => {
    const ab = await computeAdminLoginHash('pw', 'AB', 'CD', 10_000);
    const cd = await computeAdminLoginHash('pw', 'CD', 'AB', 10_000);
    expect(ab).toBe('43974f5f9b31a3d996a153e5d5869e4f47bb53dadae2fcaea441f73dc98475ec');
    expect(cd).toBe('b9de15dfd8f409c161bc9749f8c237d6182f0c4c560468119dadda4e691d131c');
  });
});

describe('computeAdminLoginHash: WebCrypto and pure JS agree with node:crypto', () => {
  // Any Unicode text, astral planes included (surrogate pairs), plus the empty string.
  const text = fc.string({ unit: 'binary', maxLength: 40 });
  const hexText = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 0, maxLength: 32 });

  it('on random inputs (unicode passwords, any salt and challenge text)', async () => {
    await fc.assert(
      fc.asyncProperty(
        text,
        fc.oneof(hexText, text),
        fc.oneof(hexText, text),
        fc.integer({ min: 1, max: 300 }),
        async (password, salt, challenge, iterations) => {
          const expected = nodeHash(password, salt, challenge, iterations);
          const web = await computeAdminLoginHash(password, salt, challenge, iterations, {
            engine: 'webcrypto',
          });
          const js = await computeAdminLoginHash(password, salt, challenge, iterations, { engine: 'js' });
          expect(web).toBe(expected);
          expect(js).toBe(expected);
        },
      ),
      { numRuns: 150 },
    );
  });

  it.each([
    ['pässwörd', '00ff', 'a1b2'],
    ['密码🔑', 'f00d', 'beef'],
    ['👩‍👩‍👧‍👦 family', '', ''],
    ['e\u0301', 'é', 'e\u0301'],
    ['', 'abc', 'def'],
    ['x'.repeat(200), 'long', 'password: longer than the HMAC block'],
    // A lone surrogate is not valid UTF-16: every path encodes it as U+FFFD, as node:crypto does.
    ['\uD800lone', 'ab', 'cd'],
  ])('on %j', async (password, salt, challenge) => {
    const expected = nodeHash(password, salt, challenge, 2_000);
    expect(await computeAdminLoginHash(password, salt, challenge, 2_000, { engine: 'webcrypto' })).toBe(
      expected,
    );
    expect(await computeAdminLoginHash(password, salt, challenge, 2_000, { engine: 'js' })).toBe(expected);
  });

  it('falls back to pure JS where crypto.subtle is missing (browsers outside a secure context)', async () => {
    const original = Object.getOwnPropertyDescriptor(globalThis, 'crypto')!;
    Object.defineProperty(globalThis, 'crypto', { value: {}, configurable: true });
    try {
      expect(hasWebCryptoPbkdf2()).toBe(false);
      expect(await computeAdminLoginHash('hunter2', 'salt-value', 'challenge-value', 1000)).toBe(
        vectors[0]!.hash,
      );
      const error = await computeAdminLoginHash('pw', 's', 'c', 1, { engine: 'webcrypto' }).catch(
        (e: unknown) => e,
      );
      expect(isRequestValidationError(error)).toBe(true);
    } finally {
      Object.defineProperty(globalThis, 'crypto', original);
    }
  });
});

describe('computeAdminLoginHash: bad input', () => {
  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '1000'])(
    'rejects iterations %j',
    async (iterations) => {
      const error = await computeAdminLoginHash('pw', 's', 'c', iterations as number).catch(
        (e: unknown) => e,
      );
      expect(isRequestValidationError(error)).toBe(true);
      expect((error as Error).message).toContain('iterations');
    },
  );

  it('rejects a password that is not a string', async () => {
    const error = await computeAdminLoginHash(undefined as unknown as string, 's', 'c', 1).catch(
      (e: unknown) => e,
    );
    expect(isRequestValidationError(error)).toBe(true);
    expect((error as Error).message).toContain('password');
  });
});
