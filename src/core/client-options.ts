import { RequestValidationError } from './errors.js';
import { type ClientOptions, readEnv } from './options.js';
import { describe, isPlainObject } from './validate.js';

/** For each option a client can take from the environment, the variable it reads. `baseUrl` always. */
export type EnvDefaults<T> = { baseUrl: string } & Partial<Record<keyof T & string, string>>;

/**
 * The options a client constructor was given, checked and completed, before anything else runs: no argument
 * means `{}`; anything but a plain object is a `RequestValidationError` naming `options` (never a bare
 * `TypeError` later); every option left `undefined` is read from its environment variable unless
 * `env: false` (in Node; browsers have no environment); a `baseUrl` still missing is a
 * `RequestValidationError` naming `baseUrl` and its variable. The same policy for every client
 * (docs/getting-started.md).
 */
export function resolveClientOptions<T extends ClientOptions>(
  options: T | undefined,
  envDefaults: EnvDefaults<T>,
): T & { baseUrl: string } {
  const given: unknown = options ?? {};
  if (!isPlainObject(given)) {
    throw new RequestValidationError(`must be an options object, got ${describe(given)}`, 'options');
  }
  const resolved: Record<string, unknown> = { ...given };
  if (given.env !== undefined && typeof given.env !== 'boolean') {
    throw new RequestValidationError(`must be a boolean, got ${describe(given.env)}`, 'env');
  }
  if (given.env !== false) {
    for (const [option, variable] of Object.entries(envDefaults)) {
      if (resolved[option] === undefined && variable !== undefined) resolved[option] = readEnv(variable);
    }
  }
  if (resolved.baseUrl === undefined) {
    const hint = given.env === false ? 'pass baseUrl' : `pass baseUrl or set ${envDefaults.baseUrl}`;
    throw new RequestValidationError(`is required: ${hint}`, 'baseUrl');
  }
  return resolved as unknown as T & { baseUrl: string };
}
