/**
 * Issue 23 item 2: a conversation URL names a host; PlatformClient's own session key goes only to the
 * platform's origin, never to that host. The conversation's own key, passed per call, does.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { describe, expect, it } from 'vitest';
import { isAuthenticationError } from '../../src/core/errors.js';
import { PlatformClient } from '../../src/platform/index.js';
import { hostileServer } from './servers.js';

const ID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const PLATFORM_KEY = 'PLANTED-platform-session-key';

async function sandbox() {
  const seen: IncomingHttpHeaders[] = [];
  const server = await hostileServer((req, res) => {
    seen.push(req.headers);
    req.resume();
    req.on('end', () => {
      const authorised = req.headers['x-session-api-key'] !== undefined;
      res.writeHead(authorised ? 200 : 401, { 'content-type': 'application/json' });
      res.end(authorised ? JSON.stringify({ id: ID, tags: {}, success: true }) : '{"detail":"Unauthorized"}');
    });
  });
  return { server, seen };
}

describe('PlatformClient and a conversation URL on another host', () => {
  it('never sends the client key there; a 401 says to pass the conversation key', async () => {
    const { server, seen } = await sandbox();
    const platform = new PlatformClient({
      baseUrl: 'http://platform.invalid',
      sessionApiKey: PLATFORM_KEY,
      logLevel: 'off',
      maxRetries: 0,
      env: false,
    });
    const url = `${server.url}/api/conversations/${ID}`;
    const read = await platform.getConversationTags(url).catch((e: unknown) => e);
    const write = await platform.updateConversationTags(url, { team: 'a' }).catch((e: unknown) => e);
    for (const error of [read, write]) {
      expect(isAuthenticationError(error)).toBe(true);
      expect((error as Error).message).toMatch(/conversation's session_api_key as the sessionApiKey option/);
    }
    expect(seen).toHaveLength(2);
    for (const headers of seen) expect(headers['x-session-api-key']).toBeUndefined();
  });

  it('sends the conversation key given for the call', async () => {
    const { server, seen } = await sandbox();
    const platform = new PlatformClient({
      baseUrl: 'http://platform.invalid',
      sessionApiKey: PLATFORM_KEY,
      logLevel: 'off',
      env: false,
    });
    await platform.getConversationTags(`${server.url}/api/conversations/${ID}`, {
      sessionApiKey: 'conversation-own-key',
    });
    expect(seen[0]?.['x-session-api-key']).toBe('conversation-own-key');
  });

  it('still sends the client key to a conversation URL on its own origin', async () => {
    const { server, seen } = await sandbox();
    const platform = new PlatformClient({
      baseUrl: `${server.url}/app`,
      sessionApiKey: PLATFORM_KEY,
      logLevel: 'off',
      env: false,
    });
    await platform.getConversationTags(`${server.url}/api/conversations/${ID}`);
    expect(seen[0]?.['x-session-api-key']).toBe(PLATFORM_KEY);
  });
});
