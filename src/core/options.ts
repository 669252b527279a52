import { CredentialError, isAgentPlatformError } from './errors.js';
import type { Logger, LogLevel } from './logger.js';

/** A credential: the value itself, or a function (possibly async) that returns the current value. */
export type Credential = string | (() => string | Promise<string>);

/** Options every client accepts (each client adds its own credentials). */
export interface ClientOptions {
  /** Base URL of the service; may carry a path (it is joined as a string, never resolved). */
  baseUrl?: string | undefined;
  /** Per-attempt timeout in milliseconds. Default 60 000. */
  timeout?: number | undefined;
  /** Bound on the whole call, retries and waits included, in milliseconds. Default: none. */
  totalTimeout?: number | undefined;
  /** Automatic retries of GET, PUT and HEAD calls (never POST, PATCH or DELETE). Default 2. */
  maxRetries?: number | undefined;
  /** Longest wait before a retry, in milliseconds, including a server's `Retry-After`. Default 60 000. */
  maxRetryDelay?: number | undefined;
  /** A `fetch` implementation (default: the global one). */
  fetch?: typeof fetch | undefined;
  /** Headers sent with every request. */
  headers?: Record<string, string> | undefined;
  /** Where log lines go (default: `console`); every line is redacted first. */
  logger?: Logger | undefined;
  /** Default `warn`. */
  logLevel?: LogLevel | undefined;
  /**
   * Largest body of a successful answer, in bytes; a larger one fails with `ResponseTooLargeError` as soon as
   * it passes the limit. Default 16 MiB. Error answers are read up to 64 KiB, the rest dropped.
   */
  maxResponseBytes?: number | undefined;
  /**
   * Read options left `undefined` from the environment (in Node): each client's `baseUrl` and credentials
   * have a variable, listed in docs/getting-started.md. Default true; `false` ignores the environment.
   */
  env?: boolean | undefined;
}

/** Options of a single call. */
export interface RequestOptions {
  /** Cancels the call (and any retry wait) with `APIUserAbortError`. */
  signal?: AbortSignal | undefined;
  /** Overrides the client's per-attempt timeout for this call. */
  timeout?: number | undefined;
  /** Extra headers for this call. */
  headers?: Record<string, string> | undefined;
}

/**
 * The credential's current value. A function that throws, or returns something other than a string, is a
 * `CredentialError` naming `name` (its own error is dropped: it may quote the secret).
 */
export async function resolveCredential(
  credential: Credential | undefined,
  name = 'credential',
): Promise<string | undefined> {
  if (credential === undefined || credential === null) return undefined;
  if (typeof credential === 'string') return credential;
  if (typeof credential !== 'function') {
    throw new CredentialError(name, 'must be a string or a function returning one');
  }
  let value: unknown;
  try {
    value = await credential();
  } catch (error) {
    if (isAgentPlatformError(error)) throw error;
    throw new CredentialError(
      name,
      'the credential function threw; its error is not shown, as it may quote the secret',
    );
  }
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') {
    throw new CredentialError(name, `the credential function returned ${typeof value}, not a string`);
  }
  return value;
}

/** The errors a runtime throws for a variable it will not let us read (Deno without `--allow-env`). */
const REFUSED_ENV_ERRORS = new Set(['NotCapable', 'PermissionDenied']);

/**
 * `process.env[name]` where a process exists (Node, Bun, Deno, workerd with `nodejs_compat`), else undefined
 * (browsers). A variable the runtime refuses to read is an unset one (docs/runtimes.md).
 */
export function readEnv(name: string): string | undefined {
  let value: string | undefined;
  try {
    const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
    value = env?.[name];
  } catch (error) {
    if (error instanceof Error && REFUSED_ENV_ERRORS.has(error.name)) return undefined;
    throw error;
  }
  return value === undefined || value === '' ? undefined : value;
}
