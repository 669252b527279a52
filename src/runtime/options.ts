// The options of `RuntimeAdminClient` and of its calls, the environment variables it reads for options left
// out, their checks, and the shapes of its composite answers.
import type { EnvDefaults } from '../core/client-options.js';
import { RequestValidationError } from '../core/errors.js';
import type { ClientOptions, Credential, RequestOptions } from '../core/options.js';
import type { SharedImage, StorageCheck, UpgradeStep } from './checks.js';
import type { Pbkdf2Engine } from './compute-admin-login-hash.js';
import type { WarmRuntimeConfigBody } from './schemas.js';

export interface RuntimeAdminClientOptions extends ClientOptions {
  /** `{runtime_api_url}`; default `RUNTIME_API_URL`. E.g. `https://runtime-api.example.com`. */
  baseUrl?: string | undefined;
  /** Admin password for the PBKDF2 challenge-response login; default `ADMIN_PASSWORD`. */
  adminPassword?: Credential | undefined;
  /**
   * A pre-obtained admin JWT: used instead of the login handshake. When the service refuses it (401) and an
   * admin password is configured, the client logs in.
   */
  adminToken?: Credential | undefined;
  /**
   * A regular API key, sent as `X-API-Key` to `GET /api/warm-runtime-configs`; default `API_KEY`. Without one
   * the client logs in and uses the key named `default`.
   */
  apiKey?: Credential | undefined;
  /**
   * Log in again this long before the JWT's expiry, in ms. Default 60 000. For a token that lives less than
   * twice the margin, half its lifetime is used instead, so short-lived tokens are still reused.
   */
  tokenRefreshMargin?: number | undefined;
  /** PBKDF2 implementation of the login; default `auto` (WebCrypto when present, else @noble/hashes). */
  pbkdf2Engine?: Pbkdf2Engine | undefined;
  /**
   * Most PBKDF2 iterations an admin challenge may ask for; more is `Pbkdf2IterationsError` before hashing.
   * Default 10 000 000.
   */
  maxPbkdf2Iterations?: number | undefined;
  /**
   * Fewest PBKDF2 iterations an admin challenge may ask for; fewer is `Pbkdf2IterationsError` (`bound: 'min'`)
   * before hashing, as a cheap hash sent over the wire cracks offline. Default 10 000 (the runtime API's value).
   */
  minPbkdf2Iterations?: number | undefined;
  /** The clock, in ms since the epoch (for tests). Default `Date.now`. */
  now?: (() => number) | undefined;
}

/** Default floor on the PBKDF2 rounds an admin challenge may ask for: the runtime API's own count. */
export const DEFAULT_MIN_PBKDF2_ITERATIONS = 10_000;

/** The environment variables `RuntimeAdminClient` reads for options left out (docs/getting-started.md). */
export const RUNTIME_ENV: EnvDefaults<RuntimeAdminClientOptions> = {
  baseUrl: 'RUNTIME_API_URL',
  adminPassword: 'ADMIN_PASSWORD',
  apiKey: 'API_KEY',
};

export function checkRuntimeOptions(options: RuntimeAdminClientOptions): void {
  const { tokenRefreshMargin, maxPbkdf2Iterations, minPbkdf2Iterations, pbkdf2Engine, now } = options;
  if (
    tokenRefreshMargin !== undefined &&
    !(
      typeof tokenRefreshMargin === 'number' &&
      Number.isFinite(tokenRefreshMargin) &&
      tokenRefreshMargin >= 0
    )
  ) {
    throw new RequestValidationError('must be a number of milliseconds >= 0', 'tokenRefreshMargin');
  }
  if (
    maxPbkdf2Iterations !== undefined &&
    !(Number.isSafeInteger(maxPbkdf2Iterations) && maxPbkdf2Iterations >= 1)
  ) {
    throw new RequestValidationError('must be a positive integer', 'maxPbkdf2Iterations');
  }
  if (
    minPbkdf2Iterations !== undefined &&
    !(Number.isSafeInteger(minPbkdf2Iterations) && minPbkdf2Iterations >= 1)
  ) {
    throw new RequestValidationError('must be a positive integer', 'minPbkdf2Iterations');
  }
  if (pbkdf2Engine !== undefined && !['auto', 'webcrypto', 'js'].includes(pbkdf2Engine)) {
    throw new RequestValidationError('must be auto, webcrypto or js', 'pbkdf2Engine');
  }
  if (now !== undefined && typeof now !== 'function') {
    throw new RequestValidationError('must be a function returning ms since the epoch', 'now');
  }
}

/** The answer to a save: the configuration as stored. */
export type SavedWarmRuntimeConfig = WarmRuntimeConfigBody & { name: string; source?: 'file' | 'db' };

export interface SaveOptions extends RequestOptions {
  /**
   * Refuse (with `RuntimePreconditionError` code `SHARED_IMAGE`, before the PUT) when another configuration of
   * the effective set already uses the body's image (warm-pool rule 1). Costs one list call. Default false.
   */
  rejectSharedImage?: boolean;
}

export interface PoolChecks {
  /** Rule 1: images shared by two or more configurations. */
  sharedImages: SharedImage[];
  /** Rule 2, when `nodeCapacity` was given. */
  storage?: StorageCheck;
  /** The steps to run after a platform upgrade. */
  upgrade: UpgradeStep[];
}
