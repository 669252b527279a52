import { SecretRegistry } from '../core/auth.js';
import { BaseClient } from '../core/base-client.js';
import { resolveClientOptions } from '../core/client-options.js';
import { type DeleteResult, deleteResult } from '../core/delete-result.js';
import { errorMessageFromBody } from '../core/error-body.js';
import { type APIError, isAuthenticationError, isBadRequestError, withMessage } from '../core/errors.js';
import { type Credential, type RequestOptions, resolveCredential } from '../core/options.js';
import { checkPathSegment, pathSegment } from '../core/path-segment.js';
import type { CallSpec } from '../core/transport.js';
import { optionsObject, requireNonEmptyString } from '../core/validate.js';
import { loginTokenExpiresAt, type Session } from './admin-token.js';
import { deriveTemplate, prepareWarmRuntimeConfigBody, type TemplateOverrides } from './body.js';
import {
  checkEphemeralStorage,
  configsUsingImage,
  findSharedImages,
  type StorageCheckOptions,
  type UpgradeChecklistOptions,
  upgradeChecklist,
} from './checks.js';
import {
  computeAdminLoginHash,
  DEFAULT_MAX_PBKDF2_ITERATIONS,
  type Pbkdf2Engine,
} from './compute-admin-login-hash.js';
import {
  AdminLoginError,
  adminDisabledOn403,
  isAdminDisabledError,
  missingAdminCredentials,
  Pbkdf2IterationsError,
  RuntimePreconditionError,
  saysWrongPassword,
  sharedImageError,
  WarmRuntimeConfigNotFoundError,
} from './errors.js';
import { jwtExpiresAt, jwtIssuedAt } from './jwt.js';
import {
  checkRuntimeOptions,
  DEFAULT_MIN_PBKDF2_ITERATIONS,
  type PoolChecks,
  RUNTIME_ENV,
  type RuntimeAdminClientOptions,
  type SavedWarmRuntimeConfig,
  type SaveOptions,
} from './options.js';
import {
  type ApiKey,
  decoder,
  runtimeSchemas,
  type WarmRuntimeConfig,
  type WarmRuntimeConfigBody,
} from './schemas.js';
import { secretEnvValues } from './secret-env.js';
import { SharedCall } from './shared-call.js';

type AdminSpec<T> = Omit<CallSpec<T>, 'mapError'> & { mapError?: (error: APIError) => APIError };

/**
 * Sandbox-pool administration: the admin login, API keys and warm-runtime configurations, with the
 * JWT kept and renewed for you, and checks that catch pool layouts that break a cluster.
 *
 * Credentials: admin routes send `Authorization: Bearer <admin JWT>`; `GET /api/warm-runtime-configs` sends
 * only `X-API-Key` (it refuses the JWT).
 */
export class RuntimeAdminClient extends BaseClient {
  readonly #secrets: SecretRegistry;
  readonly #adminPassword: Credential | undefined;
  readonly #adminToken: Credential | undefined;
  readonly #apiKey: Credential | undefined;
  readonly #margin: number;
  readonly #engine: Pbkdf2Engine;
  readonly #now: () => number;
  readonly #maxIterations: number;
  readonly #minIterations: number;
  #session: Session | undefined;
  #adminTokenRefused = false;
  readonly #login = new SharedCall<string>();
  #defaultKey: string | undefined;
  readonly #defaultKeyLookup = new SharedCall<string>();

