import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { isRequestValidationError } from '../../src/core/errors.js';
import type { WarmRuntimeConfig } from '../../src/runtime/index.js';
import {
  checkEphemeralStorage,
  configsUsingImage,
  findSharedImages,
  parseQuantity,
  shellQuote,
  upgradeChecklist,
} from '../../src/runtime/index.js';
import { API_KEY, useRuntimeApi } from './helpers.js';

const GI = 2 ** 30;
const config = (name: string, image: string, extra: Partial<WarmRuntimeConfig> = {}): WarmRuntimeConfig => ({
  name,
  image,
  source: 'db',
  working_dir: '/workspace/project',
  command: ['agent'],
  environment: {},
  ...extra,
});

describe('rule 1: one image per selectable configuration', () => {
  it('finds every image shared by two or more configurations', () => {
    const configs = [config('a', 'img:1'), config('b', 'img:2'), config('c', 'img:1'), config('d', 'img:1')];
    expect(findSharedImages(configs)).toEqual([{ image: 'img:1', names: ['a', 'c', 'd'] }]);
    expect(findSharedImages([config('a', 'img:1'), config('b', 'img:2')])).toEqual([]);
  });

  it('configsUsingImage ignores the configuration being saved', () => {
    const configs = [config('a', 'img:1'), config('b', 'img:2')];
    expect(configsUsingImage(configs, 'a', 'img:1')).toEqual([]);
    expect(configsUsingImage(configs, 'c', 'img:1')).toEqual(['a']);
  });
});

describe('rule 2: pool sizes × 25Gi against node capacity', () => {
  it('fits', () => {
    const check = checkEphemeralStorage([config('a', 'i', { count: 2 }), config('b', 'j', { count: 4 })], {
      nodeCapacity: '150Gi',
    });
    expect(check).toMatchObject({ fits: true, pods: 6, requiredBytes: 150 * GI, capacityBytes: 150 * GI });
    expect(check.message).toBe('6 warm pods × 25Gi = 150Gi needed, 150Gi available: fits');
  });

  it('does not fit: pods would stay Pending', () => {
    const check = checkEphemeralStorage([config('a', 'i', { count: 5 }), config('b', 'j', { count: 2 })], {
      nodeCapacity: '160Gi',
    });
    expect(check.fits).toBe(false);
    expect(check.message).toContain('175Gi needed, 160Gi available');
    expect(check.message).toContain('Pending');
  });

  it('assumes the fallback count (3) where count is unset, and says so', () => {
    const check = checkEphemeralStorage([config('a', 'i'), config('b', 'j', { count: null })], {
      nodeCapacity: 1000 * GI,
    });
    expect(check.pods).toBe(6);
    expect(check.pools.map((p) => p.countAssumed)).toEqual([true, true]);
    expect(check.message).toContain('count 3 assumed for a, b');
    expect(checkEphemeralStorage([config('a', 'i')], { nodeCapacity: '1Ti', defaultCount: 1 }).pods).toBe(1);
  });

  it('takes another per-pod size', () => {
    const check = checkEphemeralStorage([config('a', 'i', { count: 4 })], {
      nodeCapacity: '40Gi',
      perPodStorage: '10Gi',
    });
    expect(check.fits).toBe(true);
  });

  it.each([
    ['25Gi', 25 * GI],
    ['1Ti', 2 ** 40],
    ['500G', 500e9],
    ['1.5Gi', 1.5 * GI],
    ['1e3', 1000],
    [' 512Mi ', 512 * 2 ** 20],
    [1024, 1024],
  ])('parses the quantity %j', (input, bytes) => {
    expect(parseQuantity(input)).toBe(bytes);
  });

  it.each(['', 'lots', '25 GB', '-1Gi', Number.NaN, -5])('rejects the quantity %j', (input) => {
    expect(() => parseQuantity(input as string)).toThrowError(/Kubernetes quantity/);
    try {
      parseQuantity(input as string);
    } catch (error) {
      expect(isRequestValidationError(error)).toBe(true);
    }
  });
});

