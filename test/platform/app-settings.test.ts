// The settings, profile-management and secrets routes of PlatformClient against the msw double, with the walk
// the real app passes in test/conformance/platform-app.test.ts, plus what only the SDK checks.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { isRequestValidationError } from '../../src/core/errors.js';
import { PlatformClient } from '../../src/platform/index.js';
import { PlatformStore, platformHandlers } from '../../src/testing.js';
import { useMswServer } from '../helpers/msw.js';
import { freshUserSettingsAndProfiles, PROFILE, secretsRoundTrip } from './app-settings-scenario.js';

const APP = 'https://app.platform.test';
const store = new PlatformStore({ freshUser: true });
const { requests } = useMswServer(...platformHandlers({ baseUrl: APP, store }));

function client(lines: string[] = []) {
  const log = (line: string) => lines.push(line);
  return new PlatformClient({
    baseUrl: APP,
    logLevel: 'debug',
    logger: { error: log, warn: log, info: log, debug: log },
  });
}

describe('platform app settings, profiles and secrets (double)', () => {
  it('a fresh user: 404 until settings are stored, then the profile life cycle as the real app answers it', async () => {
    await freshUserSettingsAndProfiles(client());
  });

  it('secrets: create, list in name order page by page, rename, refuse a taken name, delete', async () => {
    const lines: string[] = [];
    await secretsRoundTrip(client(lines));
    expect(lines.join('\n')).not.toContain('sk-secret-value-1');
  });

  it('sends the wire shapes: rename body new_name, secret search query, no key in any log line', async () => {
    const lines: string[] = [];
    const platform = client(lines);
    await platform.saveLlmProfile('p1', PROFILE);
    await platform.renameLlmProfile('p1', 'p2');
    const rename = requests.find((r) => r.url.endsWith('/profiles/p1/rename'));
    expect(await rename?.json()).toEqual({ new_name: 'p2' });
    for await (const _ of platform.listSecrets({ nameContains: 'x', pageSize: 5 })) break;
    expect(requests.at(-1)?.url).toBe(`${APP}/api/v1/secrets/search?name__contains=x&limit=5`);
    expect(lines.join('\n') + inspect(platform)).not.toContain(PROFILE.llm.api_key);
    await platform.deleteLlmProfile('p2');
  });

  it('bad names, bodies and page sizes are RequestValidationErrors, nothing sent', async () => {
    const platform = client();
    const before = requests.length;
    for (const run of [
      () => platform.renameLlmProfile('ok', 'not ok'),
      () => platform.activateLlmProfile('../x'),
      () => platform.deleteSecret('bad-name'),
      () => platform.updateSecret('OK', { name: '1X' }),
      () => platform.saveSecret({ name: 'OK', value: '' }),
      () => platform.saveSettings([] as never),
      () => platform.listSecrets({ pageSize: 101 }),
      () => platform.saveLlmProfile('p', { llm: { model: 'm', api_key: 7 as never } }),
    ] as (() => unknown)[]) {
      const error = await Promise.resolve()
        .then(run)
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(isRequestValidationError(error)).toBe(true);
    }
    expect(requests.length).toBe(before);
  });
});
