import { readFileSync } from 'node:fs';
import { HttpResponse, http } from 'msw/http';
import { describe, expect, it } from 'vitest';
import {
  isAuthenticationError,
  isNotFoundError,
  isRequestValidationError,
  type RequestValidationError,
} from '../../src/core/errors.js';
import {
  isRuntimePreconditionError,
  isWarmRuntimeConfigNotFoundError,
  type RuntimePreconditionError,
  type WarmRuntimeConfigNotFoundError,
} from '../../src/runtime/index.js';
import { API_KEY, BASE, useRuntimeApi } from './helpers.js';

const shapes = JSON.parse(
  readFileSync(
    new URL('../fixtures/gateway-runtime-tracing/runtime-api-shapes.json', import.meta.url),
    'utf8',
  ),
);
const draftBody = JSON.parse(
  readFileSync(
    new URL('../fixtures/gateway-runtime-tracing/warm-runtime-config-body.docs-draft.json', import.meta.url),
    'utf8',
  ),
);
const putBody = shapes['PUT /api/admin/warm-runtime-configs/{name} request (no name/source)'];

const t = useRuntimeApi();

describe('listWarmRuntimeConfigs: X-API-Key, never the JWT', () => {
  it('sends the given API key and no Authorization header', async () => {
    const configs = await t.client({ apiKey: API_KEY }).listWarmRuntimeConfigs();
    expect(configs).toEqual([shapes['GET /api/warm-runtime-configs 200'].configs[0]]);
    expect(t.requests).toHaveLength(1);
    expect(t.requests[0]!.headers.get('x-api-key')).toBe(API_KEY);
    expect(t.requests[0]!.headers.has('authorization')).toBe(false);
  });

  it('without an API key: logs in, takes the key named default, and still sends only X-API-Key', async () => {
    t.state.apiKeys.unshift({ id: 7, name: 'ci', key_value: 'ci-key' });
    const client = t.client();
    await client.listWarmRuntimeConfigs();
    await client.listWarmRuntimeConfigs();
    expect(t.calls()).toEqual([
      'GET /api/admin/challenge',
      'POST /api/admin/login',
      'GET /api/admin/api-keys',
      'GET /api/warm-runtime-configs',
      'GET /api/warm-runtime-configs',
    ]);
    const lists = t.requests.filter((r) => new URL(r.url).pathname === '/api/warm-runtime-configs');
    for (const list of lists) {
      expect(list.headers.get('x-api-key')).toBe(API_KEY);
      expect(list.headers.has('authorization')).toBe(false);
    }
  });

  it('looks the default key up again once when it was rotated', async () => {
    const client = t.client();
    await client.listWarmRuntimeConfigs();
    t.state.apiKeys[0]!.key_value = 'rotated-key';
    await client.listWarmRuntimeConfigs();
    expect(t.requests.at(-1)!.headers.get('x-api-key')).toBe('rotated-key');
    expect(t.calls().filter((c) => c === 'GET /api/admin/api-keys')).toHaveLength(2);
  });

  it('no key named default → RuntimePreconditionError NO_DEFAULT_API_KEY', async () => {
    t.state.apiKeys.splice(0, 1, { id: 2, name: 'other', key_value: 'other-key' });
    const error = (await t
      .client()
      .listWarmRuntimeConfigs()
      .catch((e: unknown) => e)) as RuntimePreconditionError;
    expect(isRuntimePreconditionError(error)).toBe(true);
    expect(error.code).toBe('NO_DEFAULT_API_KEY');
    expect(error.message).toBe("No API key named 'default' returned by /api/admin/api-keys.");
  });

  it('no API key and no admin credentials → MISSING_API_KEY before any request', async () => {
    const error = (await t
      .client({ adminPassword: undefined })
      .listWarmRuntimeConfigs()
      .catch((e: unknown) => e)) as RuntimePreconditionError;
    expect(error.code).toBe('MISSING_API_KEY');
    expect(t.requests).toHaveLength(0);
  });

  it('an admin JWT given as the API key → 401 with a hint', async () => {
    const jwt = t.state.issueToken();
    const error = await t
      .client({ apiKey: jwt })
      .listWarmRuntimeConfigs()
      .catch((e: unknown) => e);
    expect(isAuthenticationError(error)).toBe(true);
    expect((error as Error).message).toContain('provide a valid API key');
    expect((error as Error).message).toContain('looks like an admin JWT');
    expect((error as Error).message).not.toContain(jwt);
  });

  it('keeps fields it does not know (a later template copies them)', async () => {
    t.state.installer.set('extra', { ...putBody, image: 'img:extra', node_selector: { pool: 'warm' } });
    const configs = await t.client({ apiKey: API_KEY }).listWarmRuntimeConfigs();
    expect(configs.find((c) => c.name === 'extra')).toMatchObject({ node_selector: { pool: 'warm' } });
  });
});