describe('the upgrade checklist', () => {
  it('nothing to re-save without db configurations', () => {
    expect(upgradeChecklist([config('v1_current', 'base:1', { source: 'file' })])).toEqual([]);
  });

  it('rebuild images, re-derive every db configuration from v1_current keeping its count', () => {
    const steps = upgradeChecklist([
      config('v1_current', 'base:1', { source: 'file', count: 1 }),
      config('php', 'ghcr.io/acme/php:8.4', { count: 2 }),
      config('ruby', 'ghcr.io/acme/ruby:3', {}),
    ]);
    expect(steps.map((s) => [s.action, s.name ?? s.image])).toEqual([
      ['rebuild-image', 'ghcr.io/acme/php:8.4'],
      ['rebuild-image', 'ghcr.io/acme/ruby:3'],
      ['resave', 'php'],
      ['resave', 'ruby'],
    ]);
    expect(steps[2]!.command).toBe(
      'warm-pools template v1_current --image ghcr.io/acme/php:8.4 --count 2 | warm-pools save php -f -',
    );
    expect(steps[2]!.count).toBe(2);
    expect(steps[3]!.command).toBe(
      'warm-pools template v1_current --image ghcr.io/acme/ruby:3 | warm-pools save ruby -f -',
    );
    expect(steps[3]!.note).toContain('no count');
  });

  it('an override of v1_current is deleted first, then optionally refreshed, keeping its count', () => {
    const steps = upgradeChecklist(
      [config('v1_current', 'base:old', { count: 4 }), config("it's", 'img:x', { count: 1 })],
      { cli: 'npx warm-pools' },
    );
    expect(steps.map((s) => s.action)).toEqual([
      'rebuild-image',
      'delete-override',
      'refresh-override',
      'resave',
    ]);
    expect(steps[1]!.command).toBe('npx warm-pools delete v1_current');
    expect(steps[2]!.command).toBe(
      'npx warm-pools template v1_current --count 4 | npx warm-pools save v1_current -f -',
    );
    expect(steps[3]!.command).toBe(
      `npx warm-pools template v1_current --image img:x --count 1 | npx warm-pools save 'it'"'"'s' -f -`,
    );
  });
});

describe('shellQuote matches Python shlex.quote', () => {
  const samples = [
    '',
    'plain',
    'a b',
    "it's",
    'p@ss word;echo INJECTED',
    'key$(touch /tmp/pwned)',
    'é',
    'a\nb',
    '--x=1,2',
  ];
  it.each(samples)('%j', (value) => {
    const quoted = shellQuote(value);
    // The shell must read back the exact value.
    expect(execFileSync('sh', ['-c', `printf %s ${quoted}`]).toString()).toBe(value);
  });

  it('leaves safe values alone and quotes the rest like shlex', () => {
    expect(shellQuote('https://runtime-api.example.com')).toBe('https://runtime-api.example.com');
    expect(shellQuote('')).toBe("''");
    expect(shellQuote("it's")).toBe(`'it'"'"'s'`);
    expect(shellQuote('a b')).toBe("'a b'");
  });
});

describe('RuntimeAdminClient.checkPools', () => {
  const t = useRuntimeApi();

  it('runs the three checks on the effective set', async () => {
    const client = t.client({ apiKey: API_KEY });
    await client.saveWarmRuntimeConfig('copy', {
      image: 'ghcr.io/openhands/agent-server:1.46.0-python',
      working_dir: '/w',
      command: [],
      environment: {},
      count: 8,
    });
    const checks = await client.checkPools({ nodeCapacity: '200Gi' });
    expect(checks.sharedImages).toEqual([
      { image: 'ghcr.io/openhands/agent-server:1.46.0-python', names: ['v1_current', 'copy'] },
    ]);
    expect(checks.storage).toMatchObject({ fits: false, pods: 9 });
    expect(checks.upgrade.map((s) => s.action)).toEqual(['rebuild-image', 'resave']);
    expect((await client.checkPools()).storage).toBeUndefined();
  });
});
