/**
 * Issue 23 item 3: a caller's value put into a URL path can never change the route. `''`, `.`, `..` and
 * values holding `/` are a `RequestValidationError` naming the field, before any request, in every client,
 * through one helper (src/core/path-segment.ts).
 */
import { describe, expect, it } from 'vitest';
import { AgentServerClient, EventsClient } from '../../src/agent-server/index.js';
import { isRequestValidationError } from '../../src/core/errors.js';
import { checkPathSegment, encodePath, pathSegment } from '../../src/core/path-segment.js';
import { PlatformClient } from '../../src/platform/index.js';
import { RuntimeAdminClient } from '../../src/runtime/index.js';
import { hostileServer } from './servers.js';

const ID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const common = { logLevel: 'off' as const, maxRetries: 0, env: false, sessionApiKey: 'k-123456' };
const HOSTILE = ['..', '.', 'a/b', '../settings', ''];

/** A server that counts requests and answers 200 `{}` (what the old code got for `..`). */
async function server() {
  const paths: string[] = [];
  const s = await hostileServer((req, res) => {
    paths.push(`${req.method} ${req.url}`);
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
  return { url: s.url, paths };
}

/** `field`: the argument's name, or (agent-server namespaces) the route parameter it fills. */
async function expectRefused(call: () => Promise<unknown>, ...fields: string[]): Promise<void> {
  const error = await (async () => call())().then(
    () => new Error('resolved'),
    (e: unknown) => e,
  );
  expect(isRequestValidationError(error), String(error)).toBe(true);
  const path = (error as { issues: { path: unknown[] }[] }).issues[0]?.path;
  expect(path).toHaveLength(1);
  expect(fields).toContain(path?.[0]);
}

describe('the shared helper', () => {
  it.each(HOSTILE)('refuses %j with a RequestValidationError naming the field', (value) => {
    expect(() => pathSegment(value, 'name')).toThrow(/^name: /);
    expect(() => checkPathSegment(value, 'name')).toThrow(/^name: /);
  });

  it('encodes what it accepts, so that no character can change the route', () => {
    expect(pathSegment('a b?#%2F..x', 'name')).toBe('a%20b%3F%23%252F..x');
    expect(pathSegment('...', 'name')).toBe('...');
    expect(encodePath('api', { name: 'x y' })).toBe('api/x%20y');
    expect(() => encodePath('api', { profileName: '..' })).toThrow(/^profileName: /);
    expect(() => encodePath('api', '..')).toThrow(/^path: /);
  });
});

describe.each(HOSTILE)('every client, given %j as a path value', (value) => {
  it('sends nothing and names the field', async () => {
    const { url, paths } = await server();
    const agent = new AgentServerClient({ baseUrl: url, ...common });
    const events = new EventsClient({ baseUrl: url, ...common });
    const platform = new PlatformClient({ baseUrl: url, ...common });
    const runtime = new RuntimeAdminClient({
      baseUrl: url,
      apiKey: 'k-123456',
      adminToken: 'a.b.c',
      env: false,
    });
    await expectRefused(() => agent.settings.patchMcpServer(value, {}), 'key', 'settings_key');
    await expectRefused(() => agent.settings.deleteMcpServer(value), 'key', 'settings_key');
    await expectRefused(() => agent.secrets.delete(value), 'name');
    await expectRefused(() => agent.secrets.getValue(value), 'name');
    await expectRefused(() => agent.skills.uninstall(value), 'name', 'skill_name');
    await expectRefused(() => agent.git.commitChanges(value, 'src'), 'sha');
    await expectRefused(() => agent.profiles.delete(value), 'name');
    await expectRefused(() => events.get(ID, value), 'eventId');
    await expectRefused(() => platform.saveLlmProfile(value, { llm: { model: 'm' } }), 'profileName');
    await expectRefused(() => platform.getLlmProfile(value), 'profileName');
    await expectRefused(
      () => runtime.saveWarmRuntimeConfig(value, { image: 'i:1', working_dir: '/w', command: ['a'] }),
      'name',
    );
    await expectRefused(() => runtime.deleteWarmRuntimeConfig(value), 'name');
    expect(paths).toEqual([]);
  });
});

/**
 * Issue 34 item 4: a conversation URL is resolved by the URL parser, which drops dot segments (`.`, `..`,
 * `%2e%2e` in any case, `\` as a separator): `…/api/conversations/..` would GET `/api` and PATCH it.
 */
describe('PlatformClient, given a conversation URL with dot segments', () => {
  const DOTTED = [
    '/api/conversations/.',
    '/api/conversations/..',
    '/api/conversations/%2e%2e',
    '/api/conversations/%2E%2e',
    '/api/conversations/.%2E',
    '/api/conversations/%2e',
    '/api/conversations/../x',
    '/api/./conversations/x',
    '/api/conversations/x/..',
    '/api/conversations/x/%2E%2E/',
    '/api/conversations\\..\\x',
    '/api/conversations/%2f..',
    '/api/conversations/a%2Fb',
  ];

  it.each(DOTTED)('refuses %s before any request, naming conversationUrl', async (path) => {
    const { url, paths } = await server();
    const platform = new PlatformClient({ baseUrl: url, ...common });
    await expectRefused(() => platform.getConversationTags(`${url}${path}`), 'conversationUrl');
    await expectRefused(
      () => platform.updateConversationTags(`${url}${path}`, { a: 'b' }),
      'conversationUrl',
    );
    await expectRefused(() => platform.mergeConversationTags(`${url}${path}`, { a: 'b' }), 'conversationUrl');
    expect(paths).toEqual([]);
  });

  it('still reaches a conversation whose id merely contains dots', async () => {
    const { url, paths } = await server();
    const platform = new PlatformClient({ baseUrl: url, ...common });
    await platform.getConversationTags(`${url}/api/conversations/a..b`).catch(() => undefined);
    await platform.getConversationTags(`${url}/api/conversations/...`).catch(() => undefined);
    expect(paths).toEqual(['GET /api/conversations/a..b', 'GET /api/conversations/...']);
  });
});
