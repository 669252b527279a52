// Issue 34 item 7 against the real agent server (newest provisioned version): `exposeSecrets` on the settings
// and profile reads (X-Expose-Secrets) and `includeSkills` on the conversation routes that answer a
// ConversationInfo. The doubles answer the same (test/agent-server/expose-secrets-and-skills.test.ts).
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { oneAgentServer, useAgentServer } from './support/one-agent-server.js';
import { startBody } from './support/scenarios.js';

const target = oneAgentServer();
const { version, venv } = target;
const PROFILE_KEY = 'sk-PLANTED-real-profile-key-5150';
const SETTINGS_KEY = 'sk-PLANTED-real-settings-key-6160';
const SKILL = { name: 'repo-notes', content: 'Notes about the repository.', trigger: null };

describe.skipIf(venv === undefined)(
  `exposeSecrets and includeSkills against the real agent server ${version}`,
  () => {
    const real = useAgentServer(target);

    it('profiles.get: the key is null by default, a cipher token when encrypted, the key when plaintext', async () => {
      await real.client.profiles.save('exposed', { llm: { model: 'openai/x', api_key: PROFILE_KEY } });
      const hidden = await real.client.profiles.get('exposed');
      expect((hidden.config as { api_key: unknown }).api_key).toBeNull();
      expect(hidden.api_key_set).toBe(true);
      const encrypted = await real.client.profiles.get('exposed', { exposeSecrets: 'encrypted' });
      const token = (encrypted.config as { api_key: string }).api_key;
      expect(token).toMatch(/^gAAAAA/);
      const plain = await real.client.profiles.get('exposed', { exposeSecrets: 'plaintext' });
      expect((plain.config as { api_key: unknown }).api_key).toBe(PROFILE_KEY);
      // A token sent back is decrypted by the server, not stored as the key.
      await real.client.profiles.save('exposed-copy', { llm: { model: 'openai/x', api_key: token } });
      const copy = await real.client.profiles.get('exposed-copy', { exposeSecrets: 'plaintext' });
      expect((copy.config as { api_key: unknown }).api_key).toBe(PROFILE_KEY);
      expect(inspect(real.client, { depth: 8 })).not.toContain(token);
    });

    it('settings.get: masked by default, the key when plaintext', async () => {
      await real.client.settings.update({
        agent_settings_diff: { llm: { model: 'openai/x', api_key: SETTINGS_KEY } },
      });
      const masked = await real.client.settings.get();
      expect(JSON.stringify(masked)).not.toContain(SETTINGS_KEY);
      const plain = await real.client.settings.get({ exposeSecrets: 'plaintext' });
      expect((plain.agent_settings.llm as { api_key: unknown }).api_key).toBe(SETTINGS_KEY);
      const encrypted = await real.client.settings.get({ exposeSecrets: 'encrypted' });
      expect((encrypted.agent_settings.llm as { api_key: string }).api_key).toMatch(/^gAAAAA/);
    });

    it('a raw header value other than the two modes is a 400 from the server (the SDK refuses it first)', async () => {
      const raw = await fetch(`${real.server.url}/api/settings`, {
        headers: { 'X-Session-API-Key': real.server.sessionApiKey, 'X-Expose-Secrets': 'everything' },
      });
      expect(raw.status).toBe(400);
    });

    it('includeSkills: the six routes leave skills out unless asked', async () => {
      const body = startBody(real.server, real.llm);
      const request = { ...body, agent: { ...body.agent, agent_context: { skills: [SKILL] } } };
      const skillsOf = (info: unknown) =>
        (
          info as { agent: { agent_context?: { skills?: { name: string }[] } } }
        ).agent.agent_context?.skills?.map((skill) => skill.name);
      const started = await real.client.conversations.create(request);
      expect(skillsOf(started)).toEqual([]);
      const id = started.id;
      expect(
        skillsOf(
          await real.client.conversations.create(
            { ...request, conversation_id: id },
            { includeSkills: true },
          ),
        ),
      ).toEqual(['repo-notes']);
      expect(skillsOf(await real.client.conversations.get(id))).toEqual([]);
      expect(skillsOf(await real.client.conversations.get(id, { includeSkills: true }))).toEqual([
        'repo-notes',
      ]);
      expect((await real.client.conversations.getMany([id])).map(skillsOf)).toEqual([[]]);
      expect((await real.client.conversations.getMany([id], { includeSkills: true })).map(skillsOf)).toEqual([
        ['repo-notes'],
      ]);
      const found = async (includeSkills: boolean) => {
        for await (const info of real.client.conversations.search({}, { includeSkills }))
          if (info.id === id) return info;
        throw new Error('not found');
      };
      expect(skillsOf(await found(false))).toEqual([]);
      expect(skillsOf(await found(true))).toEqual(['repo-notes']);
      expect(skillsOf(await real.client.conversations.navigate(id, null))).toEqual([]);
      expect(skillsOf(await real.client.conversations.navigate(id, null, { includeSkills: true }))).toEqual([
        'repo-notes',
      ]);
      expect(skillsOf(await real.client.conversations.fork(id))).toEqual([]);
      expect(skillsOf(await real.client.conversations.fork(id, {}, { includeSkills: true }))).toEqual([
        'repo-notes',
      ]);
    });
  },
);
