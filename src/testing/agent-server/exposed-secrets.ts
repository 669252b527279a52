import { detail } from './double-context.js';

/** What `X-Expose-Secrets` asks for, as the real server parses it (`_secrets_exposure.py`, 1.31.1 and later). */
export type ExposeMode = 'encrypted' | 'plaintext' | null;

/**
 * The mode, or the 400 the real server answers for any other value. It lower-cases and trims the header and
 * takes the legacy `true` as `encrypted`.
 */
export function exposeMode(request: Request): ExposeMode | Response {
  const value = (request.headers.get('x-expose-secrets') ?? '').toLowerCase().trim();
  if (value === '') return null;
  if (value === 'true' || value === 'encrypted') return 'encrypted';
  if (value === 'plaintext') return 'plaintext';
  return detail(
    400,
    `Invalid X-Expose-Secrets header value: '${value}'. Valid values are: 'encrypted', 'plaintext'.`,
  );
}

/**
 * The double's stand-in for the server's Fernet cipher: tokens start like Fernet's (`gAAAAA`) and carry no
 * trace of the value; the value is kept here, so that a token sent back is read as the value (the real
 * server decrypts tokens posted back to it).
 */
export class SimulatedCipher {
  readonly #values = new Map<string, string>();

  encrypt(value: string): string {
    const bytes = crypto.getRandomValues(new Uint8Array(48));
    const token = `gAAAAA${btoa(String.fromCharCode(...bytes))
      .replaceAll('+', '-')
      .replaceAll('/', '_')}`;
    this.#values.set(token, value);
    return token;
  }

  /** The value behind a token this cipher made; anything else unchanged. */
  decrypt(value: string): string {
    return this.#values.get(value) ?? value;
  }
}