describe('listApiKeys', () => {
  it('returns the top-level array and redacts key values from later errors', async () => {
    const keys = await t.client().listApiKeys();
    expect(keys).toEqual([{ id: 'key-1', name: 'default', key_value: API_KEY }]);
    expect(t.requests.at(-1)!.headers.get('authorization')).toMatch(/^Bearer ey/);
  });

  it('accepts integer ids (the other public double)', async () => {
    t.state.apiKeys.splice(
      0,
      1,
      ...shapes['GET /api/admin/api-keys 200 (extensions test double: integer ids)'],
    );
    const keys = await t.client().listApiKeys();
    expect(keys.map((k) => k.id)).toEqual([1, 2]);
  });
});

describe('saveWarmRuntimeConfig', () => {
  it('PUTs the body with the admin JWT and answers the saved configuration', async () => {
    const saved = await t.client().saveWarmRuntimeConfig('php-web', putBody);
    expect(saved).toEqual(shapes['PUT /api/admin/warm-runtime-configs/{name} 200']);
    const put = t.requests.at(-1)!;
    expect(put.method).toBe('PUT');
    expect(new URL(put.url).pathname).toBe('/api/admin/warm-runtime-configs/php-web');
    expect(put.headers.get('authorization')).toMatch(/^Bearer /);
    expect(put.headers.has('x-api-key')).toBe(false);
    expect(put.headers.get('content-type')).toContain('application/json');
    expect(await put.json()).toEqual(putBody);
  });

  it('never sends name or source', async () => {
    await t.client().saveWarmRuntimeConfig('php-web', { ...putBody, name: 'other', source: 'file' });
    const body = (await t.requests.at(-1)!.json()) as Record<string, unknown>;
    expect(body).not.toHaveProperty('name');
    expect(body).not.toHaveProperty('source');
    expect(t.state.sourceOf('php-web')).toBe('db');
    expect(t.state.sourceOf('other')).toBe('absent');
  });

  it('URL-encodes the name like the helper (quote(name, safe=""))', async () => {
    await t.client().saveWarmRuntimeConfig('team a (v2)!', putBody);
    expect(new URL(t.requests.at(-1)!.url).pathname).toBe(
      '/api/admin/warm-runtime-configs/team%20a%20%28v2%29%21',
    );
    expect(t.state.sourceOf('team a (v2)!')).toBe('db');
    // A "/" would be decoded back into a path separator by the server: refused, nothing sent.
    const sent = t.requests.length;
    await expect(t.client().saveWarmRuntimeConfig('team/a', putBody)).rejects.toThrow(/^name: /);
    expect(t.requests.length).toBe(sent);
  });

  it('accepts the full draft-docs body (all optional fields)', async () => {
    const saved = await t.client().saveWarmRuntimeConfig('php-symfony', draftBody);
    expect(saved).toMatchObject({ ...draftBody, name: 'php-symfony', source: 'db' });
  });

  it('checks the required fields before sending', async () => {
    const error = (await t
      .client()
      .saveWarmRuntimeConfig('bad', { image: '', command: 'run', environment: { A: 1 }, count: -1 })
      .catch((e: unknown) => e)) as RequestValidationError;
    expect(isRequestValidationError(error)).toBe(true);
    expect(error.issues.map((i) => i.path.join('.')).sort()).toEqual(
      ['command', 'count', 'environment.A', 'image', 'working_dir'].sort(),
    );
    expect(t.requests).toHaveLength(0);
  });

  it.each(['', '.', '..'])('rejects the name %j before sending', async (name) => {
    const error = await t
      .client()
      .saveWarmRuntimeConfig(name, putBody)
      .catch((e: unknown) => e);
    expect(isRequestValidationError(error)).toBe(true);
    expect(t.requests).toHaveLength(0);
  });

  it('rejectSharedImage refuses an image another configuration uses (rule 1)', async () => {
    const body = { ...putBody, image: shapes['GET /api/warm-runtime-configs 200'].configs[0].image };
    const error = (await t
      .client()
      .saveWarmRuntimeConfig('copy', body, { rejectSharedImage: true })
      .catch((e: unknown) => e)) as RuntimePreconditionError;
    expect(error.code).toBe('SHARED_IMAGE');
    expect(error.message).toContain('v1_current');
    expect(t.calls()).not.toContain('PUT /api/admin/warm-runtime-configs/copy');
    // Re-saving the same name with its own image is fine.
    await t.client().saveWarmRuntimeConfig('v1_current', body, { rejectSharedImage: true });
  });
});

