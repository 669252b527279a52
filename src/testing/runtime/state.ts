import { pbkdf2Async } from '@noble/hashes/pbkdf2.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, randomBytes } from '@noble/hashes/utils.js';
import type { WarmRuntimeConfig, WarmRuntimeConfigBody } from '../../runtime/schemas.js';
import { signJwt, verifyJwt } from './jwt.js';

/** An API key as `GET /api/admin/api-keys` lists it. */
export interface StoredApiKey {
  id: string | number;
  name: string;
  key_value: string;
  [field: string]: unknown;
}

/** An installer-managed entry (the chart's ConfigMap): a save body with its name. */
export type InstallerConfig = WarmRuntimeConfigBody & { name: string };

export type ConfigSource = 'file' | 'db' | 'absent';

/** A pool as the reconciler keeps it. */
export interface WarmPool {
  name: string;
  image: string;
  count: number;
}

/** What one reconciler cycle changed. */
export interface PoolChange {
  name: string;
  change: 'started' | 'replaced' | 'resized' | 'removed';
  image: string;
  count: number;
}

export interface RuntimeApiStateOptions {
  /** The admin password (secret `admin-password`). `null` or absent: admin functionality is disabled (403). */
  adminPassword?: string | null;
  /** Default: one key named `default` with value `test-api-key`. */
  apiKeys?: StoredApiKey[];
  /** Installer entries (`source` `file`). Default: `v1_current` as in the fixture `runtime-api-shapes.json`. */
  installerConfigs?: InstallerConfig[];
  /**
   * Overlay mode: installer entries are listed and merged with API entries. Off (chart installs
   * without `WARM_RUNTIME_CONFIG_OVERLAY=1`): only API entries are listed. Default true.
   */
  overlay?: boolean;
  /** PBKDF2 iterations announced by the challenge. Default 10 000 (the public doubles' value). */
  iterations?: number;
  /** Default 5 minutes. */
  challengeTtlMs?: number;
  /** Default 24 hours. */
  tokenTtlMs?: number;
  /**
   * Status of a login with an unknown, expired or already used challenge: the public double answers 400
   * `Invalid or expired challenge`, the spec says 401. Default 400.
   */
  challengeRefusalStatus?: 400 | 401;
  /** Installer-wide Warm Runtime Count, the pool size of entries without `count`. Default 1 (VM installs). */
  warmRuntimeCount?: number;
  /** The clock (ms since the epoch). Default `Date.now`; `advanceTime` moves it forward. */
  now?: () => number;
}

/** One request the service answered (credentials reduced to which kind was sent). */
export interface RuntimeApiLogEntry {
  method: string;
  path: string;
  status: number;
  bearer: boolean;
  apiKey: boolean;
}

export const DEFAULT_INSTALLER_CONFIG: InstallerConfig = {
  name: 'v1_current',
  image: 'ghcr.io/openhands/agent-server:1.46.0-python',
  count: 1,
  command: ['/usr/local/bin/openhands-agent-server', '--port', '60000'],
  working_dir: '/workspace/project',
  environment: { BASE: '1' },
};

interface Challenge {
  salt: string;
  iterations: number;
  expiresAt: number;
}

export type LoginOutcome =
  | { ok: true; token: string }
  | { ok: false; status: 400 | 401 | 403; detail: string };

/**
 * The state of a fake runtime API that behaves like the real one: single-use challenges that
 * expire, the PBKDF2 check against the admin password, JWTs that expire, the `file`/`db` merge of the effective set,
 * the source transitions (docs/warm-pools.md), and a reconciler that starts, replaces and removes pools.
 */
export class RuntimeApiState {
  adminPassword: string | null;
  iterations: number;
  challengeTtlMs: number;
  tokenTtlMs: number;
  challengeRefusalStatus: 400 | 401;
  overlay: boolean;
  warmRuntimeCount: number;
  readonly apiKeys: StoredApiKey[];
  /** Installer entries by name (`source` `file`). */
  readonly installer = new Map<string, WarmRuntimeConfigBody>();
  /** API entries by name (`source` `db`). */
  readonly db = new Map<string, WarmRuntimeConfigBody>();
  /** Every request answered, oldest first. */
  readonly log: RuntimeApiLogEntry[] = [];
  readonly stats = { challengesIssued: 0, loginsSucceeded: 0, loginsRefused: 0, tokensIssued: 0 };
  readonly #challenges = new Map<string, Challenge>();
  readonly #clock: () => number;
  #offset = 0;
  #signingKey: Uint8Array = randomBytes(32);
  #pools = new Map<string, WarmPool>();

  constructor(options: RuntimeApiStateOptions = {}) {
    this.adminPassword = options.adminPassword ?? null;
    this.iterations = options.iterations ?? 10_000;
    this.challengeTtlMs = options.challengeTtlMs ?? 5 * 60_000;
    this.tokenTtlMs = options.tokenTtlMs ?? 24 * 60 * 60_000;
    this.challengeRefusalStatus = options.challengeRefusalStatus ?? 400;
    this.overlay = options.overlay ?? true;
    this.warmRuntimeCount = options.warmRuntimeCount ?? 1;
    this.apiKeys = options.apiKeys ?? [{ id: 'key-1', name: 'default', key_value: 'test-api-key' }];
    for (const { name, ...body } of options.installerConfigs ?? [DEFAULT_INSTALLER_CONFIG]) {
      this.installer.set(name, structuredClone(body) as WarmRuntimeConfigBody);
    }
    this.#clock = options.now ?? Date.now;
    this.reconcile();
  }

  now(): number {
    return this.#clock() + this.#offset;
  }

  /** Moves the service's clock forward (challenges and tokens expire by it). */
  advanceTime(ms: number): void {
    this.#offset += ms;
  }

