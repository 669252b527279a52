import { pbkdf2Sync } from 'node:crypto';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RuntimeApiState, runtimeApiHandlers, serveHandlers } from '../../src/testing.js';
import { claimsOf } from './helpers.js';

/** The fake service on its own, spoken to with plain fetch: it must behave like the real one. */
const BASE = 'http://fake-runtime.test';
const PASSWORD = 'pässwörd';
let state: RuntimeApiState;
let time: number;
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(() => server.close());
beforeEach(() => {
  time = Date.parse('2026-03-01T00:00:00Z');
  state = new RuntimeApiState({ adminPassword: PASSWORD, iterations: 500, now: () => time });
  server.resetHandlers(...runtimeApiHandlers({ baseUrl: BASE, state }));
});

const json = async (response: Response) => ({ status: response.status, body: await response.json() });
const challenge = async () =>
  (await (await fetch(`${BASE}/api/admin/challenge`)).json()) as {
    challenge: string;
    salt: string;
    iterations: number;
  };
const hashFor = (c: { challenge: string; salt: string; iterations: number }, password = PASSWORD) =>
  pbkdf2Sync(Buffer.from(password), Buffer.from(c.salt + c.challenge), c.iterations, 32, 'sha256').toString(
    'hex',
  );
const login = (body: unknown) =>
  fetch(`${BASE}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const token = async () => {
  const c = await challenge();
  return ((await (await login({ challenge: c.challenge, hash: hashFor(c) })).json()) as { token: string })
    .token;
};

describe('fake runtime API: admin login', () => {
  it('issues 32-hex challenges and salts with the configured iterations', async () => {
    const c = await challenge();
    expect(c.challenge).toMatch(/^[0-9a-f]{32}$/);
    expect(c.salt).toMatch(/^[0-9a-f]{32}$/);
    expect(c.iterations).toBe(500);
  });

  it('accepts the PBKDF2 hash of the configured password and returns a JWT with exp = now + 24 h', async () => {
    const c = await challenge();
    const { status, body } = await json(await login({ challenge: c.challenge, hash: hashFor(c) }));
    expect(status).toBe(200);
    const claims = claimsOf(body.token);
    expect(claims.exp).toBe(time / 1000 + 24 * 3600);
  });

  it('refuses a wrong password with 401 Invalid admin password', async () => {
    const c = await challenge();
    expect(await json(await login({ challenge: c.challenge, hash: hashFor(c, 'wrong') }))).toEqual({
      status: 401,
      body: { detail: 'Invalid admin password' },
    });
  });

  it('a challenge is single use, even after a failed attempt', async () => {
    const c = await challenge();
    await login({ challenge: c.challenge, hash: hashFor(c, 'wrong') });
    expect(await json(await login({ challenge: c.challenge, hash: hashFor(c) }))).toEqual({
      status: 400,
      body: { detail: 'Invalid or expired challenge' },
    });
    const d = await challenge();
    expect((await login({ challenge: d.challenge, hash: hashFor(d) })).status).toBe(200);
    expect((await login({ challenge: d.challenge, hash: hashFor(d) })).status).toBe(400);
  });

  it('a challenge expires after 5 minutes', async () => {
    const c = await challenge();
    time += 5 * 60_000 - 1;
    expect((await login({ challenge: c.challenge, hash: hashFor(c) })).status).toBe(200);
    const d = await challenge();
    time += 5 * 60_000;
    expect((await login({ challenge: d.challenge, hash: hashFor(d) })).status).toBe(400);
  });

  it('the refusal status can follow the spec (401)', async () => {
    state.challengeRefusalStatus = 401;
    expect((await login({ challenge: 'unknown', hash: 'x' })).status).toBe(401);
  });

  it('a login body without challenge or hash → 422 (FastAPI)', async () => {
    const { status, body } = await json(await login({ challenge: 'x' }));
    expect(status).toBe(422);
    expect(body.detail[0]).toMatchObject({ type: 'missing', loc: ['body', 'hash'], msg: 'Field required' });
  });

  it('no admin password → 403 Admin functionality is disabled', async () => {
    state.rotateAdminPassword(null);
    const c = await challenge();
    expect(await json(await login({ challenge: c.challenge, hash: 'x' }))).toEqual({
      status: 403,
      body: { detail: 'Admin functionality is disabled' },
    });
  });
});

describe('fake runtime API: admin routes take only the admin JWT', () => {
  it('a valid JWT lists the API keys as a top-level array', async () => {
    const jwt = await token();
    const { status, body } = await json(
      await fetch(`${BASE}/api/admin/api-keys`, { headers: { authorization: `Bearer ${jwt}` } }),
    );
    expect(status).toBe(200);
    expect(body).toEqual([{ id: 'key-1', name: 'default', key_value: 'test-api-key' }]);
  });

  it.each([
    ['no credential', {}, 'Not authenticated'],
    ['an API key', { 'x-api-key': 'test-api-key' }, 'Not authenticated'],
    ['a garbage bearer', { authorization: 'Bearer nope' }, 'invalid token'],
  ])('%s → 401', async (_label, headers, detail) => {
    expect(await json(await fetch(`${BASE}/api/admin/api-keys`, { headers }))).toEqual({
      status: 401,
      body: { detail },
    });
  });

  it('an expired JWT → 401 invalid token', async () => {
    const jwt = await token();
    time += 24 * 3600_000;
    const response = await fetch(`${BASE}/api/admin/api-keys`, {
      headers: { authorization: `Bearer ${jwt}` },
    });
    expect(await json(response)).toEqual({ status: 401, body: { detail: 'invalid token' } });
  });

  it('a JWT with a forged payload → 401', async () => {
    const jwt = await token();
    const [h, , s] = jwt.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ sub: 'admin', exp: 9e9 })).toString('base64url')}.${s}`;
    const response = await fetch(`${BASE}/api/admin/api-keys`, {
      headers: { authorization: `Bearer ${forged}` },
    });
    expect(response.status).toBe(401);
  });

  it('PUT with a body missing required fields → 422 naming them', async () => {
    const jwt = await token();
    const response = await fetch(`${BASE}/api/admin/warm-runtime-configs/x`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
      body: JSON.stringify({ image: 'x' }),
    });
    const { status, body } = await json(response);
    expect(status).toBe(422);
    expect(body.detail.map((d: { loc: string[] }) => d.loc[1])).toEqual([
      'working_dir',
      'command',
      'environment',
    ]);
  });

  it('PUT answers the saved configuration with name and source db; name/source in the body are ignored', async () => {
    const jwt = await token();
    const response = await fetch(`${BASE}/api/admin/warm-runtime-configs/a%2Fb`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'zzz',
        source: 'file',
        image: 'i',
        working_dir: '/',
        command: [],
        environment: {},
      }),
    });
    expect(await json(response)).toEqual({
      status: 200,
      body: { name: 'a/b', source: 'db', image: 'i', working_dir: '/', command: [], environment: {} },
    });
  });
});