  constructor(options?: RuntimeAdminClientOptions) {
    const resolved = resolveClientOptions(options, RUNTIME_ENV);
    checkRuntimeOptions(resolved);
    const { baseUrl, adminPassword, apiKey } = resolved;
    const secrets = new SecretRegistry();
    for (const credential of [adminPassword, apiKey, resolved.adminToken]) {
      if (typeof credential === 'string') secrets.add(credential);
    }
    const {
      adminPassword: _p,
      adminToken: _t,
      apiKey: _k,
      env: _e,
      tokenRefreshMargin: _m,
      pbkdf2Engine: _g,
      maxPbkdf2Iterations: _i,
      minPbkdf2Iterations: _f,
      now: _n,
      ...transportOptions
    } = resolved;
    super(
      { ...transportOptions, baseUrl, secrets: secrets.list },
      { adminPassword, adminToken: resolved.adminToken, apiKey },
    );
    this.#secrets = secrets;
    this.#adminPassword = adminPassword;
    this.#adminToken = resolved.adminToken;
    this.#apiKey = apiKey;
    this.#margin = resolved.tokenRefreshMargin ?? 60_000;
    this.#engine = resolved.pbkdf2Engine ?? 'auto';
    this.#now = resolved.now ?? Date.now;
    this.#maxIterations = resolved.maxPbkdf2Iterations ?? DEFAULT_MAX_PBKDF2_ITERATIONS;
    this.#minIterations = resolved.minPbkdf2Iterations ?? DEFAULT_MIN_PBKDF2_ITERATIONS;
  }

  // -------------------------------------------------------------------------------------------------------
  // Admin login and token lifecycle.

  /**
   * The challenge-response login: `GET /api/admin/challenge`, PBKDF2 hash, `POST /api/admin/login`.
   * Returns the admin JWT and keeps it for later admin calls. A challenge refused as expired or reused is
   * replaced by a fresh one once. Concurrent calls share one handshake; each caller's `signal` and `timeout`
   * end only that caller's wait, and the handshake stops once every caller has stopped waiting.
   *
   * Throws `AdminDisabledError` (403: no admin password on the service), `AdminLoginError` (refused), or
   * `RuntimePreconditionError` `MISSING_ADMIN_CREDENTIALS` (no password configured here).
   */
  login(options: RequestOptions = {}): Promise<string> {
    return this.#login.run((signal) => this.#handshake(signal), waitOptions(options), 'The admin login');
  }

  /** Forgets the admin JWT (and the `default` API key looked up with it); the next admin call logs in. */
  logout(): void {
    this.#session = undefined;
    this.#defaultKey = undefined;
  }

  /** When the kept admin JWT expires (ms since the epoch), or undefined when none is kept. */
  get tokenExpiresAt(): number | undefined {
    return this.#session?.expiresAt;
  }

  async #handshake(signal: AbortSignal): Promise<string> {
    const options: RequestOptions = { signal };
    const password = await resolveCredential(this.#adminPassword, 'adminPassword');
    if (!password) throw missingAdminCredentials();
    this.#secrets.add(password);
    let refused: APIError | undefined;
    // A challenge is single use and lives 5 minutes: one refused as expired or reused gets one fresh retry.
    for (let attempt = 0; attempt < 2; attempt++) {
      const challenge = await this.transport.request({
        method: 'GET',
        path: 'api/admin/challenge',
        ...callOptions(options),
        decode: decoder(runtimeSchemas().AdminChallenge),
        mapError: adminDisabledOn403,
      });
      // The hash travels to the server: one of a few rounds would crack offline. Refused before any work.
      if (challenge.iterations < this.#minIterations) {
        throw new Pbkdf2IterationsError(challenge.iterations, this.#minIterations, 'min');
      }
      const hash = await computeAdminLoginHash(
        password,
        challenge.salt,
        challenge.challenge,
        challenge.iterations,
        { engine: this.#engine, maxIterations: this.#maxIterations, signal },
      );
      try {
        const { token } = await this.transport.request({
          method: 'POST',
          path: 'api/admin/login',
          json: { challenge: challenge.challenge, hash },
          ...callOptions(options),
          // The POST consumes the challenge: never replay it.
          retry: false,
          decode: decoder(runtimeSchemas().AdminLoginResponse),
          mapError: adminDisabledOn403,
        });
        this.#secrets.add(token);
        const now = this.#now();
        const expiresAt = loginTokenExpiresAt(token, now);
        this.#session = { token, expiresAt, refreshAt: this.#refreshAt(expiresAt, now), origin: 'login' };
        return token;
      } catch (error) {
        if (isAdminDisabledError(error) || !(isBadRequestError(error) || isAuthenticationError(error)))
          throw error;
        if (saysWrongPassword(error.body)) throw new AdminLoginError(error, 'password');
        refused = error;
      }
    }
    throw new AdminLoginError(refused!, 'challenge');
  }

  #canLogIn(): boolean {
    return this.#adminPassword !== undefined;
  }

  #fresh(session: Session | undefined, now = this.#now()): session is Session {
    return session !== undefined && now < session.refreshAt;
  }

