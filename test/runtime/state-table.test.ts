import { describe, expect, it } from 'vitest';
import { isWarmRuntimeConfigNotFoundError } from '../../src/runtime/index.js';
import { useRuntimeApi } from './helpers.js';

/** Every row of the source state table (docs/warm-pools.md), through the client and the fake service. */
const t = useRuntimeApi();
const body = (image: string, count = 1) => ({
  image,
  working_dir: '/workspace/project',
  command: ['/usr/local/bin/openhands-agent-server', '--port', '60000'],
  environment: { BASE: '1' },
  count,
});
const INSTALLER_IMAGE = 'ghcr.io/openhands/agent-server:1.46.0-python';

describe('warm-pool configuration source transitions', () => {
  it('row 1: absent + PUT (name not in installer entries) → db; a pool for the image is started', async () => {
    expect(t.state.sourceOf('php')).toBe('absent');
    await t.client().saveWarmRuntimeConfig('php', body('acme/php:1', 2));
    expect(t.state.sourceOf('php')).toBe('db');
    const listed = await t.client().listWarmRuntimeConfigs();
    expect(listed.find((c) => c.name === 'php')).toMatchObject({
      source: 'db',
      image: 'acme/php:1',
      count: 2,
    });
    expect(t.state.reconcile()).toEqual([{ name: 'php', change: 'started', image: 'acme/php:1', count: 2 }]);
  });

  it('row 2: file + PUT with the same name → db; the API entry overrides the installer entry', async () => {
    expect(t.state.sourceOf('v1_current')).toBe('file');
    await t.client().saveWarmRuntimeConfig('v1_current', body('acme/base:2', 3));
    expect(t.state.sourceOf('v1_current')).toBe('db');
    const listed = await t.client().listWarmRuntimeConfigs();
    expect(listed.filter((c) => c.name === 'v1_current')).toEqual([
      expect.objectContaining({ source: 'db', image: 'acme/base:2', count: 3 }),
    ]);
    expect(t.state.installer.get('v1_current')!.image).toBe(INSTALLER_IMAGE); // the installer entry is untouched
  });

  it('row 3: db + PUT with the same name → db; old pods stopped, pods on the new image started', async () => {
    await t.client().saveWarmRuntimeConfig('php', body('acme/php:1'));
    t.state.reconcile();
    await t.client().saveWarmRuntimeConfig('php', body('acme/php:2'));
    expect(t.state.sourceOf('php')).toBe('db');
    expect(t.state.reconcile()).toEqual([{ name: 'php', change: 'replaced', image: 'acme/php:2', count: 1 }]);
  });

  it('row 4: db + DELETE, an installer entry of that name exists → file; it is effective again next cycle', async () => {
    await t.client().saveWarmRuntimeConfig('v1_current', body('acme/base:2'));
    t.state.reconcile();
    const result = await t.client().deleteWarmRuntimeConfig('v1_current');
    expect(result.message).toBe('Configuration "v1_current" deleted successfully');
    expect(t.state.sourceOf('v1_current')).toBe('file');
    const listed = await t.client().listWarmRuntimeConfigs();
    expect(listed.find((c) => c.name === 'v1_current')).toMatchObject({
      source: 'file',
      image: INSTALLER_IMAGE,
    });
    expect(t.state.reconcile()).toEqual([
      { name: 'v1_current', change: 'replaced', image: INSTALLER_IMAGE, count: 1 },
    ]);
  });

  it('row 5: db + DELETE, no installer entry of that name → absent; the pool is removed', async () => {
    await t.client().saveWarmRuntimeConfig('php', body('acme/php:1'));
    t.state.reconcile();
    await t.client().deleteWarmRuntimeConfig('php');
    expect(t.state.sourceOf('php')).toBe('absent');
    expect((await t.client().listWarmRuntimeConfigs()).map((c) => c.name)).toEqual(['v1_current']);
    expect(t.state.reconcile()).toEqual([{ name: 'php', change: 'removed', image: 'acme/php:1', count: 1 }]);
  });

  it.each([
    ['absent', 'nope'],
    ['file only', 'v1_current'],
  ])('row 6 (%s): DELETE with no database entry → HTTP 404, unchanged', async (_label, name) => {
    const before = t.state.sourceOf(name);
    const error = await t
      .client()
      .deleteWarmRuntimeConfig(name)
      .catch((e: unknown) => e);
    expect(isWarmRuntimeConfigNotFoundError(error)).toBe(true);
    expect((error as { status: number }).status).toBe(404);
    expect(t.state.sourceOf(name)).toBe(before);
    expect(t.state.reconcile()).toEqual([]);
  });

  it('a second DELETE of the same name is a 404 (the database entry is gone)', async () => {
    await t.client().saveWarmRuntimeConfig('php', body('acme/php:1'));
    await t.client().deleteWarmRuntimeConfig('php');
    const error = await t
      .client()
      .deleteWarmRuntimeConfig('php')
      .catch((e: unknown) => e);
    expect(isWarmRuntimeConfigNotFoundError(error)).toBe(true);
  });
});
