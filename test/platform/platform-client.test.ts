import { inspect } from 'node:util';
import { HttpResponse, http } from 'msw/http';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  type APIError,
  isAuthenticationError,
  isConflictError,
  isNotFoundError,
  isRequestValidationError,
  isUnprocessableEntityError,
  type RequestValidationError,
} from '../../src/core/errors.js';
import type { LlmProfileWrite } from '../../src/platform/index.js';
import { PlatformClient } from '../../src/platform/index.js';
import { PlatformStore, platformHandlers } from '../../src/testing.js';
import { neutral, readJsonFixture } from '../gateway/fixtures.js';
import { useMswServer } from '../helpers/msw.js';

const APP = 'https://app.platform.test';
const SANDBOX = 'https://sandbox-1.platform.test';
const KEY = 'oh-session-key-0123456789';
const bodies = neutral(readJsonFixture('ohe-request-bodies.ohe-docs.json')) as {
  llm_profile_post_bodies: LlmProfileWrite[];
  conversation_tags_patch_body: { tags: Record<string, string> };
};

const store = new PlatformStore({ sandboxUrl: SANDBOX, maxProfiles: 3 });
const { server, requests } = useMswServer(...platformHandlers({ baseUrl: APP, sessionApiKey: KEY, store }));
const client = new PlatformClient({ baseUrl: APP, sessionApiKey: KEY, logLevel: 'off' });
beforeEach(() => {
  store.profiles.clear();
  store.conversations.clear();
});

async function failure(run: Promise<unknown>): Promise<APIError & RequestValidationError> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!error) throw new Error('expected the call to fail');
  return error as APIError & RequestValidationError;
}

describe('LLM profiles', () => {
  it.each([0, 1])(
    'round trip of the docs body %i: extra_headers persist through a read-back',
    async (index) => {
      const body = bodies.llm_profile_post_bodies[index]!;
      const saved = await client.saveLlmProfile('Default', body);
      expect(saved).toEqual({ name: 'Default', message: "Profile 'Default' saved" });
      const profile = await client.getLlmProfile('Default');
      expect(profile.name).toBe('Default');
      expect(profile.config.model).toBe(body.llm.model);
      expect(profile.config.base_url).toBe(body.llm.base_url);
      expect(profile.config.extra_headers).toEqual(body.llm.extra_headers);
      expect(profile.config).not.toHaveProperty('api_key');
    },
  );

  it('sends the body as JSON to the profile path with the session key', async () => {
    await client.saveLlmProfile('team.alpha_1', bodies.llm_profile_post_bodies[0]!);
    const request = requests[0]!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe(`${APP}/api/v1/settings/profiles/team.alpha_1`);
    expect(request.headers.get('x-session-api-key')).toBe(KEY);
    expect(request.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await request.json()).toEqual(bodies.llm_profile_post_bodies[0]);
  });

  it('a later save overwrites the profile', async () => {
    await client.saveLlmProfile('p', { llm: { model: 'a', extra_headers: { 'x-a': '1' } } });
    await client.saveLlmProfile('p', { llm: { model: 'b' } });
    const profile = await client.getLlmProfile('p');
    expect(profile.config.model).toBe('b');
    expect(profile.config.extra_headers).toBeNull();
  });

  it('an unknown profile is a NotFoundError', async () => {
    const error = await failure(client.getLlmProfile('missing'));
    expect(isNotFoundError(error)).toBe(true);
    expect(error.message).toContain("Profile 'missing' not found");
  });

  it('the profile cap answers 409, a ConflictError', async () => {
    for (const name of ['a', 'b', 'c']) await client.saveLlmProfile(name, { llm: { model: 'm' } });
    expect(isConflictError(await failure(client.saveLlmProfile('d', { llm: { model: 'm' } })))).toBe(true);
  });

  it.each<[string, string, LlmProfileWrite, string]>([
    ['bad name', 'my profile', { llm: { model: 'm' } }, 'profileName'],
    ['empty name', '', { llm: { model: 'm' } }, 'profileName'],
    ['too long name', 'x'.repeat(65), { llm: { model: 'm' } }, 'profileName'],
    ['missing llm', 'p', {} as never, 'llm'],
    ['empty model', 'p', { llm: { model: '' } }, 'llm.model'],
    ['non-http base_url', 'p', { llm: { model: 'm', base_url: 'gw:4000' } }, 'llm.base_url'],
    [
      'non-boolean preserve flag',
      'p',
      { preserve_existing_api_key: 'yes' as never, llm: { model: 'm' } },
      'preserve_existing_api_key',
    ],
    [
      'nested spend metadata object',
      'p',
      { llm: { model: 'm', extra_headers: { 'x-gateway-spend-logs-metadata': { a: 1 } as never } } },
      'llm.extra_headers.x-gateway-spend-logs-metadata',
    ],
    [
      'spend metadata that is not JSON',
      'p',
      { llm: { model: 'm', extra_headers: { 'x-gateway-spend-logs-metadata': 'a=1' } } },
      'llm.extra_headers.x-gateway-spend-logs-metadata',
    ],
    [
      'number header value',
      'p',
      { llm: { model: 'm', extra_headers: { 'x-a': 1 as never } } },
      'llm.extra_headers.x-a',
    ],
    [
      'header value with CRLF',
      'p',
      { llm: { model: 'm', extra_headers: { 'x-a': 'a\r\nb' } } },
      'llm.extra_headers.x-a',
    ],
  ])('rejects a %s before any request', async (_label, name, profile, field) => {
    const error = await failure(client.saveLlmProfile(name, profile));
    expect(isRequestValidationError(error)).toBe(true);
    expect(error.issues.map((i) => i.path.join('.'))).toContain(field);
    expect(requests).toHaveLength(0);
  });

  it('warns that a profile x-gateway-session-id is overwritten at call time', async () => {
    const warnings: string[] = [];
    const logged = new PlatformClient({
      baseUrl: APP,
      sessionApiKey: KEY,
      logger: { error() {}, warn: (m: string) => warnings.push(m), info() {}, debug() {} },
    });
    await logged.saveLlmProfile('p', {
      llm: { model: 'm', extra_headers: { 'X-Gateway-Session-Id': 'mine' } },
    });
    expect(warnings.join('\n')).toMatch(/x-gateway-session-id .* overwritten at call time/);
  });

  it('a wrong session key is an AuthenticationError and the key is never shown', async () => {
    const wrong = new PlatformClient({ baseUrl: APP, sessionApiKey: 'wrong-key-abcdef', logLevel: 'off' });
    const error = await failure(wrong.getLlmProfile('p'));
    expect(isAuthenticationError(error)).toBe(true);
    const shown = `${error.message} ${JSON.stringify(error)} ${inspect(wrong)} ${JSON.stringify(client)}`;
    expect(shown).not.toContain('wrong-key-abcdef');
    expect(shown).not.toContain(KEY);
  });

  it('requires an http(s) app URL', () => {
    expect(() => new PlatformClient({ baseUrl: 'app.test' })).toThrow(/baseUrl/);
  });

  it('names the option renamed to baseUrl', () => {
    expect(() => new PlatformClient({ appUrl: APP } as never)).toThrow(/appUrl.*renamed baseUrl/);
  });
});