  /**
   * `expiresAt` less the refresh margin; for a token living less than twice the margin, less half its
   * lifetime (from `obtainedAt`), so a short-lived token serves several calls instead of none.
   */
  #refreshAt(expiresAt: number, obtainedAt: number): number {
    const lifetime = expiresAt - obtainedAt;
    return expiresAt - Math.min(this.#margin, Math.max(0, lifetime / 2));
  }

  /** The JWT for the next admin call: the kept one while fresh, else `adminToken`, else a new login. */
  async #bearer(options: RequestOptions): Promise<{ token: string; origin: Session['origin'] }> {
    const now = this.#now();
    if (this.#fresh(this.#session, now)) return this.#session;
    if (this.#adminToken !== undefined && !this.#adminTokenRefused) {
      const token = await resolveCredential(this.#adminToken, 'adminToken');
      if (token) {
        this.#secrets.add(token);
        const expiresAt = jwtExpiresAt(token);
        const refreshAt =
          expiresAt === undefined
            ? Number.POSITIVE_INFINITY
            : this.#refreshAt(expiresAt, Math.min(jwtIssuedAt(token) ?? now, now));
        if (now < refreshAt || !this.#canLogIn()) {
          // A function credential is asked again each time; a string is kept like a login's token.
          if (typeof this.#adminToken === 'string') {
            this.#session = {
              token,
              expiresAt: expiresAt ?? Number.POSITIVE_INFINITY,
              refreshAt,
              origin: 'option',
            };
          }
          return { token, origin: 'option' };
        }
      }
    }
    if (!this.#canLogIn()) throw missingAdminCredentials();
    return { token: await this.login(options), origin: 'login' };
  }

  /** After `refused` got a 401: a token another call obtained meanwhile, else a new login. */
  async #renew(refused: string, options: RequestOptions): Promise<string> {
    if (this.#fresh(this.#session) && this.#session.token !== refused) return this.#session.token;
    return this.login(options);
  }

  /** An admin route: bearer JWT; on a 401, one new login and one retry. */
  async #admin<T>(spec: AdminSpec<T>): Promise<T> {
    const { mapError, ...rest } = spec;
    const send = (token: string) =>
      this.transport.request<T>({
        ...rest,
        headers: { ...rest.headers, authorization: `Bearer ${token}` },
        mapError: (error) => {
          const mapped = adminDisabledOn403(error, true);
          return mapped === error && mapError ? mapError(error) : mapped;
        },
      });
    const { token, origin } = await this.#bearer(spec);
    try {
      return await send(token);
    } catch (error) {
      if (!isAuthenticationError(error)) throw error;
      if (this.#session?.token === token) this.#session = undefined;
      if (!this.#canLogIn()) {
        throw withMessage(
          error,
          `The admin token was refused (expired or invalid): ${errorMessageFromBody(error.body, 'unauthorized')}. Pass a new ADMIN_TOKEN, or ADMIN_PASSWORD to log in`,
        );
      }
      // A refused token string is not offered again; the login's token replaces it.
      if (origin === 'option' && typeof this.#adminToken === 'string') this.#adminTokenRefused = true;
      return send(await this.#renew(token, spec));
    }
  }

  // -------------------------------------------------------------------------------------------------------
  // API keys.

  /** `GET /api/admin/api-keys` (admin JWT). The entry named `default` is the read-only key. */
  async listApiKeys(options: RequestOptions = {}): Promise<ApiKey[]> {
    const keys = await this.#admin({
      method: 'GET',
      path: 'api/admin/api-keys',
      ...callOptions(options),
      decode: decoder(runtimeSchemas().ApiKeyList),
    });
    for (const key of keys) this.#secrets.add(key.key_value);
    return keys;
  }

  async #readKey(options: RequestOptions): Promise<{ key: string; derived: boolean }> {
    const given = await resolveCredential(this.#apiKey, 'apiKey');
    if (given) {
      this.#secrets.add(given);
      return { key: given, derived: false };
    }
    if (this.#defaultKey) return { key: this.#defaultKey, derived: true };
    if (!this.#canLogIn() && this.#adminToken === undefined) {
      throw new RuntimePreconditionError(
        'MISSING_API_KEY',
        'API_KEY is not set, and no ADMIN_PASSWORD (or ADMIN_TOKEN) to fall back to. Either export API_KEY, or export ADMIN_PASSWORD so the client can fetch the default API key.',
      );
    }
    // Shared by concurrent callers, each waiting with its own signal and timeout.
    const key = await this.#defaultKeyLookup.run(
      async (signal) => {
        const keys = await this.listApiKeys({ signal });
        const entry = keys.find((key) => key.name === 'default');
        if (!entry) {
          throw new RuntimePreconditionError(
            'NO_DEFAULT_API_KEY',
            "No API key named 'default' returned by /api/admin/api-keys.",
          );
        }
        this.#defaultKey = entry.key_value;
        return entry.key_value;
      },
      waitOptions(options),
      'The default API key lookup',
    );
    return { key, derived: true };
  }

  // -------------------------------------------------------------------------------------------------------
  // Warm-runtime configurations.

  /**
   * `GET /api/warm-runtime-configs` with `X-API-Key` (never the admin JWT): the effective set,
   * installer entries (`source` `file`) merged with API entries (`db`), the API entry overriding.
   */
  async listWarmRuntimeConfigs(options: RequestOptions = {}): Promise<WarmRuntimeConfig[]> {
    const send = (key: string) =>
      this.transport
        .request({
          method: 'GET',
          path: 'api/warm-runtime-configs',
          ...callOptions(options),
          headers: { ...options.headers, 'x-api-key': key },
          decode: decoder(runtimeSchemas().WarmRuntimeConfigList),
        })
        .then((list) => {
          // Credential-like environment values (e.g. LMNR_PROJECT_API_KEY) are redacted like the client's own.
          for (const config of list.configs)
            for (const value of secretEnvValues(config.environment)) this.#secrets.add(value);
          return list;
        });
    const { key, derived } = await this.#readKey(options);
    try {
      return (await send(key)).configs;
    } catch (error) {
      if (!isAuthenticationError(error)) throw error;
      if (derived) {
        // The default key was rotated since we looked it up: look again, once.
        this.#defaultKey = undefined;
        return (await send((await this.#readKey(options)).key)).configs;
      }
      const jwtHint = /^eyJ[\w-]+\.[\w-]+\./.test(key)
        ? ' API_KEY looks like an admin JWT: this endpoint accepts only a regular API key'
        : '';
      throw withMessage(
        error,
        `The API key was refused: ${errorMessageFromBody(error.body, 'unauthorized')}.${jwtHint}`,
      );
    }
  }

  /**
   * One configuration of the effective set by name. Throws `RuntimePreconditionError` `UNKNOWN_CONFIG` when
   * there is none.
   */
  async getWarmRuntimeConfig(name: string, options: RequestOptions = {}): Promise<WarmRuntimeConfig> {
    requireNonEmptyString(name, 'name');
    const configs = await this.listWarmRuntimeConfigs(options);
    const match = configs.find((config) => config.name === name);
    if (!match) {
      const known = configs.map((config) => config.name);
      const hint =
        known.length > 0
          ? ` Known: ${known.join(', ')}.`
          : ' The effective set is empty (on chart installs without overlay mode the installer entries, v1_current included, are not listed).';
      throw new RuntimePreconditionError(
        'UNKNOWN_CONFIG',
        `No configuration named '${name}' in the effective set.${hint}`,
      );
    }
    return match;
  }

  /**
   * `PUT /api/admin/warm-runtime-configs/{name}`: creates or overwrites (absent or `file` → `db`,
   * `db` → `db` with new pods within about a minute). `name` and `source` are removed from the body, and the
   * required fields are checked before sending (`RequestValidationError`).
   */
  async saveWarmRuntimeConfig(
    name: string,
    body: WarmRuntimeConfigBody | Record<string, unknown>,
    options: SaveOptions = {},
  ): Promise<SavedWarmRuntimeConfig> {
    checkPathSegment(name, 'name');
    const prepared = prepareWarmRuntimeConfigBody(body);
    // A server may echo the body back in an error (a 422's `input`): its credential-like values are secrets.
    for (const value of secretEnvValues(prepared.environment)) this.#secrets.add(value);
    if (options.rejectSharedImage) {
      const others = configsUsingImage(await this.listWarmRuntimeConfigs(options), name, prepared.image);
      if (others.length > 0) throw sharedImageError(name, prepared.image, others);
    }
    const saved = await this.#admin({
      method: 'PUT',
      path: configPath(name),
      json: prepared,
      ...callOptions(options),
      decode: decoder(runtimeSchemas().SavedWarmRuntimeConfig),
    });
    return { ...prepared, ...saved, name: saved.name ?? name } as SavedWarmRuntimeConfig;
  }

  /**
   * `DELETE /api/admin/warm-runtime-configs/{name}` (`db` → `file` when an installer entry of that
   * name exists, else removed). Throws `WarmRuntimeConfigNotFoundError` (404) when no database entry has the
   * name, which includes installer entries such as `v1_current`.
   *
   * Never retried automatically: a DELETE that took effect but lost its answer would be retried into a 404,
   * indistinguishable from a name that never existed. A connection error or timeout leaves the outcome
   * unknown; list the configurations to find out.
   */
  async deleteWarmRuntimeConfig(name: string, options: RequestOptions = {}): Promise<DeleteResult> {
    checkPathSegment(name, 'name');
    const answer = await this.#admin({
      method: 'DELETE',
      path: configPath(name),
      ...callOptions(options),
      retry: false,
      decode: decoder(runtimeSchemas().DeleteResponse),
      mapError: (error) => (error.status === 404 ? new WarmRuntimeConfigNotFoundError(error, name) : error),
    });
    return deleteResult(name, answer?.message);
  }

