// One walk through the platform app's settings, LLM-profile and secrets routes, from a user who never stored
// settings. The same assertions run against the msw double (test/platform/app-settings.test.ts) and the real
// app (test/conformance/platform-app.test.ts), so the double answers as the real app does.
import { expect } from 'vitest';
import {
  type APIError,
  isBadRequestError,
  isConflictError,
  isNotFoundError,
  isRequestValidationError,
  isUnprocessableEntityError,
} from '../../src/core/errors.js';
import type { AppSecret, LlmProfileWrite, PlatformClient } from '../../src/platform/index.js';

async function failure(run: Promise<unknown>): Promise<APIError> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!error) throw new Error('expected the call to fail');
  return error as APIError;
}

async function all<T>(list: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of list) items.push(item);
  return items;
}

export const PROFILE: LlmProfileWrite = {
  llm: {
    model: 'compat/team-model',
    api_key: 'sk-profile-key-0123456789',
    base_url: 'http://gateway.internal:4000/v1',
    extra_headers: {
      'x-team-id': 'alpha',
      'x-gateway-spend-logs-metadata': '{"team":"alpha","project":"p1"}',
    },
  },
};

export async function freshUserSettingsAndProfiles(client: PlatformClient): Promise<void> {
  // A fresh app: no settings, so no profile can be saved yet.
  const noSettings = await failure(client.getSettings());
  expect(isNotFoundError(noSettings)).toBe(true);
  expect(noSettings.body).toEqual({ error: 'Settings not found' });
  const noProfile = await failure(client.saveLlmProfile('team-a', PROFILE));
  expect(isNotFoundError(noProfile)).toBe(true);
  expect(noProfile.body).toEqual({ detail: 'Settings not found' });
  expect(await client.listLlmProfiles()).toEqual({ profiles: [], active_profile: null });

  expect(await client.saveSettings({})).toEqual({ message: 'Settings stored' });
  const legacy = await failure(client.saveSettings({ agent_settings: {} }));
  expect(isUnprocessableEntityError(legacy)).toBe(true);
  expect(legacy.body).toEqual({
    error: 'Use *_diff nested settings payloads instead of legacy keys',
    keys: ['agent_settings'],
  });
  const settings = await client.getSettings();
  expect(settings.llm_api_key_set).toBe(false);
  expect(typeof settings.agent_settings.llm).toBe('object');

  expect(await client.saveLlmProfile('team-a', PROFILE)).toEqual({
    name: 'team-a',
    message: "Profile 'team-a' saved",
  });
  // Unknown keys of `llm` are refused by the app, not dropped.
  const unknownKey = await failure(
    client.saveLlmProfile('team-x', { llm: { model: 'm', custom_header: 'x' } as LlmProfileWrite['llm'] }),
  );
  expect(isUnprocessableEntityError(unknownKey)).toBe(true);
  expect((unknownKey.body as { detail: { type: string; loc: string[] }[] }).detail[0]).toMatchObject({
    type: 'extra_forbidden',
    loc: ['body', 'llm', 'custom_header'],
  });

  const profile = await client.getLlmProfile('team-a');
  expect(profile.api_key_set).toBe(true);
  expect(profile.config).toMatchObject({
    model: PROFILE.llm.model,
    base_url: PROFILE.llm.base_url,
    extra_headers: PROFILE.llm.extra_headers,
  });
  expect(profile.config).not.toHaveProperty('api_key');
  expect(await client.listLlmProfiles()).toEqual({
    profiles: [
      { name: 'team-a', model: PROFILE.llm.model, base_url: PROFILE.llm.base_url, api_key_set: true },
    ],
    active_profile: null,
  });

  expect(await client.activateLlmProfile('team-a')).toEqual({
    name: 'team-a',
    message: "Switched to profile 'team-a'",
    model: PROFILE.llm.model,
  });
  const running = await client.getSettings();
  expect(running.llm_api_key_set).toBe(true);
  expect((running.agent_settings.llm as { model: string }).model).toBe(PROFILE.llm.model);
  expect(isNotFoundError(await failure(client.activateLlmProfile('no-such-profile')))).toBe(true);

  await client.saveLlmProfile('team-b', { llm: { model: 'compat/other' } });
  expect(isConflictError(await failure(client.renameLlmProfile('team-a', 'team-b')))).toBe(true);
  expect(isNotFoundError(await failure(client.renameLlmProfile('no-such-profile', 'x')))).toBe(true);
  expect(await client.renameLlmProfile('team-a', 'team-c')).toEqual({
    name: 'team-c',
    message: "Profile 'team-a' renamed to 'team-c'",
  });
  // The renamed profile stays active and keeps its key.
  const renamed = await client.listLlmProfiles();
  expect(renamed.active_profile).toBe('team-c');
  expect(renamed.profiles.find((p) => p.name === 'team-c')?.api_key_set).toBe(true);

  expect(await client.deleteLlmProfile('team-c')).toEqual({
    name: 'team-c',
    message: "Profile 'team-c' deleted",
  });
  // Deleting an unknown profile succeeds too (the app's delete is idempotent).
  expect(await client.deleteLlmProfile('team-c')).toEqual({
    name: 'team-c',
    message: "Profile 'team-c' deleted",
  });
  // Deleting the active profile switches to the first remaining one (insertion order).
  expect(await client.listLlmProfiles()).toEqual({
    profiles: [{ name: 'team-b', model: 'compat/other', base_url: null, api_key_set: false }],
    active_profile: 'team-b',
  });
  const fallback = await client.getSettings();
  expect((fallback.agent_settings.llm as { model: string }).model).toBe('compat/other');
  expect(fallback.llm_api_key_set).toBe(false);
  // Deleting the last one leaves no active profile; the running settings stay.
  await client.deleteLlmProfile('team-b');
  expect(await client.listLlmProfiles()).toEqual({ profiles: [], active_profile: null });
  expect(((await client.getSettings()).agent_settings.llm as { model: string }).model).toBe('compat/other');
}

