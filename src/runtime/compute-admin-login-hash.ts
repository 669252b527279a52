import { pbkdf2Async } from '@noble/hashes/pbkdf2.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { RequestValidationError } from '../core/errors.js';

/**
 * Which PBKDF2 implementation computes the hash. `auto` (the default) uses WebCrypto when the platform has
 * it (Node, Deno, Bun, browsers in a secure context) and @noble/hashes otherwise (browsers on plain http).
 */
export type Pbkdf2Engine = 'auto' | 'webcrypto' | 'js';

export interface ComputeAdminLoginHashOptions {
  engine?: Pbkdf2Engine;
}

/** Derived key length of the admin login (spec 5.3): 32 bytes, 64 hex digits. */
const DERIVED_KEY_BYTES = 32;

/**
 * The `hash` of `POST /api/admin/login` (spec 5.3): lowercase hex of PBKDF2-HMAC-SHA256 over the UTF-8
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
  const engine = options.engine ?? 'auto';
  const passwordBytes = utf8(password);
  const saltBytes = utf8(salt + challenge);
  const subtle = webCrypto();
  if (engine === 'webcrypto' && !subtle) {
    throw new RequestValidationError('WebCrypto (crypto.subtle) is not available here', 'engine');
  }
  if (engine !== 'js' && subtle) {
    try {
      return toHex(await deriveWithWebCrypto(subtle, passwordBytes, saltBytes, iterations));
    } catch (error) {
      // A WebCrypto that lacks PBKDF2 (or refuses these parameters) falls back to JS under `auto`.
      if (engine === 'webcrypto' || !isNotSupported(error)) throw error;
    }
  }
  const key = await pbkdf2Async(sha256, passwordBytes, saltBytes, {
    c: iterations,
    dkLen: DERIVED_KEY_BYTES,
  });
  return toHex(key);
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