  /**
   * `template`: the configuration `sourceName` of the effective set without its identity fields, with
   * `image` and `count` overridden: a body for `saveWarmRuntimeConfig`.
   */
  async template(
    sourceName: string,
    overrides: TemplateOverrides = {},
    options: RequestOptions = {},
  ): Promise<WarmRuntimeConfigBody> {
    return deriveTemplate(await this.getWarmRuntimeConfig(sourceName, options), overrides);
  }

  // -------------------------------------------------------------------------------------------------------
  // Checks.

  /**
   * Rule 1 (shared images), rule 2 (pool sizes × per-pod storage against `nodeCapacity`, when given) and the
   * upgrade checklist (docs/warm-pools.md), on the current effective set.
   */
  async checkPools(
    options: Partial<StorageCheckOptions> & UpgradeChecklistOptions & RequestOptions = {},
  ): Promise<PoolChecks> {
    const configs = await this.listWarmRuntimeConfigs(options);
    const { nodeCapacity } = options;
    return {
      sharedImages: findSharedImages(configs),
      ...(nodeCapacity === undefined
        ? {}
        : { storage: checkEphemeralStorage(configs, { ...options, nodeCapacity }) }),
      upgrade: upgradeChecklist(configs, options),
    };
  }
}

/** The caller's signal and timeout (what a shared login waits with). */
function waitOptions(given: RequestOptions): Pick<CallSpec<unknown>, 'signal' | 'timeout'> {
  const options = optionsObject(given);
  return {
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
  };
}

/** The caller's signal, timeout and headers, for one request. */
function callOptions(given: RequestOptions): Pick<CallSpec<unknown>, 'signal' | 'timeout' | 'headers'> {
  const headers = optionsObject(given).headers;
  return { ...waitOptions(given), ...(headers ? { headers } : {}) };
}

/** Like Python's `urllib.parse.quote(name, safe="")`, which the helper CLI uses. */
function configPath(name: string): string {
  const encoded = pathSegment(name, 'name').replace(
    /[!'()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `api/admin/warm-runtime-configs/${encoded}`;
}
