// Issue 34 item 7, on the msw doubles: `exposeSecrets` on the settings and profile reads (the real server's
// `X-Expose-Secrets`: absent, `encrypted`, `plaintext`) and `includeSkills` on every conversation read that
// returns a ConversationInfo (the real server trims `agent.agent_context.skills` to [] unless asked).
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { AgentServerClient, isRequestValidationError } from '../../src/index.js';
import { AgentServerStore, agentServerApiHandlers, agentServerHandlers } from '../../src/testing.js';
import { useMswServer } from '../helpers/msw.js';

const KEY = 'expose-client-session-key-31';
const BASE = 'http://expose.test';
const store = new AgentServerStore();
const { requests } = useMswServer(
  ...agentServerApiHandlers({ baseUrl: BASE, sessionApiKey: KEY, store }),
  ...agentServerHandlers({ baseUrl: BASE, sessionApiKey: KEY, store }),
);
const client = new AgentServerClient({ baseUrl: BASE, sessionApiKey: KEY, logLevel: 'off', maxRetries: 0 });
const PROFILE_KEY = 'sk-PLANTED-profile-key-4411';
const SETTINGS_KEY = 'sk-PLANTED-settings-key-9902';

const SKILL = { name: 'repo-notes', content: 'long skill text', trigger: null };
const agent = {
  llm: { model: 'openai/x', api_key: 'sk-start' },
  agent_context: { skills: [SKILL] },
};
const workspace = { working_dir: '/w' };
const skillsOf = (info: unknown) =>
  ((info as { agent: { agent_context?: { skills?: unknown[] } } }).agent.agent_context?.skills ?? null) as
    | unknown[]
    | null;

describe('exposeSecrets on settings.get and profiles.get', () => {
  it('sends X-Expose-Secrets and gets the key back in the asked form; without it the key is withheld', async () => {
    await client.profiles.save('exposed', { llm: { model: 'openai/x', api_key: PROFILE_KEY } });
    await client.settings.update({
      agent_settings_diff: { llm: { model: 'openai/x', api_key: SETTINGS_KEY } },
    });

    const hidden = await client.profiles.get('exposed');
    expect((hidden.config as { api_key: unknown }).api_key).toBeNull();
    const plain = await client.profiles.get('exposed', { exposeSecrets: 'plaintext' });
    expect((plain.config as { api_key: unknown }).api_key).toBe(PROFILE_KEY);
    const encrypted = await client.profiles.get('exposed', { exposeSecrets: 'encrypted' });
    const token = (encrypted.config as { api_key: string }).api_key;
    expect(token).toMatch(/^gAAAAA/);
    expect(token).not.toContain(PROFILE_KEY);

    const masked = await client.settings.get();
    expect((masked.agent_settings.llm as { api_key: unknown }).api_key).toBe('**********');
    const settings = await client.settings.get({ exposeSecrets: 'plaintext' });
    expect((settings.agent_settings.llm as { api_key: unknown }).api_key).toBe(SETTINGS_KEY);

    const sent = requests
      .filter(
        (r) => r.method === 'GET' && /\/api\/(settings|profiles\/exposed)$/.test(new URL(r.url).pathname),
      )
      .map((r) => r.headers.get('x-expose-secrets'));
    expect(sent).toEqual([null, 'plaintext', 'encrypted', null, 'plaintext']);
  });

  it('registers what the server exposed, so that it never shows in an error or inspect', async () => {
    await client.profiles.save('exposed-2', {
      llm: { model: 'openai/x', api_key: 'sk-PLANTED-second-7788' },
    });
    const fresh = new AgentServerClient({
      baseUrl: BASE,
      sessionApiKey: KEY,
      logLevel: 'off',
      maxRetries: 0,
    });
    await fresh.profiles.get('exposed-2', { exposeSecrets: 'plaintext' });
    const encrypted = await fresh.profiles.get('exposed-2', { exposeSecrets: 'encrypted' });
    const token = (encrypted.config as { api_key: string }).api_key;
    const error = await fresh
      .request({ method: 'GET', path: `/api/profiles/nope-sk-PLANTED-second-7788-${token}` })
      .catch((e: unknown) => e);
    const shown = `${inspect(error, { depth: 8 })} ${JSON.stringify(error)} ${inspect(fresh, { depth: 8 })}`;
    expect(shown).not.toContain('sk-PLANTED-second-7788');
    expect(shown).not.toContain(token);
  });

  it.each([['true'], ['PLAINTEXT'], [''], [1]])(
    'refuses %j before any request, naming options.exposeSecrets',
    async (value) => {
      const before = requests.length;
      for (const call of [
        () => client.settings.get({ exposeSecrets: value as never }),
        () => client.profiles.get('exposed', { exposeSecrets: value as never }),
      ]) {
        const error = await call().catch((e: unknown) => e);
        expect(isRequestValidationError(error)).toBe(true);
        expect(String(error)).toMatch(/options\.exposeSecrets/);
      }
      expect(requests.length).toBe(before);
    },
  );
});

describe('includeSkills on the conversation routes', () => {
  it('leaves skills out by default and sends include_skills=true when asked, on all six routes', async () => {
    const started = await client.conversations.create({ agent, workspace });
    expect(skillsOf(started)).toEqual([]);
    const id = started.id;
    const withSkills = await client.conversations.create(
      { agent, workspace, conversation_id: id },
      { includeSkills: true },
    );
    expect(skillsOf(withSkills)).toEqual([SKILL]);

    expect(skillsOf(await client.conversations.get(id))).toEqual([]);
    expect(skillsOf(await client.conversations.get(id, { includeSkills: true }))).toEqual([SKILL]);
    expect((await client.conversations.getMany([id])).map(skillsOf)).toEqual([[]]);
    expect((await client.conversations.getMany([id], { includeSkills: true })).map(skillsOf)).toEqual([
      [SKILL],
    ]);
    const found = async (includeSkills?: boolean) => {
      for await (const info of client.conversations.search({}, includeSkills ? { includeSkills } : {})) {
        if (info.id === id) return info;
      }
      throw new Error('not found');
    };
    expect(skillsOf(await found())).toEqual([]);
    expect(skillsOf(await found(true))).toEqual([SKILL]);
    expect(skillsOf(await client.conversations.fork(id))).toEqual([]);
    expect(skillsOf(await client.conversations.fork(id, {}, { includeSkills: true }))).toEqual([SKILL]);
    expect(skillsOf(await client.conversations.navigate(id, null))).toEqual([]);
    expect(skillsOf(await client.conversations.navigate(id, null, { includeSkills: true }))).toEqual([SKILL]);

    const flags = requests
      .filter((r) => new URL(r.url).pathname.startsWith('/api/conversations'))
      .map((r) => new URL(r.url).searchParams.get('include_skills'))
      .filter((flag) => flag !== null);
    expect(flags.length).toBeGreaterThanOrEqual(6);
    expect(new Set(flags)).toEqual(new Set(['true']));
  });

  it('refuses an includeSkills that is not a boolean, before any request', async () => {
    const before = requests.length;
    const id = store.addConversation().id;
    const error = await client.conversations
      .get(id, { includeSkills: 'yes' as never })
      .catch((e: unknown) => e);
    expect(isRequestValidationError(error)).toBe(true);
    expect(String(error)).toMatch(/options\.includeSkills/);
    expect(requests.length).toBe(before);
  });
});
