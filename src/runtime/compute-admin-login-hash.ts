import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { APIUserAbortError, RequestValidationError } from '../core/errors.js';
import { Pbkdf2IterationsError } from './errors.js';

/**
 * Which PBKDF2 implementation computes the hash. `auto` (the default) uses WebCrypto when the platform has
 * it (Node, Deno, Bun, browsers in a secure context) and @noble/hashes otherwise (browsers on plain http).
 */
export type Pbkdf2Engine = 'auto' | 'webcrypto' | 'js';

export interface ComputeAdminLoginHashOptions {
  engine?: Pbkdf2Engine;
  /**
   * Refuse (with `Pbkdf2IterationsError`, before any work) a challenge asking for more rounds than this.
   * The count comes from the server; an unbounded one would burn a core for minutes. Default 10 000 000.
   */
  maxIterations?: number;
  /**
   * Stops the hash: the `js` engine stops between blocks of rounds; WebCrypto cannot be interrupted, so the
   * call returns at once with `APIUserAbortError` while the native derivation (bounded by `maxIterations`)
   * finishes off the main thread and is discarded.
   */
  signal?: AbortSignal;
}

/** Default ceiling on the PBKDF2 rounds a challenge may ask for. */
export const DEFAULT_MAX_PBKDF2_ITERATIONS = 10_000_000;

/** Derived key length of the admin login: 32 bytes, 64 hex digits. */
const DERIVED_KEY_BYTES = 32;

/**
 * The `hash` of `POST /api/admin/login`: lowercase hex of PBKDF2-HMAC-SHA256 over the UTF-8
 * password, with the UTF-8 bytes of the salt *text* followed by the challenge *text* as salt (the hex salt is
 * not decoded), `iterations` rounds and a 32-byte key.
 *
 * WebCrypto runs the rounds natively and off the main thread (6 to 8 times faster than pure JS); without
 * `crypto.subtle` (browsers outside a secure context) the @noble/hashes `pbkdf2Async` fallback yields to the
 * event loop between blocks of rounds, so pages stay responsive.
 */
export async function computeAdminLoginHash(
  password: string,
  salt: string,
  challenge: string,
  iterations: number,
  options: ComputeAdminLoginHashOptions = {},
): Promise<string> {
  checkInputs(password, salt, challenge, iterations);
  const limit = options.maxIterations ?? DEFAULT_MAX_PBKDF2_ITERATIONS;
  if (!(typeof limit === 'number' && Number.isSafeInteger(limit) && limit >= 1)) {
    throw new RequestValidationError('must be a positive integer', 'maxIterations');
  }
  if (iterations > limit) throw new Pbkdf2IterationsError(iterations, limit);
  const { signal } = options;
  throwIfAborted(signal);
  const engine = options.engine ?? 'auto';
  const passwordBytes = utf8(password);
  const saltBytes = utf8(salt + challenge);
  const subtle = webCrypto();
  if (engine === 'webcrypto' && !subtle) {
    throw new RequestValidationError('WebCrypto (crypto.subtle) is not available here', 'engine');
  }
  if (engine !== 'js' && subtle) {
    try {
      return toHex(
        await abortable(deriveWithWebCrypto(subtle, passwordBytes, saltBytes, iterations), signal),
      );
    } catch (error) {
      // A WebCrypto that lacks PBKDF2 (or refuses these parameters) falls back to JS under `auto`.
      if (engine === 'webcrypto' || !isNotSupported(error)) throw error;
    }
  }
  return toHex(await pbkdf2Sha256Js(passwordBytes, saltBytes, iterations, signal));
}

/**
 * PBKDF2-HMAC-SHA256 for one 32-byte block (RFC 8018 §5.2: T1 = U1 ^ … ^ Uc), on @noble/hashes' HMAC.
 * Yields to the event loop every ~10 ms and stops there when `signal` aborts.
 */
async function pbkdf2Sha256Js(
  password: Uint8Array,
  salt: Uint8Array,
  iterations: number,
  signal: AbortSignal | undefined,
): Promise<Uint8Array> {
  const prf = hmac.create(sha256, password);
  const u = new Uint8Array(DERIVED_KEY_BYTES);
  // U1 = PRF(password, salt || INT_32_BE(1))
  prf
    ._cloneInto()
    .update(salt)
    .update(Uint8Array.of(0, 0, 0, 1))
    .digestInto(u);
  const t = u.slice();
  const work = prf._cloneInto();
  let lastYield = Date.now();
  for (let round = 1; round < iterations; round++) {
    prf._cloneInto(work).update(u).digestInto(u);
    for (let i = 0; i < DERIVED_KEY_BYTES; i++) t[i] = (t[i] as number) ^ (u[i] as number);
    if ((round & 1023) === 0 && Date.now() - lastYield >= 10) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      throwIfAborted(signal);
      lastYield = Date.now();
    }
  }
  work.destroy();
  prf.destroy();
  return t;
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted)
    throw new APIUserAbortError('The admin login hash was aborted', { cause: signal.reason });
}

/** `work`, or `APIUserAbortError` as soon as `signal` aborts (the work itself is left to finish). */
function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      reject(new APIUserAbortError('The admin login hash was aborted', { cause: signal.reason }));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** True when `computeAdminLoginHash` would use WebCrypto under `auto`. */
export function hasWebCryptoPbkdf2(): boolean {
  return webCrypto() !== undefined;
}

async function deriveWithWebCrypto(
  subtle: SubtleCrypto,
  password: Uint8Array<ArrayBuffer>,
  salt: Uint8Array<ArrayBuffer>,
  iterations: number,
): Promise<Uint8Array> {
  const key = await subtle.importKey('raw', password, 'PBKDF2', false, ['deriveBits']);
  const bits = await subtle.deriveBits(
    { name: 'PBKDF2', hash: 'SHA-256', salt, iterations },
    key,
    DERIVED_KEY_BYTES * 8,
  );
  return new Uint8Array(bits);
}

function webCrypto(): SubtleCrypto | undefined {
  const subtle = (globalThis as { crypto?: { subtle?: SubtleCrypto } }).crypto?.subtle;
  return subtle && typeof subtle.deriveBits === 'function' ? subtle : undefined;
}

function isNotSupported(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'NotSupportedError' || name === 'OperationError';
}

function checkInputs(password: unknown, salt: unknown, challenge: unknown, iterations: unknown): void {
  const issues = [];
  for (const [field, value] of [
    ['password', password],
    ['salt', salt],
    ['challenge', challenge],
  ] as const) {
    if (typeof value !== 'string')
      issues.push({ path: [field], message: `must be a string, got ${typeof value}` });
  }
  if (typeof iterations !== 'number' || !Number.isSafeInteger(iterations) || iterations < 1) {
    // Unsafe integers and non-integers are refused here; a safe but huge count meets `maxIterations`.
    issues.push({ path: ['iterations'], message: `must be a positive integer, got ${String(iterations)}` });
  }
  if (issues.length > 0) throw new RequestValidationError(issues);
}

function utf8(text: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(text) as Uint8Array<ArrayBuffer>;
}

function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}
