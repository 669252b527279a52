import { inspect } from 'node:util';
import { HttpResponse, http } from 'msw/http';
import { afterEach, describe, expect, it } from 'vitest';
import { isAuthenticationError, isPermissionDeniedError } from '../../src/core/errors.js';
import {
  ADMIN_TOKEN_LIFETIME_MS,
  type AdminDisabledError,
  type AdminLoginError,
  computeAdminLoginHash,
  isAdminDisabledError,
  isAdminLoginError,
  isRuntimePreconditionError,
  RuntimeAdminClient,
  type RuntimePreconditionError,
} from '../../src/runtime/index.js';
import { BASE, claimsOf, PASSWORD, useRuntimeApi } from './helpers.js';

const t = useRuntimeApi();
const CHALLENGE = `${BASE}/api/admin/challenge`;
const HOUR = 60 * 60 * 1000;

describe('login: the challenge-response handshake', () => {
  it('GET challenge, PBKDF2 hash, POST login → a JWT valid 24 hours', async () => {
    const client = t.client();
    const token = await client.login();
    expect(t.calls()).toEqual(['GET /api/admin/challenge', 'POST /api/admin/login']);
    const post = t.requests[1]!;
    const body = (await post.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['challenge', 'hash']);
    expect(body.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(post.headers.get('content-type')).toContain('application/json');
    expect(post.headers.has('authorization')).toBe(false);
    expect(post.headers.has('x-api-key')).toBe(false);
    expect(t.state.verifyToken(token)).toBe(true);
    expect(claimsOf(token).exp).toBe((t.clock.now() + 24 * HOUR) / 1000);
    expect(client.tokenExpiresAt).toBe(t.clock.now() + 24 * HOUR);
  });

  it('hashes with the iterations the challenge announces', async () => {
    t.state.iterations = 12_345;
    let challenge: { challenge: string; salt: string; iterations: number } | undefined;
    t.server.use(
      http.get(CHALLENGE, () => {
        challenge = t.state.issueChallenge();
        return HttpResponse.json(challenge);
      }),
    );
    await t.client().login();
    const body = (await t.requests[1]!.json()) as { hash: string };
    expect(challenge!.iterations).toBe(12_345);
    expect(body.hash).toBe(
      await computeAdminLoginHash(PASSWORD, challenge!.salt, challenge!.challenge, 12_345),
    );
  });

  it('concurrent calls share one handshake', async () => {
    const client = t.client();
    const tokens = await Promise.all([client.login(), client.listApiKeys(), client.listApiKeys()]);
    expect(t.state.stats.challengesIssued).toBe(1);
    expect(typeof tokens[0]).toBe('string');
  });

  it('wrong password → AdminLoginError reason password, after one attempt', async () => {
    const error = (await t
      .client({ adminPassword: 'nope' })
      .login()
      .catch((e: unknown) => e)) as AdminLoginError;
    expect(isAdminLoginError(error)).toBe(true);
    expect(isAuthenticationError(error)).toBe(true);
    expect(error.reason).toBe('password');
    expect(error.status).toBe(401);
    expect(error.message).toContain('wrong admin password');
    expect(t.state.stats.challengesIssued).toBe(1);
  });

  it('the password never shows in errors, logs or inspect output', async () => {
    const logged: string[] = [];
    const logger = { error: push, warn: push, info: push, debug: push };
    function push(message: string, ...rest: unknown[]) {
      logged.push([message, ...rest.map((r) => JSON.stringify(r))].join(' '));
    }
    const client = t.client({ adminPassword: 'nope-secret-password', logger, logLevel: 'debug' });
    const error = await client.login().catch((e: unknown) => e);
    const shown = [
      JSON.stringify(error),
      String(error),
      inspect(client),
      JSON.stringify(client),
      ...logged,
    ].join('\n');
    expect(shown).not.toContain('nope-secret-password');
    expect(JSON.stringify(client)).toContain('[redacted]');
  });
});

describe('token lifecycle', () => {
  it('reuses the JWT for later admin calls', async () => {
    const client = t.client();
    await client.listApiKeys();
    await client.listApiKeys();
    await client.saveWarmRuntimeConfig('a', {
      image: 'img:a',
      working_dir: '/w',
      command: ['x'],
      environment: {},
    });
    expect(t.state.stats.challengesIssued).toBe(1);
    const bearers = t.requests
      .filter((r) => r.headers.has('authorization'))
      .map((r) => r.headers.get('authorization'));
    expect(new Set(bearers).size).toBe(1);
  });

  it('logs in again shortly before the exp claim (default margin 60 s)', async () => {
    const client = t.client();
    await client.listApiKeys();
    t.clock.advance(24 * HOUR - 120_000);
    await client.listApiKeys();
    expect(t.state.stats.challengesIssued).toBe(1);
    t.clock.advance(70_000); // 50 s before expiry: inside the margin
    await client.listApiKeys();
    expect(t.state.stats.challengesIssued).toBe(2);
    expect(t.state.log.filter((e) => e.status === 401)).toHaveLength(0);
  });

  it('honours a shorter exp claim than 24 hours', async () => {
    t.state.tokenTtlMs = HOUR;
    const client = t.client({ tokenRefreshMargin: 0 });
    await client.listApiKeys();
    expect(client.tokenExpiresAt).toBe(t.clock.now() + HOUR);
    t.clock.advance(HOUR);
    await client.listApiKeys();
    expect(t.state.stats.challengesIssued).toBe(2);
  });

  it('without an exp claim the token is kept 24 hours', async () => {
    const opaque = 'opaque-admin-token';
    t.server.use(
      http.post(`${BASE}/api/admin/login`, () => HttpResponse.json({ token: opaque })),
      http.get(`${BASE}/api/admin/api-keys`, ({ request }) =>
        request.headers.get('authorization') === `Bearer ${opaque}`
          ? HttpResponse.json([])
          : HttpResponse.json({ detail: 'invalid token' }, { status: 401 }),
      ),
    );
    const client = t.client();
    await client.listApiKeys();
    expect(client.tokenExpiresAt).toBe(t.clock.now() + ADMIN_TOKEN_LIFETIME_MS);
    t.clock.advance(23 * HOUR);
    await client.listApiKeys();
    expect(t.state.stats.challengesIssued).toBe(1);
    t.clock.advance(HOUR);
    await client.listApiKeys();
    expect(t.state.stats.challengesIssued).toBe(2);
  });

  it('a 401 from an admin route (service restarted, tokens void) → one new login and a retry', async () => {
    const client = t.client();
    await client.listApiKeys();
    t.state.rotateAdminPassword(PASSWORD); // restart: the signing key changes
    const keys = await client.listApiKeys();
    expect(keys[0]!.name).toBe('default');
    expect(t.calls()).toEqual([
      'GET /api/admin/challenge',
      'POST /api/admin/login',
      'GET /api/admin/api-keys',
      'GET /api/admin/api-keys',
      'GET /api/admin/challenge',
      'POST /api/admin/login',
      'GET /api/admin/api-keys',
    ]);
    expect(t.state.log.map((e) => e.status)).toEqual([200, 200, 200, 401, 200, 200, 200]);
  });

  it('a second 401 is not retried again', async () => {
    t.server.use(
      http.get(`${BASE}/api/admin/api-keys`, () =>
        HttpResponse.json({ detail: 'invalid token' }, { status: 401 }),
      ),
    );
    const error = await t
      .client()
      .listApiKeys()
      .catch((e: unknown) => e);
    expect(isAuthenticationError(error)).toBe(true);
    expect(t.calls().filter((c) => c === 'GET /api/admin/api-keys')).toHaveLength(2);
    expect(t.state.stats.challengesIssued).toBe(2);
  });

  it('logout() forgets the token', async () => {
    const client = t.client();
    await client.listApiKeys();
    client.logout();
    expect(client.tokenExpiresAt).toBeUndefined();
    await client.listApiKeys();
    expect(t.state.stats.challengesIssued).toBe(2);
  });
});

describe('challenges are single use and live 5 minutes', () => {
  it('a challenge that expired before the login is replaced by a fresh one, once', async () => {
    let served = 0;
    t.server.use(
      http.get(CHALLENGE, () => {
        const challenge = t.state.issueChallenge();
        // The first challenge goes stale while the client hashes (the 5-minute lifetime passes).
        if (served++ === 0) t.state.advanceTime(5 * 60_000);
        return HttpResponse.json(challenge);
      }),
    );
    const token = await t.client().login();
    expect(t.state.verifyToken(token)).toBe(true);
    expect(t.state.stats).toMatchObject({ challengesIssued: 2, loginsRefused: 1, loginsSucceeded: 1 });
    expect(t.calls()).toEqual([
      'GET /api/admin/challenge',
      'POST /api/admin/login',
      'GET /api/admin/challenge',
      'POST /api/admin/login',
    ]);
    expect(t.state.log.map((e) => `${e.method} ${e.status}`)).toEqual(['POST 400', 'POST 200']);
  });

  it('a reused challenge (replayed by a cache) is refused and replaced, once', async () => {
    let served = 0;
    let first: ReturnType<typeof t.state.issueChallenge> | undefined;
    t.server.use(
      http.get(CHALLENGE, () => {
        // A stale cache in front of the service serves the first challenge twice.
        if (++served <= 2) {
          first ??= t.state.issueChallenge();
          return HttpResponse.json(first);
        }
        return HttpResponse.json(t.state.issueChallenge());
      }),
    );
    const client = t.client();
    await client.login();
    const token = await client.login();
    expect(t.state.verifyToken(token)).toBe(true);
    expect(served).toBe(3);
    expect(t.state.log.map((e) => `${e.method} ${e.status}`)).toEqual(['POST 200', 'POST 400', 'POST 200']);
  });

  it('the spec variant (401 for an expired challenge) recovers the same way', async () => {
    t.state.challengeRefusalStatus = 401;
    let served = 0;
    t.server.use(
      http.get(CHALLENGE, () => {
        const challenge = t.state.issueChallenge();
        if (served++ === 0) t.state.advanceTime(5 * 60_000 + 1);
        return HttpResponse.json(challenge);
      }),
    );
    await t.client().login();
    expect(served).toBe(2);
    expect(t.state.log.map((e) => `${e.method} ${e.status}`)).toEqual(['POST 401', 'POST 200']);
  });

  it('refused twice → AdminLoginError reason challenge; no third attempt', async () => {
    t.server.use(
      http.get(CHALLENGE, () => {
        const challenge = t.state.issueChallenge();
        t.state.advanceTime(6 * 60_000);
        return HttpResponse.json(challenge);
      }),
    );
    const error = (await t
      .client()
      .login()
      .catch((e: unknown) => e)) as AdminLoginError;
    expect(isAdminLoginError(error)).toBe(true);
    expect(error.reason).toBe('challenge');
    expect(error.status).toBe(400);
    expect(t.state.stats.challengesIssued).toBe(2);
  });

  it('a POST login is never retried automatically (it consumes the challenge)', async () => {
    let posts = 0;
    t.server.use(
      http.post(`${BASE}/api/admin/login`, () => {
        posts++;
        return HttpResponse.json({ detail: 'temporarily unavailable' }, { status: 503 });
      }),
    );
    const error = await t
      .client({ maxRetries: 3 })
      .login()
      .catch((e: unknown) => e);
    expect((error as { status?: number }).status).toBe(503);
    expect(posts).toBe(1);
  });
});

describe('admin functionality disabled (no admin password on the service)', () => {
  it('403 on login → AdminDisabledError with the spec message', async () => {
    t.state.rotateAdminPassword(null);
    const error = (await t
      .client()
      .login()
      .catch((e: unknown) => e)) as AdminDisabledError;
    expect(isAdminDisabledError(error)).toBe(true);
    expect(isPermissionDeniedError(error)).toBe(true);
    expect(error.status).toBe(403);
    expect(error.message).toContain('Admin functionality is disabled');
    expect(t.state.stats.challengesIssued).toBe(1);
  });

  it('403 on the challenge → AdminDisabledError too', async () => {
    t.server.use(
      http.get(CHALLENGE, () =>
        HttpResponse.json({ detail: 'Admin functionality is disabled' }, { status: 403 }),
      ),
    );
    const error = await t
      .client()
      .listApiKeys()
      .catch((e: unknown) => e);
    expect(isAdminDisabledError(error)).toBe(true);
  });

  it('403 on an admin route with an admin token → AdminDisabledError', async () => {
    const token = t.state.issueToken();
    t.state.rotateAdminPassword(null);
    const error = await t
      .client({ adminPassword: undefined, adminToken: token })
      .listApiKeys()
      .catch((e: unknown) => e);
    expect(isAdminDisabledError(error)).toBe(true);
  });
});

describe('adminToken', () => {
  it('skips the handshake', async () => {
    const token = t.state.issueToken();
    const client = t.client({ adminPassword: undefined, adminToken: token });
    await client.listApiKeys();
    await client.deleteWarmRuntimeConfig('x').catch(() => undefined);
    expect(t.state.stats.challengesIssued).toBe(0);
    expect(t.requests.every((r) => r.headers.get('authorization') === `Bearer ${token}`)).toBe(true);
  });

  it('refused without a password → AuthenticationError that says what to do', async () => {
    const token = t.state.issueToken();
    t.clock.advance(25 * HOUR);
    const error = await t
      .client({ adminPassword: undefined, adminToken: token })
      .listApiKeys()
      .catch((e: unknown) => e);
    expect(isAuthenticationError(error)).toBe(true);
    expect((error as Error).message).toContain('admin token was refused');
    expect((error as Error).message).toContain('ADMIN_PASSWORD');
    expect(t.state.stats.challengesIssued).toBe(0);
  });

  it('refused with a password → the client logs in and carries on', async () => {
    const token = t.state.issueToken();
    t.state.rotateAdminPassword(PASSWORD);
    const client = t.client({ adminToken: token });
    await client.listApiKeys();
    await client.listApiKeys();
    expect(t.state.stats.challengesIssued).toBe(1);
    expect(t.state.log.map((e) => e.status)).toEqual([401, 200, 200, 200, 200]);
  });

  it('an adminToken past its exp is replaced by a login when a password is configured', async () => {
    const token = t.state.issueToken();
    t.clock.advance(24 * HOUR);
    await t.client({ adminToken: token }).listApiKeys();
    expect(t.calls()).toEqual([
      'GET /api/admin/challenge',
      'POST /api/admin/login',
      'GET /api/admin/api-keys',
    ]);
  });

  it('a function credential is asked for each call', async () => {
    let asked = 0;
    const token = t.state.issueToken();
    const client = t.client({
      adminPassword: undefined,
      adminToken: () => {
        asked++;
        return token;
      },
    });
    await client.listApiKeys();
    await client.listApiKeys();
    expect(asked).toBe(2);
  });
});

describe('configuration of the client', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it('no password and no token → RuntimePreconditionError before any request', async () => {
    const error = (await t
      .client({ adminPassword: undefined })
      .listApiKeys()
      .catch((e: unknown) => e)) as RuntimePreconditionError;
    expect(isRuntimePreconditionError(error)).toBe(true);
    expect(error.code).toBe('MISSING_ADMIN_CREDENTIALS');
    expect(t.requests).toHaveLength(0);
  });

  it('reads RUNTIME_API_URL, ADMIN_PASSWORD and API_KEY from process.env', async () => {
    process.env.RUNTIME_API_URL = `${BASE}/`;
    process.env.ADMIN_PASSWORD = PASSWORD;
    process.env.API_KEY = 'test-api-key';
    const client = new RuntimeAdminClient({ logLevel: 'off' });
    expect(client.baseUrl).toBe(BASE);
    await client.listApiKeys();
    await client.listWarmRuntimeConfigs();
    expect(t.requests.at(-1)!.headers.get('x-api-key')).toBe('test-api-key');
    expect(t.state.stats.loginsSucceeded).toBe(1);
  });

  it('env: false ignores the environment: a missing baseUrl is a RequestValidationError naming it', () => {
    process.env.RUNTIME_API_URL = BASE;
    expect(() => new RuntimeAdminClient({ env: false })).toThrow(
      expect.objectContaining({ name: 'RequestValidationError', message: expect.stringMatching(/baseUrl/) }),
    );
  });
});
