// PlatformClient against the real components: the platform app (openhands-ai, RUNTIME=process, no Docker) for
// settings, LLM profiles and secrets, and the real agent server for conversation tags, since the app's own
// conversation records carry read-only tags in 1.11.0 (its PATCH takes title, public, repository, branch and
// git provider only). The walk is the one the msw double passes (test/platform/app-settings-scenario.ts).
// docs/compatibility.md, "Platform app", lists what this run showed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isNotFoundError, isRequestValidationError } from '../../src/core/errors.js';
import { PlatformClient } from '../../src/platform/index.js';
import { newestVersion, requirePeer, versionsUnderTest } from '../peers/peers.js';
import { freshUserSettingsAndProfiles, secretsRoundTrip } from '../platform/app-settings-scenario.js';
import { type RealPlatformApp, startRealPlatformApp } from './platform/app.js';
import { type RealAgentServer, startRealAgentServer } from './support/agent-server.js';
import { type FakeLlm, startFakeLlm } from './support/fake-llm.js';
import { startBody } from './support/scenarios.js';

for (const { version } of versionsUnderTest('platform-app')) {
  const venv = requirePeer('platform-app', version);

  describe.skipIf(!venv)(`PlatformClient against the real platform app ${version}`, () => {
    let app: RealPlatformApp;
    let client: PlatformClient;

    beforeAll(async () => {
      app = await startRealPlatformApp(venv as string);
      console.log(`platform app ${version}: ready in ${app.startedInMs} ms`);
      // Local mode is single-user without authentication: the key is sent and ignored.
      client = new PlatformClient({
        baseUrl: app.url,
        sessionApiKey: 'ignored-in-local-mode',
        // Below the app's rate limit (10 requests/s per client).
        maxRequestsPerSecond: 8,
        maxRetries: 2,
        logLevel: 'off',
      });
    }, 300_000);
    afterAll(async () => {
      await app?.close();
    });

    it('a fresh user: 404 until settings are stored, then save, read back, list, activate, rename, delete profiles', async () => {
      await freshUserSettingsAndProfiles(client);
    });

    it('secrets: create, list in name order page by page, rename, refuse a taken name, delete', async () => {
      await secretsRoundTrip(client);
    });

    it("the app's conversation PATCH is not where tags are written: an unknown conversation is a 404 either way", async () => {
      const answer = await fetch(`${app.url}/api/v1/app-conversations/0123456789abcdef0123456789abcdef`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tags: { team: 'alpha' } }),
      });
      expect(answer.status).toBe(404);
      expect(await answer.json()).toEqual({ detail: 'unknown_app_conversation' });
    });
  });
}

// Writable tags live on the agent server that serves the conversation URL.
const agentVersion = newestVersion('agent-server');
const agentVenv = requirePeer('agent-server', agentVersion);

describe.skipIf(!agentVenv)(
  `PlatformClient conversation tags on the real agent server ${agentVersion}`,
  () => {
    let server: RealAgentServer;
    let llm: FakeLlm;

    beforeAll(async () => {
      llm = await startFakeLlm();
      server = await startRealAgentServer(agentVenv as string, agentVersion);
    });
    afterAll(async () => {
      await server?.close();
      await llm?.close();
    });

    it('replaces, reads and merges the tags of a conversation URL with the conversation key; unknown → NotFoundError', async () => {
      const { initial_message: _none, ...body } = startBody(server, llm);
      const created = await fetch(`${server.url}/api/conversations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-session-api-key': server.sessionApiKey },
        body: JSON.stringify({ ...body, tags: { team: 'alpha' } }),
      });
      expect(created.status).toBeLessThan(300);
      const { id } = (await created.json()) as { id: string };
      const conversationUrl = `${server.url}/api/conversations/${id}`;
      // The platform's client holds the app key; the conversation URL takes the conversation's own key.
      const platform = new PlatformClient({ baseUrl: 'http://app.invalid', logLevel: 'off', maxRetries: 0 });
      const options = { sessionApiKey: server.sessionApiKey };

      expect(await platform.getConversationTags(conversationUrl, options)).toEqual({ team: 'alpha' });
      expect(
        await platform.updateConversationTags(conversationUrl, { team: 'beta', cost: 'c1' }, options),
      ).toEqual({
        team: 'beta',
        cost: 'c1',
      });
      expect(await platform.getConversationTags(conversationUrl, options)).toEqual({
        team: 'beta',
        cost: 'c1',
      });
      expect(
        await platform.mergeConversationTags(conversationUrl, { cost: null, project: 'p1' }, options),
      ).toEqual({ team: 'beta', project: 'p1' });
      expect(await platform.getConversationTags(conversationUrl, options)).toEqual({
        team: 'beta',
        project: 'p1',
      });

      const bad = await platform
        .updateConversationTags(conversationUrl, { 'Bad-Key': 'x' }, options)
        .catch((e: unknown) => e);
      expect(isRequestValidationError(bad)).toBe(true);
      const unknown = await platform
        .updateConversationTags(
          `${server.url}/api/conversations/00000000-0000-0000-0000-000000000000`,
          { team: 'x' },
          options,
        )
        .catch((e: unknown) => e);
      expect(isNotFoundError(unknown)).toBe(true);
    });
  },
);