describe('deleteWarmRuntimeConfig', () => {
  it('answers the service message', async () => {
    t.state.put('php-web', putBody);
    const result = await t.client().deleteWarmRuntimeConfig('php-web');
    expect(result).toEqual({
      id: 'php-web',
      deleted: true,
      message: 'Configuration "php-web" deleted successfully',
    });
  });

  it('accepts 204 / an empty body', async () => {
    t.server.use(
      http.delete(
        `${BASE}/api/admin/warm-runtime-configs/:name`,
        () => new HttpResponse(null, { status: 204 }),
      ),
    );
    expect(await t.client().deleteWarmRuntimeConfig('gone')).toEqual({
      id: 'gone',
      deleted: true,
      message: 'Deleted gone',
    });
  });

  it('404 for an installer entry → WarmRuntimeConfigNotFoundError that says so', async () => {
    const error = (await t
      .client()
      .deleteWarmRuntimeConfig('v1_current')
      .catch((e: unknown) => e)) as WarmRuntimeConfigNotFoundError;
    expect(isWarmRuntimeConfigNotFoundError(error)).toBe(true);
    expect(isNotFoundError(error)).toBe(true);
    expect(error.status).toBe(404);
    expect(error.configName).toBe('v1_current');
    expect(error.message).toContain('No database entry named "v1_current"');
    expect(error.message).toContain('installer-managed entries');
    expect(error.body).toEqual({ detail: 'Configuration "v1_current" not found' });
  });
});

describe('template', () => {
  it('strips name and source, overrides image and count, keeps everything else', async () => {
    t.state.installer.set('v1_current', {
      ...putBody,
      image: 'base:1',
      count: 1,
      fuse_s3_mount: true,
      extra: 1,
    });
    const body = await t.client({ apiKey: API_KEY }).template('v1_current', { image: 'acme:2', count: 4 });
    expect(body).toEqual({ ...putBody, image: 'acme:2', count: 4, fuse_s3_mount: true, extra: 1 });
    expect(body).not.toHaveProperty('name');
    expect(body).not.toHaveProperty('source');
  });

  it('keeps the source count when no count is given', async () => {
    const body = await t.client({ apiKey: API_KEY }).template('v1_current', { image: 'acme:2' });
    expect(body.count).toBe(1);
  });

  it('an unknown source → UNKNOWN_CONFIG with the helper message and the known names', async () => {
    const error = (await t
      .client({ apiKey: API_KEY })
      .template('nope', { image: 'x' })
      .catch((e: unknown) => e)) as RuntimePreconditionError;
    expect(error.code).toBe('UNKNOWN_CONFIG');
    expect(error.message).toContain("No configuration named 'nope' in the effective set.");
    expect(error.message).toContain('v1_current');
  });

  it('without overlay mode the installer entries are not listed (chart installs), and the error says so', async () => {
    t.state.overlay = false;
    expect(await t.client({ apiKey: API_KEY }).listWarmRuntimeConfigs()).toEqual([]);
    const error = await t
      .client({ apiKey: API_KEY })
      .template('v1_current', { image: 'x' })
      .catch((e: unknown) => e);
    expect((error as Error).message).toContain('overlay');
  });

  it('rejects a negative count', async () => {
    const error = await t
      .client({ apiKey: API_KEY })
      .template('v1_current', { image: 'x', count: -2 })
      .catch((e: unknown) => e);
    expect(isRequestValidationError(error)).toBe(true);
  });

  it('template → save round trip', async () => {
    const client = t.client();
    const body = await client.template('v1_current', { image: 'ghcr.io/acme/php:8.4', count: 2 });
    await client.saveWarmRuntimeConfig('php', body);
    const listed = (await client.listWarmRuntimeConfigs()).find((c) => c.name === 'php');
    expect(listed).toMatchObject({
      source: 'db',
      image: 'ghcr.io/acme/php:8.4',
      count: 2,
      environment: { BASE: '1' },
    });
  });
});