describe('conversation tags', () => {
  const newConversation = (tags: Record<string, string> = {}) => store.addConversation({ tags });

  it('PATCHes {tags} to the conversation URL with the given key; tags replace the whole map', async () => {
    const conversation = newConversation({ old: 'gone' });
    const tags = bodies.conversation_tags_patch_body.tags;
    const written = await client.updateConversationTags(conversation.conversation_url, tags, {
      sessionApiKey: conversation.session_api_key,
    });
    expect(written).toEqual(tags);
    expect(store.conversations.get(conversation.id)!.tags).toEqual(tags);
    const request = requests[0]!;
    expect(request.method).toBe('PATCH');
    expect(request.url).toBe(conversation.conversation_url);
    expect(request.headers.get('x-session-api-key')).toBe(conversation.session_api_key);
    expect(await request.json()).toEqual(bodies.conversation_tags_patch_body);
  });

  it('reads the tags back from the conversation URL', async () => {
    const conversation = newConversation({ team: 'alpha' });
    const tags = await client.getConversationTags(conversation.conversation_url, {
      sessionApiKey: conversation.session_api_key,
    });
    expect(tags).toEqual({ team: 'alpha' });
  });

  it('an empty map clears every tag', async () => {
    const conversation = newConversation({ team: 'alpha' });
    await client.updateConversationTags(
      conversation.conversation_url,
      {},
      { sessionApiKey: conversation.session_api_key },
    );
    expect(store.conversations.get(conversation.id)!.tags).toEqual({});
  });

  it('a bad map is a RequestValidationError naming every bad key, and nothing is sent', async () => {
    const conversation = newConversation();
    const error = await failure(
      client.updateConversationTags(
        conversation.conversation_url,
        { Team: 'a', ok: 'b', cost_center: 'c', long: 'x'.repeat(257) },
        {
          sessionApiKey: conversation.session_api_key,
        },
      ),
    );
    expect(isRequestValidationError(error)).toBe(true);
    expect(error.issues.map((i) => i.path[1])).toEqual(['Team', 'cost_center', 'long']);
    expect(requests).toHaveLength(0);
  });

  it("the server's own 422 for a bad key is an UnprocessableEntityError (when validation is bypassed)", async () => {
    const conversation = newConversation();
    server.use(
      http.patch(`${SANDBOX}/api/conversations/:id`, () =>
        HttpResponse.json(
          {
            detail: [
              { loc: ['body', 'tags'], msg: "Value error, Tag key 'X' is invalid", type: 'value_error' },
            ],
          },
          { status: 422 },
        ),
      ),
    );
    const error = await failure(
      client.updateConversationTags(
        conversation.conversation_url,
        { x: 'y' },
        { sessionApiKey: conversation.session_api_key },
      ),
    );
    expect(isUnprocessableEntityError(error)).toBe(true);
  });

  it('an unknown conversation (200 {success: false}) is a NotFoundError', async () => {
    const url = `${SANDBOX}/api/conversations/00000000-0000-4000-8000-000000000000`;
    const error = await failure(client.updateConversationTags(url, { a: 'b' }));
    expect(isNotFoundError(error)).toBe(true);
    expect(error.message).toContain('success');
  });

  it("the client key never goes to the sandbox's origin: without a conversation key, a 401 that says so", async () => {
    const conversation = newConversation();
    const error = await failure(client.updateConversationTags(conversation.conversation_url, { a: 'b' }));
    expect(isAuthenticationError(error)).toBe(true);
    expect(error.message).toMatch(/pass the conversation's session_api_key/);
    expect(requests[0]!.headers.get('x-session-api-key')).toBeNull();
  });

  it.each([
    ['not a URL', 'conversation-1'],
    ['ftp', 'ftp://sandbox/api/conversations/1'],
    ['credentials', 'https://u:p@sandbox/api/conversations/1'],
    ['query', 'https://sandbox/api/conversations/1?x=1'],
    ['no path', 'https://sandbox/'],
  ])('rejects a conversation URL with %s', async (_label, url) => {
    const error = await failure(client.updateConversationTags(url, { a: 'b' }));
    expect(isRequestValidationError(error)).toBe(true);
    expect(error.message).toContain('conversationUrl');
    expect(requests).toHaveLength(0);
  });

  it('a conversation key is redacted like the client key', async () => {
    const conversation = newConversation();
    server.use(
      http.patch(`${SANDBOX}/api/conversations/:id`, ({ request }) =>
        HttpResponse.json({ detail: `bad key ${request.headers.get('x-session-api-key')}` }, { status: 400 }),
      ),
    );
    const error = await failure(
      client.updateConversationTags(
        conversation.conversation_url,
        { a: 'b' },
        { sessionApiKey: conversation.session_api_key },
      ),
    );
    expect(`${error.message} ${JSON.stringify(error)}`).not.toContain(conversation.session_api_key);
  });
});

describe('mergeConversationTags — read, merge, write', () => {
  it('keeps other tags, sets new ones and removes those set to null', async () => {
    const conversation = store.addConversation({ tags: { team: 'alpha', project: 'p1', stale: 'x' } });
    const merged = await client.mergeConversationTags(
      conversation.conversation_url,
      { project: 'p2', costcenter: 'cc7', stale: null },
      { sessionApiKey: conversation.session_api_key },
    );
    expect(merged).toEqual({ team: 'alpha', project: 'p2', costcenter: 'cc7' });
    expect(store.conversations.get(conversation.id)!.tags).toEqual(merged);
    expect(requests.map((r) => r.method)).toEqual(['GET', 'PATCH']);
  });

  it('a bad patch fails before the read', async () => {
    const conversation = store.addConversation();
    const error = await failure(
      client.mergeConversationTags(conversation.conversation_url, { 'Bad-Key': 'x' }),
    );
    expect(isRequestValidationError(error)).toBe(true);
    expect(requests).toHaveLength(0);
  });

  it('an unknown conversation fails on the read with NotFoundError', async () => {
    const error = await failure(
      client.mergeConversationTags(`${SANDBOX}/api/conversations/00000000-0000-4000-8000-000000000000`, {
        a: 'b',
      }),
    );
    expect(isNotFoundError(error)).toBe(true);
  });
});

describe('listConversations', () => {
  it('walks every page with the filters', async () => {
    for (let i = 0; i < 5; i++) {
      store.addConversation({
        created_at: `2026-08-0${i + 1}T10:00:00Z`,
        updated_at: `2026-08-0${i + 1}T11:00:00Z`,
        tags: { n: String(i) },
      });
    }
    const seen = [];
    for await (const c of client.listConversations({
      createdAfter: new Date('2026-08-02T00:00:00Z'),
      pageSize: 2,
    })) {
      seen.push(c.tags.n);
    }
    expect(seen).toEqual(['1', '2', '3', '4']);
    expect(requests).toHaveLength(2);
    const query = new URL(requests[0]!.url).searchParams;
    expect(query.get('created_at__gte')).toBe('2026-08-02T00:00:00.000Z');
    expect(query.get('limit')).toBe('2');
    expect(new URL(requests[1]!.url).searchParams.get('page_id')).toBe('2');
  });

  it.each([
    [{ pageSize: 101 }, 'pageSize'],
    [{ pageSize: 0 }, 'pageSize'],
    [{ createdAfter: 'yesterday' }, 'createdAfter'],
  ])('rejects %j before any request', async (search, field) => {
    // Checked when called, before any request.
    const error = await (async () => client.listConversations(search))().catch((e: unknown) => e);
    expect(isRequestValidationError(error)).toBe(true);
    expect((error as Error).message).toContain(field);
    expect(requests).toHaveLength(0);
  });
});