describe('fake runtime API: the configuration list takes only X-API-Key', () => {
  it('an admin JWT → 401 provide a valid API key', async () => {
    const jwt = await token();
    const response = await fetch(`${BASE}/api/warm-runtime-configs`, {
      headers: { authorization: `Bearer ${jwt}` },
    });
    expect(await json(response)).toEqual({ status: 401, body: { detail: 'provide a valid API key' } });
  });

  it('a valid key lists the effective set with source', async () => {
    const response = await fetch(`${BASE}/api/warm-runtime-configs`, {
      headers: { 'x-api-key': 'test-api-key' },
    });
    const { body } = await json(response);
    expect(body.configs.map((c: { name: string; source: string }) => [c.name, c.source])).toEqual([
      ['v1_current', 'file'],
    ]);
  });

  it('logs which kind of credential each request carried', async () => {
    await fetch(`${BASE}/api/warm-runtime-configs`, { headers: { 'x-api-key': 'test-api-key' } });
    expect(state.log).toEqual([
      { method: 'GET', path: '/api/warm-runtime-configs', status: 200, bearer: false, apiKey: true },
    ]);
  });
});

describe('fake runtime API over real HTTP (serveHandlers)', () => {
  it('answers on loopback like in-process', async () => {
    server.close();
    try {
      const served = await serveHandlers(runtimeApiHandlers({ state }));
      try {
        const response = await fetch(`${served.url}/api/warm-runtime-configs`, {
          headers: { 'x-api-key': 'nope' },
        });
        expect(response.status).toBe(401);
        const ok = await fetch(`${served.url}/api/warm-runtime-configs`, {
          headers: { 'x-api-key': 'test-api-key' },
        });
        expect(((await ok.json()) as { configs: unknown[] }).configs).toHaveLength(1);
      } finally {
        await served.close();
      }
    } finally {
      server.listen({ onUnhandledFrame: 'error' });
    }
  });
});
