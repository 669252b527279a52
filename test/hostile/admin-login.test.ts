import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  isAPIConnectionError,
  isAPIConnectionTimeoutError,
  isAPIUserAbortError,
  isRequestValidationError,
  isWarmRuntimeConfigNotFoundError,
} from '../../src/index.js';
import {
  computeAdminLoginHash,
  isPbkdf2IterationsError,
  type Pbkdf2IterationsError,
  RuntimeAdminClient,
} from '../../src/runtime/index.js';
import { hostileServer, type ServerStats } from './servers.js';

const PASSWORD = 'hostile-admin-password-4711';

function jwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}.c2lnbmF0dXJl`;
}

interface RuntimeBehaviour {
  iterations?: number;
  /** Delay before answering the challenge, in ms. */
  challengeDelay?: number;
  tokenLifetimeSeconds?: number;
  onDelete?: (req: IncomingMessage, res: ServerResponse, count: number) => void;
}

/** A runtime API of our own that accepts any hash and misbehaves as told. */
async function runtimeApi(behaviour: RuntimeBehaviour = {}) {
  const counts = { challenges: 0, logins: 0, deletes: 0 };
  const server = await hostileServer((req, res, _stats: ServerStats) => {
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method === 'GET' && path === '/api/admin/challenge') {
      counts.challenges++;
      const answer = () =>
        json(200, {
          challenge: `c${counts.challenges}`,
          salt: 'ab',
          iterations: behaviour.iterations ?? 10_000,
        });
      if (behaviour.challengeDelay) setTimeout(answer, behaviour.challengeDelay).unref();
      else answer();
    } else if (req.method === 'POST' && path === '/api/admin/login') {
      counts.logins++;
      req.resume();
      const now = Math.floor(Date.now() / 1000);
      json(200, {
        token: jwt({ sub: 'admin', iat: now, exp: now + (behaviour.tokenLifetimeSeconds ?? 86_400) }),
      });
    } else if (req.method === 'GET' && path === '/api/admin/api-keys') {
      json(200, [{ id: 1, name: 'default', key_value: 'default-key-0123456789' }]);
    } else if (req.method === 'DELETE' && path.startsWith('/api/admin/warm-runtime-configs/')) {
      counts.deletes++;
      behaviour.onDelete?.(req, res, counts.deletes);
    } else json(404, { detail: 'Not Found' });
  });
  const client = (options: ConstructorParameters<typeof RuntimeAdminClient>[0] = {}) =>
    new RuntimeAdminClient({
      baseUrl: server.url,
      adminPassword: PASSWORD,
      env: false,
      logLevel: 'off',
      maxRetryDelay: 10,
      ...options,
    });
  return { server, counts, client };
}

describe('shared admin login: per-caller abort and timeout', () => {
  it('one caller aborting does not fail the others sharing the handshake', async () => {
    const { client, counts } = await runtimeApi({ challengeDelay: 300 });
    const admin = client();
    const controllers = Array.from({ length: 10 }, () => new AbortController());
    const calls = controllers.map((controller) => admin.login({ signal: controller.signal }));
    controllers[0]?.abort();
    const results = await Promise.allSettled(calls);
    expect(results[0]?.status).toBe('rejected');
    expect(isAPIUserAbortError((results[0] as PromiseRejectedResult).reason)).toBe(true);
    expect(results.slice(1).every((result) => result.status === 'fulfilled')).toBe(true);
    expect(counts.challenges).toBe(1);
  });

  it("the first caller's short timeout ends its own wait only", async () => {
    const { client } = await runtimeApi({ challengeDelay: 400 });
    const admin = client();
    const hasty = admin.login({ timeout: 100 });
    const patient = admin.login({ timeout: 10_000 });
    const [first, second] = await Promise.allSettled([hasty, patient]);
    expect(isAPIConnectionTimeoutError((first as PromiseRejectedResult).reason)).toBe(true);
    expect(second.status).toBe('fulfilled');
  });

  it('the handshake stops once every caller has stopped waiting', async () => {
    const { client, counts } = await runtimeApi({ challengeDelay: 300 });
    const admin = client();
    const controller = new AbortController();
    const call = admin.login({ signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(call).rejects.toSatisfy(isAPIUserAbortError);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(counts.logins).toBe(0);
  });

  it('a shared default-key lookup honours each caller too', async () => {
    const { client } = await runtimeApi({ challengeDelay: 300 });
    const admin = client();
    const controller = new AbortController();
    const aborted = admin.listWarmRuntimeConfigs({ signal: controller.signal });
    const other = admin.checkPools().catch((error: unknown) => error);
    controller.abort();
    await expect(aborted).rejects.toSatisfy(isAPIUserAbortError);
    // The other caller went on to list configurations (our server has none: a 404, not an abort).
    expect(isAPIUserAbortError(await other)).toBe(false);
  });
});

describe('PBKDF2 iterations chosen by the server', () => {
  it.each([1, 2, 1_000, 9_999])(
    '%i (below the floor of 10 000) is refused before hashing; nothing is sent',
    async (iterations) => {
      const { client, counts } = await runtimeApi({ iterations });
      const error = await client()
        .login()
        .catch((e: unknown) => e);
      expect(isPbkdf2IterationsError(error)).toBe(true);
      expect(error).toMatchObject({ iterations, limit: 10_000, bound: 'min' });
      expect(counts.logins).toBe(0);
    },
  );

  it('the floor is an option (for a service configured with fewer rounds)', async () => {
    const { client } = await runtimeApi({ iterations: 1_000 });
    await expect(client({ minPbkdf2Iterations: 1_000 }).login()).resolves.toMatch(/^eyJ/);
    expect(() => client({ minPbkdf2Iterations: 0 })).toThrow(/minPbkdf2Iterations/);
  });

  it('2^31−1 is refused with Pbkdf2IterationsError before hashing', async () => {
    const { client, counts } = await runtimeApi({ iterations: 2 ** 31 - 1 });
    const error = await client()
      .login()
      .catch((e: unknown) => e);
    expect(isPbkdf2IterationsError(error)).toBe(true);
    expect((error as Pbkdf2IterationsError).iterations).toBe(2 ** 31 - 1);
    expect(counts.logins).toBe(0);
  });

  it('2^53−1 is a typed error, not a bare TypeError', async () => {
    const { client } = await runtimeApi({ iterations: 2 ** 53 - 1 });
    const error = await client()
      .login()
      .catch((e: unknown) => e);
    expect(isPbkdf2IterationsError(error)).toBe(true);
  });

  it('the ceiling is configurable', async () => {
    const { client } = await runtimeApi({ iterations: 20_000 });
    expect(
      isPbkdf2IterationsError(
        await client({ maxPbkdf2Iterations: 19_000 })
          .login()
          .catch((e) => e),
      ),
    ).toBe(true);
    await expect(client({ maxPbkdf2Iterations: 20_000 }).login()).resolves.toMatch(/^eyJ/);
    expect(
      isRequestValidationError(
        await Promise.resolve()
          .then(() => client({ maxPbkdf2Iterations: -1 }))
          .catch((e) => e),
      ),
    ).toBe(true);
  });

  it('abort stops the JS hash between blocks of rounds', async () => {
    // A signal that turns aborted after its first read (the check before any work): the next read is the
    // check between two blocks of rounds, long before 9 million rounds are done.
    let reads = 0;
    const signal = {
      get aborted() {
        reads += 1;
        return reads > 1;
      },
      reason: new Error('stopped'),
    } as unknown as AbortSignal;
    const error = await computeAdminLoginHash('pw', 'salt', 'challenge', 9_000_000, {
      engine: 'js',
      signal,
    }).catch((e: unknown) => e);
    expect(isAPIUserAbortError(error)).toBe(true);
    expect(reads).toBe(2);
  });

  it('abort releases the caller of a WebCrypto hash at once', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await computeAdminLoginHash('pw', 'salt', 'challenge', 1_000, {
      engine: 'webcrypto',
      signal: controller.signal,
    }).catch((e: unknown) => e);
    expect(isAPIUserAbortError(error)).toBe(true);
  });
});

describe('DELETE whose answer is lost', () => {
  it('is not retried into a misleading NotFound', async () => {
    const { client, counts } = await runtimeApi({
      onDelete: (_req, res, count) => {
        // The first DELETE takes effect, then the connection drops before the answer; later ones 404.
        if (count === 1) res.socket?.destroy();
        else {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ detail: 'Warm runtime config not found' }));
        }
      },
    });
    const error = await client({ maxRetries: 3 })
      .deleteWarmRuntimeConfig('pool-a')
      .catch((e: unknown) => e);
    expect(isWarmRuntimeConfigNotFoundError(error)).toBe(false);
    expect(isAPIConnectionError(error)).toBe(true);
    expect(counts.deletes).toBe(1);
  });
});

describe('refresh margin and short-lived tokens', () => {
  it('a token living 30 s (less than the 60 s margin) is reused, not replaced on every call', async () => {
    const { client, counts } = await runtimeApi({ tokenLifetimeSeconds: 30 });
    const admin = client();
    for (let i = 0; i < 5; i++) await admin.listApiKeys();
    expect(counts.logins).toBe(1);
  });

  it('an adminToken living 30 s is used rather than replaced by a login', async () => {
    const { client, counts } = await runtimeApi();
    const now = Math.floor(Date.now() / 1000);
    const admin = client({ adminToken: jwt({ sub: 'admin', iat: now, exp: now + 30 }) });
    for (let i = 0; i < 3; i++) await admin.listApiKeys();
    expect(counts.logins).toBe(0);
  });
});

describe('clock skew between the client and the runtime API', () => {
  it.each([
    ['2 hours ahead', 2 * 3_600_000],
    ['25 hours ahead (past the token lifetime)', 25 * 3_600_000],
    ['3 hours behind', -3 * 3_600_000],
  ])('a client clock %s logs in once for 20 admin calls', async (_label, skew) => {
    const { client, counts } = await runtimeApi();
    const admin = client({ now: () => Date.now() + skew });
    for (let i = 0; i < 20; i++) await admin.listApiKeys();
    expect(counts.logins).toBe(1);
    // The token's 24 hours (on the server's clock) are counted from its receipt, on the local clock.
    expect(admin.tokenExpiresAt! - (Date.now() + skew)).toBeGreaterThan(23 * 3_600_000);
  });

  it('a short-lived token is still replaced before it expires on the server', async () => {
    const { client, counts } = await runtimeApi({ tokenLifetimeSeconds: 120 });
    let now = Date.now() + 5 * 3_600_000;
    const admin = client({ now: () => now });
    await admin.listApiKeys();
    now += 61_000;
    await admin.listApiKeys();
    expect(counts.logins).toBe(2);
  });
});