export async function secretsRoundTrip(client: PlatformClient): Promise<void> {
  expect(await all(client.listSecrets())).toEqual([]);
  expect(
    await client.saveSecret({ name: 'GW_KEY', value: 'sk-secret-value-1', description: 'gateway' }),
  ).toEqual({
    message: 'Secret created successfully',
  });
  await client.saveSecret({ name: 'B_TOKEN', value: 'secret-value-2' });
  const bad = await failure(client.saveSecret({ name: 'bad-name', value: 'v' }));
  expect(isRequestValidationError(bad)).toBe(true);

  const expected: AppSecret[] = [
    { name: 'B_TOKEN', description: '' },
    { name: 'GW_KEY', description: 'gateway' },
  ];
  expect(await all(client.listSecrets())).toEqual(expected);
  expect(await all(client.listSecrets({ pageSize: 1 }))).toEqual(expected);
  expect(await all(client.listSecrets({ nameContains: 'gw' }))).toEqual([expected[1]]);

  expect(await client.updateSecret('GW_KEY', { name: 'GW_KEY_2', description: 'renamed' })).toEqual({
    message: 'Secret updated successfully',
  });
  const taken = await failure(client.updateSecret('GW_KEY_2', { name: 'B_TOKEN' }));
  expect(isBadRequestError(taken)).toBe(true);
  expect(taken.body).toEqual({ detail: 'Secret B_TOKEN already exists' });
  const unknown = await failure(client.updateSecret('NO_SUCH', { name: 'X' }));
  expect(isNotFoundError(unknown)).toBe(true);
  expect(unknown.body).toEqual({ detail: 'Secret with ID NO_SUCH not found' });
  expect(isNotFoundError(await failure(client.deleteSecret('NO_SUCH')))).toBe(true);

  expect(await client.deleteSecret('B_TOKEN')).toEqual({ message: 'Secret deleted successfully' });
  const remaining = await all(client.listSecrets());
  expect(remaining).toEqual([{ name: 'GW_KEY_2', description: 'renamed' }]);
  expect(JSON.stringify(remaining)).not.toContain('sk-secret-value-1');
  await client.deleteSecret('GW_KEY_2');
}