  // ------------------------------------------------------------------------------------------------------
  // Admin login.

  /** `GET /api/admin/challenge`: a new single-use challenge (32 hex digits) with its own salt. */
  issueChallenge(): { challenge: string; salt: string; iterations: number } {
    const challenge = bytesToHex(randomBytes(16));
    const salt = bytesToHex(randomBytes(16));
    this.#challenges.set(challenge, {
      salt,
      iterations: this.iterations,
      expiresAt: this.now() + this.challengeTtlMs,
    });
    this.stats.challengesIssued++;
    return { challenge, salt, iterations: this.iterations };
  }

  /** `POST /api/admin/login`: consumes the challenge whatever the outcome. */
  async login(challenge: string, hash: string): Promise<LoginOutcome> {
    if (this.adminPassword === null)
      return { ok: false, status: 403, detail: 'Admin functionality is disabled' };
    const issued = this.#challenges.get(challenge);
    this.#challenges.delete(challenge);
    if (!issued || this.now() >= issued.expiresAt) {
      this.stats.loginsRefused++;
      return { ok: false, status: this.challengeRefusalStatus, detail: 'Invalid or expired challenge' };
    }
    const expected = bytesToHex(
      await pbkdf2Async(sha256, this.adminPassword, issued.salt + challenge, {
        c: issued.iterations,
        dkLen: 32,
      }),
    );
    if (hash !== expected) {
      this.stats.loginsRefused++;
      return { ok: false, status: 401, detail: 'Invalid admin password' };
    }
    this.stats.loginsSucceeded++;
    return { ok: true, token: this.issueToken() };
  }

  /** A signed admin JWT with `exp` = now + `tokenTtlMs`. */
  issueToken(): string {
    const issuedAt = Math.floor(this.now() / 1000);
    this.stats.tokensIssued++;
    return signJwt(
      {
        sub: 'admin',
        iat: issuedAt,
        exp: Math.floor((this.now() + this.tokenTtlMs) / 1000),
        jti: bytesToHex(randomBytes(8)),
      },
      this.#signingKey,
    );
  }

  /** True for a JWT this service signed that has not expired. */
  verifyToken(token: string): boolean {
    const claims = verifyJwt(token, this.#signingKey);
    return typeof claims?.exp === 'number' && this.now() < claims.exp * 1000;
  }

  /**
   * Rotating the admin password restarts the runtime API: outstanding challenges and tokens become
   * invalid. `null` disables admin functionality.
   */
  rotateAdminPassword(password: string | null): void {
    this.adminPassword = password;
    this.#challenges.clear();
    this.#signingKey = randomBytes(32);
  }

  /** True when `value` is the `key_value` of a stored API key. */
  isApiKey(value: string | null): boolean {
    return value !== null && this.apiKeys.some((key) => key.key_value === value);
  }

  // ------------------------------------------------------------------------------------------------------
  // Configurations.

  /** The effective set: installer entries merged with same-named API entries, the API entry winning. */
  effectiveConfigs(): WarmRuntimeConfig[] {
    const out: WarmRuntimeConfig[] = [];
    if (this.overlay) {
      for (const [name, body] of this.installer) {
        const override = this.db.get(name);
        out.push(
          override
            ? ({ name, source: 'db', ...structuredClone(override) } as WarmRuntimeConfig)
            : ({ name, source: 'file', ...structuredClone(body) } as WarmRuntimeConfig),
        );
      }
    }
    for (const [name, body] of this.db) {
      if (this.overlay && this.installer.has(name)) continue;
      out.push({ name, source: 'db', ...structuredClone(body) } as WarmRuntimeConfig);
    }
    return out;
  }

  /** The `source` the list would show for `name` (`absent` when not listed). */
  sourceOf(name: string): ConfigSource {
    return this.effectiveConfigs().find((config) => config.name === name)?.source ?? 'absent';
  }

  /** `PUT`: creates or overwrites the API entry. */
  put(name: string, body: WarmRuntimeConfigBody): WarmRuntimeConfig {
    const { name: _n, source: _s, ...rest } = structuredClone(body) as Record<string, unknown>;
    this.db.set(name, rest as WarmRuntimeConfigBody);
    return { name, source: 'db', ...structuredClone(rest) } as WarmRuntimeConfig;
  }

  /** `DELETE`: removes the API entry; false when there is none. */
  delete(name: string): boolean {
    return this.db.delete(name);
  }

  /** The pools as of the last reconciler cycle. */
  pools(): WarmPool[] {
    return [...this.#pools.values()].map((pool) => ({ ...pool }));
  }

  /**
   * One reconciler cycle (the chart's CronJob runs every minute): makes the pools match the effective set and
   * returns what changed: `started` for a new name, `replaced` when the image changed (old pods stopped, pods
   * on the new image started), `resized`, `removed`.
   */
  reconcile(): PoolChange[] {
    const next = new Map<string, WarmPool>();
    for (const config of this.effectiveConfigs()) {
      const count = typeof config.count === 'number' ? config.count : this.warmRuntimeCount;
      next.set(config.name, { name: config.name, image: config.image, count });
    }
    const changes: PoolChange[] = [];
    for (const [name, pool] of next) {
      const before = this.#pools.get(name);
      if (!before) changes.push({ ...pool, change: 'started' });
      else if (before.image !== pool.image) changes.push({ ...pool, change: 'replaced' });
      else if (before.count !== pool.count) changes.push({ ...pool, change: 'resized' });
    }
    for (const [name, pool] of this.#pools) {
      if (!next.has(name)) changes.push({ ...pool, change: 'removed' });
    }
    this.#pools = next;
    return changes;
  }
}
