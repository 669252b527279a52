import { errorMessageFromBody } from '../core/error-body.js';
import {
  AgentPlatformError,
  type APIError,
  AuthenticationError,
  apiErrorInit,
  brandErrorClass,
  errorGuard,
  NotFoundError,
  PermissionDeniedError,
} from '../core/errors.js';

/** The message of a runtime API without an admin password. */
export const ADMIN_DISABLED_MESSAGE = 'Admin functionality is disabled';

/**
 * 403 from the runtime API's admin endpoints: no admin password is configured, so admin functionality is
 * disabled. Set one at install or rotate it in the installer admin console (secret
 * `admin-password`); the runtime API restarts and admin login works.
 */
export class AdminDisabledError extends PermissionDeniedError {
  constructor(error: APIError) {
    super(
      apiErrorInit(
        error,
        `${ADMIN_DISABLED_MESSAGE}: the runtime API has no admin password configured (set one at install or in the installer admin console, secret "admin-password")`,
      ),
    );
  }
}
brandErrorClass(AdminDisabledError, 'AdminDisabledError');

/**
 * The admin login was refused. `reason` is `password` when the server said the password is wrong, and
 * `challenge` when the challenge was refused as expired, reused or unknown even after one fresh challenge
 * (the real service answers 400 or 401 for that). `status` is the server's status (400 or 401).
 */
export class AdminLoginError extends AuthenticationError {
  readonly reason: 'password' | 'challenge';
  constructor(error: APIError, reason: 'password' | 'challenge') {
    super(
      apiErrorInit(
        error,
        reason === 'password'
          ? 'Admin login refused: wrong admin password (check ADMIN_PASSWORD)'
          : 'Admin login refused twice with a fresh challenge each time: the challenge expired or was reused, or the admin password is wrong (check ADMIN_PASSWORD)',
      ),
    );
    this.reason = reason;
  }
}
brandErrorClass(AdminLoginError, 'AdminLoginError');

/**
 * 404 from `DELETE /api/admin/warm-runtime-configs/{name}`: no *database* entry has that name. DELETE
 * removes API-saved configurations only; installer-managed entries (`source` `file`, such as `v1_current`)
 * cannot be deleted through the API.
 */
export class WarmRuntimeConfigNotFoundError extends NotFoundError {
  readonly configName: string;
  constructor(error: APIError, configName: string) {
    super(
      apiErrorInit(
        error,
        `No database entry named ${JSON.stringify(configName)}: DELETE removes only configurations saved through the API; installer-managed entries (source "file", such as v1_current) cannot be deleted, and an unknown name has nothing to delete`,
      ),
    );
    this.configName = configName;
  }
}
brandErrorClass(WarmRuntimeConfigNotFoundError, 'WarmRuntimeConfigNotFoundError');

/**
 * The admin challenge asks for more PBKDF2 rounds than the client accepts (`maxPbkdf2Iterations`, default
 * 10 000 000): refused before hashing, as such a count would keep a core busy for minutes. Raise the limit
 * if your runtime API really uses that many.
 */
export class Pbkdf2IterationsError extends AgentPlatformError {
  readonly iterations: number;
  readonly limit: number;
  /** `max`: more rounds than `maxPbkdf2Iterations`; `min`: fewer than the floor, `minPbkdf2Iterations`. */
  readonly bound: 'min' | 'max';
  constructor(iterations: number, limit: number, bound: 'min' | 'max' = 'max') {
    super(
      bound === 'max'
        ? `The admin challenge asks for ${iterations} PBKDF2 iterations, more than the limit of ${limit} (maxPbkdf2Iterations)`
        : `The admin challenge asks for only ${iterations} PBKDF2 iterations, fewer than the floor of ${limit} (minPbkdf2Iterations): a hash that cheap could be cracked offline by whoever sees it, so none was computed or sent`,
    );
    this.iterations = iterations;
    this.limit = limit;
    this.bound = bound;
  }
}
brandErrorClass(Pbkdf2IterationsError, 'Pbkdf2IterationsError');

export type RuntimePreconditionCode =
  | 'MISSING_ADMIN_CREDENTIALS'
  | 'MISSING_API_KEY'
  | 'NO_DEFAULT_API_KEY'
  | 'UNKNOWN_CONFIG'
  | 'SHARED_IMAGE';

/**
 * Something the caller must fix before a call can succeed, found before (or without) any failing request:
 * no base URL, no admin credentials, no API key and no way to fetch one, no `default` key, no configuration
 * of that name in the effective set, an image another configuration already uses. The CLI exits with 1 on these.
 */
export class RuntimePreconditionError extends AgentPlatformError {
  declare code: RuntimePreconditionCode;
  constructor(code: RuntimePreconditionCode, message: string) {
    super(message);
    this.code = code;
  }
}
brandErrorClass(RuntimePreconditionError, 'RuntimePreconditionError');

export const isAdminDisabledError = /* @__PURE__ */ errorGuard<AdminDisabledError>('AdminDisabledError');
export const isAdminLoginError = /* @__PURE__ */ errorGuard<AdminLoginError>('AdminLoginError');
export const isWarmRuntimeConfigNotFoundError = /* @__PURE__ */ errorGuard<WarmRuntimeConfigNotFoundError>(
  'WarmRuntimeConfigNotFoundError',
);
export const isRuntimePreconditionError =
  /* @__PURE__ */ errorGuard<RuntimePreconditionError>('RuntimePreconditionError');
export const isPbkdf2IterationsError =
  /* @__PURE__ */ errorGuard<Pbkdf2IterationsError>('Pbkdf2IterationsError');

// What the client makes of the runtime API's refusals.

/** 403 on the login endpoints always means "admin disabled"; on other admin routes, when the body says so. */
export function adminDisabledOn403(error: APIError, checkBody = false): APIError {
  if (error.status !== 403) return error;
  if (checkBody && !/admin|disabled/i.test(errorMessageFromBody(error.body, ''))) return error;
  return new AdminDisabledError(error);
}

export function saysWrongPassword(body: unknown): boolean {
  return /password/i.test(errorMessageFromBody(body, ''));
}

export function missingAdminCredentials(): RuntimePreconditionError {
  return new RuntimePreconditionError(
    'MISSING_ADMIN_CREDENTIALS',
    'ADMIN_PASSWORD (or ADMIN_TOKEN) is not set: admin routes need the admin password or an admin JWT.',
  );
}

export function sharedImageError(name: string, image: string, others: string[]): RuntimePreconditionError {
  return new RuntimePreconditionError(
    'SHARED_IMAGE',
    `Image ${image} is already used by ${others.join(', ')}: configurations sharing an image cannot be selected independently (warm-pool rule 1). Give ${name} its own image tag.`,
  );
}
