import type { RequestOptions } from '../../core/options.js';
import { optionsObject } from '../../core/validate.js';
import { invalid } from '../invalid.js';

/**
 * How the settings and profile reads show stored credentials (the server's `X-Expose-Secrets` header, 1.31.1
 * and later): `encrypted` gives the server's cipher tokens (to send back unchanged; needs the server's
 * `OH_SECRET_KEY`, else 503), `plaintext` the values themselves. Left out, they are masked or null.
 */
export type ExposeSecrets = 'encrypted' | 'plaintext';

/** A call's options plus `exposeSecrets`. */
export interface ExposeSecretsOptions extends RequestOptions {
  exposeSecrets?: ExposeSecrets | undefined;
}

const MODES: readonly unknown[] = ['encrypted', 'plaintext'];

/** The call's options with `exposeSecrets` checked and turned into the header. */
export function exposeSecretsHeader(options: ExposeSecretsOptions | undefined): RequestOptions {
  const { exposeSecrets, ...rest } = optionsObject(options);
  if (exposeSecrets === undefined) return rest;
  // The server lower-cases the header and takes a legacy "true" as `encrypted`: only the two names are sent.
  if (!MODES.includes(exposeSecrets)) {
    throw invalid(
      'options.exposeSecrets',
      `must be 'encrypted' or 'plaintext', got ${JSON.stringify(exposeSecrets)}`,
    );
  }
  return { ...rest, headers: { ...rest.headers, 'X-Expose-Secrets': exposeSecrets } };
}

// The LLM's secret fields (api_key, aws_access_key_id, aws_secret_access_key, aws_session_token), the critic's
// key, and anything named like a credential; MCP servers' `env` and `headers` hold secrets under any name.
const SECRET_KEY = /(^|_)(api_key|token|secret|password|access_key_id|secret_access_key)$/i;
const SECRET_MAPS = new Set(['env', 'headers']);
const MASK = /^\*+$/;

/** Registers every credential an exposed answer carries, so that errors and logs redact it. */
export function registerExposed(
  value: unknown,
  add: (secret: string) => void,
  inMap = false,
  depth = 0,
): void {
  if (depth > 16 || typeof value !== 'object' || value === null) return;
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'string') {
      if ((inMap || SECRET_KEY.test(key)) && item !== '' && !MASK.test(item)) add(item);
    } else {
      registerExposed(item, add, SECRET_MAPS.has(key), depth + 1);
    }
  }
}
