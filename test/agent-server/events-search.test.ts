import { HttpResponse, http } from 'msw/http';
import { beforeEach, describe, expect, it } from 'vitest';
import { EventsClient } from '../../src/agent-server/index.js';
import {
  isAuthenticationError,
  isInternalServerError,
  isNotFoundError,
  isRequestValidationError,
  isResponseValidationError,
  isUnprocessableEntityError,
  type RequestValidationError,
} from '../../src/core/errors.js';
import {
  AgentServerStore,
  agentRunnerFor,
  agentServerHandlers,
  type StoredEvent,
} from '../../src/testing.js';
import { useMswServer } from '../helpers/msw.js';

const BASE = 'http://agent.test';
const KEY = 'session-key-search-1';
const CONVERSATION = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const MESSAGE_PATH = 'openhands.sdk.event.llm_convertible.message.MessageEvent';
const ACTION_PATH = 'openhands.sdk.event.llm_convertible.action.ActionEvent';

const store = new AgentServerStore();
const { server, requests } = useMswServer(
  ...agentServerHandlers({ baseUrl: BASE, sessionApiKey: KEY, store }),
);
const client = new EventsClient({ baseUrl: BASE, sessionApiKey: KEY, logLevel: 'off', maxRetryDelay: 10 });

/** `count` user messages and, every third, an agent action, with increasing timestamps. */
function seed(count: number): StoredEvent[] {
  const events: StoredEvent[] = [];
  for (let i = 0; i < count; i += 1) {
    const event =
      i % 3 === 2
        ? {
            ...store.message(`reply ${i}`, 'agent'),
            kind: 'ActionEvent',
            tool_name: 't',
            tool_call_id: `c${i}`,
          }
        : store.message(`hello ${i}`);
    events.push(store.appendEvent(CONVERSATION, event));
  }
  return events;
}

const searchUrls = () => requests.filter((r) => r.url.includes('/events/search')).map((r) => new URL(r.url));

beforeEach(() => {
  // A turn started by an earlier test (send with run: true) must not write into this test's conversation.
  agentRunnerFor(store).dispose();
  store.conversations.clear();
  store.addConversation(CONVERSATION);
});

describe('EventsClient.search', () => {
  it('iterates every event across pages, in order, with one request per page', async () => {
    const seeded = seed(250);
    const ids: string[] = [];
    for await (const event of client.search(CONVERSATION)) ids.push(event.id as string);
    expect(ids).toEqual(seeded.map((event) => event.id));
    const urls = searchUrls();
    expect(urls).toHaveLength(3);
    expect(urls.map((url) => url.searchParams.get('page_id'))).toEqual([
      null,
      seeded[100]!.id,
      seeded[200]!.id,
    ]);
    expect(urls.every((url) => url.searchParams.get('limit') === '100')).toBe(true);
    expect(requests[0]!.headers.get('x-session-api-key')).toBe(KEY);
  });

  it('pages() yields the pages themselves, and pages(id) is the same', async () => {
    seed(7);
    const sizes: (number | string | null)[] = [];
    for await (const page of client.pages(CONVERSATION, { limit: 3 }))
      sizes.push(page.items.length, page.nextPageId && 'next');
    expect(sizes).toEqual([3, 'next', 3, 'next', 1, null]);
    const again: number[] = [];
    for await (const page of client.search(CONVERSATION, { limit: 5 }).pages()) again.push(page.items.length);
    expect(again).toEqual([5, 2]);
  });

  it('sends the filters in the wire names, newest first when asked', async () => {
    const seeded = seed(6);
    const got: string[] = [];
    const query = {
      source: 'user',
      body: 'HELLO',
      sortOrder: 'TIMESTAMP_DESC' as const,
      timestampGte: seeded[1]!.timestamp,
      timestampLt: seeded[5]!.timestamp,
    };
    for await (const event of client.search(CONVERSATION, query)) got.push(event.id as string);
    // user messages 1, 3, 4 (2 and 5 are agent actions or outside the range), newest first
    expect(got).toEqual([seeded[4]!.id, seeded[3]!.id, seeded[1]!.id]);
    const params = Object.fromEntries(searchUrls()[0]!.searchParams);
    expect(params).toEqual({
      source: 'user',
      body: 'HELLO',
      sort_order: 'TIMESTAMP_DESC',
      timestamp__gte: seeded[1]!.timestamp,
      timestamp__lt: seeded[5]!.timestamp,
      limit: '100',
    });
  });

  it('sends a Date filter as its ISO string', async () => {
    await drain(client.search(CONVERSATION, { timestampGte: new Date('2026-02-05T11:24:45.000Z') }));
    expect(searchUrls()[0]!.searchParams.get('timestamp__gte')).toBe('2026-02-05T11:24:45.000Z');
  });

  it('stops when the last page is empty or next_page_id is absent (newer servers omit nulls)', async () => {
    server.use(
      http.get(`${BASE}/api/conversations/:c/events/search`, () => HttpResponse.json({ items: [] })),
    );
    expect(await drain(client.search(CONVERSATION))).toEqual([]);
    expect(searchUrls()).toHaveLength(1);
  });
});

describe('kind translation', () => {
  it('translates a short kind to the module path the server compares, and finds the events', async () => {
    const seeded = seed(9);
    const actions = await drain(client.search(CONVERSATION, { kind: 'ActionEvent' }));
    expect(actions.map((event) => event.id)).toEqual([seeded[2]!.id, seeded[5]!.id, seeded[8]!.id]);
    expect(searchUrls()[0]!.searchParams.get('kind')).toBe(ACTION_PATH);
    expect(await client.count(CONVERSATION, { kind: 'MessageEvent' })).toBe(6);
    expect(new URL(requests.at(-1)!.url).searchParams.get('kind')).toBe(MESSAGE_PATH);
  });

  it('the server itself matches nothing for a short kind: that is why the SDK translates', async () => {
    seed(3);
    const response = await fetch(`${BASE}/api/conversations/${CONVERSATION}/events/count?kind=MessageEvent`, {
      headers: { 'X-Session-API-Key': KEY },
    });
    expect(await response.json()).toBe(0);
  });

  it('passes a module path through unchanged', async () => {
    seed(3);
    expect(await client.count(CONVERSATION, { kind: MESSAGE_PATH })).toBe(2);
    expect(new URL(requests[0]!.url).searchParams.get('kind')).toBe(MESSAGE_PATH);
  });

  it('rejects an unknown short kind before any request, naming the field', () => {
    const error = catchSync(() =>
      client.search(CONVERSATION, { kind: 'ActionEvnt' }),
    ) as RequestValidationError;
    expect(isRequestValidationError(error)).toBe(true);
    expect(error.issues[0]!.path).toEqual(['query', 'kind']);
    expect(error.message).toContain('ActionEvnt');
    expect(requests).toHaveLength(0);
  });
});

describe('limit clamping', () => {
  it.each([
    [250, '100'],
    [101, '100'],
    [100, '100'],
    [37, '37'],
    [2.7, '2'],
    [0, '1'],
    [-5, '1'],
  ])('limit %s is sent as %s', async (limit, sent) => {
    seed(2);
    await drain(client.search(CONVERSATION, { limit }));
    expect(searchUrls()[0]!.searchParams.get('limit')).toBe(sent);
  });

  it('is needed: the server answers 500 above 100 and 422 at 0', async () => {
    const get = (limit: number) =>
      fetch(`${BASE}/api/conversations/${CONVERSATION}/events/search?limit=${limit}`, {
        headers: { 'X-Session-API-Key': KEY },
      });
    expect((await get(101)).status).toBe(500);
    expect((await get(0)).status).toBe(422);
  });

  it('rejects a limit that is not a number', () => {
    const error = catchSync(() =>
      client.search(CONVERSATION, { limit: Number.NaN }),
    ) as RequestValidationError;
    expect(error.issues[0]!.path).toEqual(['query', 'limit']);
  });
});

describe('input validation happens before any request', () => {
  it.each([
    [{ sortOrder: 'NEWEST' }, 'query.sortOrder'],
    [{ source: '' }, 'query.source'],
    [{ body: 3 }, 'query.body'],
    [{ timestampGte: 'yesterday' }, 'query.timestampGte'],
    [{ timestampLt: new Date('nope') }, 'query.timestampLt'],
  ])('search %j → %s', (query, field) => {
    const error = catchSync(() => client.search(CONVERSATION, query as never)) as RequestValidationError;
    expect(isRequestValidationError(error)).toBe(true);
    expect(error.issues[0]!.path.join('.')).toBe(field);
    expect(requests).toHaveLength(0);
  });

  it('a conversation id that is not a UUID', async () => {
    expect(isRequestValidationError(catchSync(() => client.search('nope')))).toBe(true);
    expect(isRequestValidationError(await client.count('nope').catch((e: unknown) => e))).toBe(true);
    expect(isRequestValidationError(await client.send('nope', 'hi').catch((e: unknown) => e))).toBe(true);
    expect(requests).toHaveLength(0);
  });
});

describe('EventsClient.count', () => {
  it('counts with the filters minus paging and sort', async () => {
    const seeded = seed(10);
    expect(await client.count(CONVERSATION)).toBe(10);
    expect(await client.count(CONVERSATION, { source: 'agent', timestampGte: seeded[5]!.timestamp })).toBe(2);
    const params = Object.fromEntries(new URL(requests.at(-1)!.url).searchParams);
    expect(params).toEqual({ source: 'agent', timestamp__gte: seeded[5]!.timestamp });
  });

  it('a count that is not an integer is a ResponseValidationError', async () => {
    server.use(http.get(`${BASE}/api/conversations/:c/events/count`, () => HttpResponse.json('7')));
    expect(isResponseValidationError(await client.count(CONVERSATION).catch((e: unknown) => e))).toBe(true);
  });
});

describe('EventsClient.send and respondToConfirmation', () => {
  it('posts a SendMessageRequest; a string is one user text; run defaults to false', async () => {
    await client.send(CONVERSATION, 'Run `pwd`');
    await client.send(CONVERSATION, {
      role: 'user',
      content: [{ text: 'look' }, { image_urls: ['https://example.com/a.png'] }],
      run: true,
    });
    const bodies = await Promise.all(requests.map((request) => request.json()));
    expect(requests.map((request) => request.method)).toEqual(['POST', 'POST']);
    expect(bodies[0]).toEqual({ run: false, role: 'user', content: [{ type: 'text', text: 'Run `pwd`' }] });
    expect(bodies[1]).toEqual({
      run: true,
      role: 'user',
      content: [
        { type: 'text', text: 'look' },
        { type: 'image', image_urls: ['https://example.com/a.png'] },
      ],
    });
    expect(store.getConversation(CONVERSATION)!.events.map((event) => event.kind)).toContain('MessageEvent');
  });

  it.each([
    ['', 'message'],
    [{ content: [] }, 'message.content'],
    [{ role: 'robot', content: 'x' }, 'message.role'],
    [{ content: [{ type: 'video' }] }, 'message.content.0.type'],
    [{ content: [{ image_urls: [] }] }, 'message.content.0.image_urls'],
    [{ content: 'x', run: 'yes' }, 'message.run'],
  ])('rejects %j (%s) before any request', async (message, field) => {
    const error = (await client
      .send(CONVERSATION, message as never)
      .catch((e: unknown) => e)) as RequestValidationError;
    expect(isRequestValidationError(error)).toBe(true);
    expect(error.issues[0]!.path.join('.')).toBe(field);
    expect(requests).toHaveLength(0);
  });

  it('respondToConfirmation posts {accept, reason}', async () => {
    await client.respondToConfirmation(CONVERSATION, { accept: false, reason: 'too risky' });
    await client.respondToConfirmation(CONVERSATION, { accept: true });
    expect(requests[0]!.url).toBe(`${BASE}/api/conversations/${CONVERSATION}/events/respond_to_confirmation`);
    expect(await requests[0]!.json()).toEqual({ accept: false, reason: 'too risky' });
    expect(await requests[1]!.json()).toEqual({ accept: true });
    const error = await client
      .respondToConfirmation(CONVERSATION, { accept: 'yes' } as never)
      .catch((e: unknown) => e);
    expect((error as RequestValidationError).issues[0]!.path).toEqual(['response', 'accept']);
  });

  it('send is not retried (a repeated POST would send the message twice)', async () => {
    server.use(
      http.post(`${BASE}/api/conversations/:c/events`, () =>
        HttpResponse.json({ detail: 'Internal Server Error', exception: 'boom' }, { status: 500 }),
      ),
    );
    expect(isInternalServerError(await client.send(CONVERSATION, 'hi').catch((e: unknown) => e))).toBe(true);
    expect(requests).toHaveLength(1);
  });
});

describe('error mapping of the event routes', () => {
  const unknown = '00000000-0000-4000-8000-000000000000';

  it('401 without the right key', async () => {
    const anonymous = new EventsClient({ baseUrl: BASE, logLevel: 'off' });
    expect(isAuthenticationError(await drain(anonymous.search(CONVERSATION)).catch((e: unknown) => e))).toBe(
      true,
    );
    expect(isAuthenticationError(await anonymous.count(CONVERSATION).catch((e: unknown) => e))).toBe(true);
    expect(isAuthenticationError(await anonymous.send(CONVERSATION, 'x').catch((e: unknown) => e))).toBe(
      true,
    );
  });

  it('404 for an unknown conversation on search, count, send, respondToConfirmation', async () => {
    expect(isNotFoundError(await drain(client.search(unknown)).catch((e: unknown) => e))).toBe(true);
    expect(isNotFoundError(await client.count(unknown).catch((e: unknown) => e))).toBe(true);
    expect(isNotFoundError(await client.send(unknown, 'x').catch((e: unknown) => e))).toBe(true);
    expect(
      isNotFoundError(await client.respondToConfirmation(unknown, { accept: true }).catch((e: unknown) => e)),
    ).toBe(true);
  });

  it('422 from the server is an UnprocessableEntityError', async () => {
    server.use(
      http.get(`${BASE}/api/conversations/:c/events/search`, () =>
        HttpResponse.json(
          { detail: [{ loc: ['query', 'limit'], msg: 'bad', type: 'greater_than' }] },
          { status: 422 },
        ),
      ),
    );
    const error = await drain(client.search(CONVERSATION)).catch((e: unknown) => e);
    expect(isUnprocessableEntityError(error)).toBe(true);
  });

  it('503 (inactive service) is an InternalServerError after the retries', async () => {
    server.use(
      http.get(`${BASE}/api/conversations/:c/events/count`, () =>
        HttpResponse.json({ detail: 'Conversation service is not available' }, { status: 503 }),
      ),
    );
    const error = await client.count(CONVERSATION).catch((e: unknown) => e);
    expect(isInternalServerError(error)).toBe(true);
    expect(requests).toHaveLength(3);
  });

  it('a page with a malformed item is a ResponseValidationError naming the item', async () => {
    server.use(
      http.get(`${BASE}/api/conversations/:c/events/search`, () =>
        HttpResponse.json({ items: [{ id: 'x', timestamp: 't' }], next_page_id: null }),
      ),
    );
    const error = await drain(client.search(CONVERSATION)).catch((e: unknown) => e);
    expect(isResponseValidationError(error)).toBe(true);
    expect((error as { issues: { path: unknown[] }[] }).issues[0]!.path.slice(0, 2)).toEqual(['items', 0]);
  });

  it('an event of a kind this SDK does not know is kept, not an error (lenient)', async () => {
    store.appendEvent(CONVERSATION, {
      id: 'h1',
      timestamp: store.timestamp(),
      source: 'hook',
      kind: 'HookExecutionEvent',
    });
    const events = await drain(client.search(CONVERSATION));
    expect(events.map((event) => event.kind)).toEqual(['HookExecutionEvent']);
  });

  it('a page_id the server no longer knows restarts paging: detected, not looped', async () => {
    const seeded = seed(3);
    let calls = 0;
    server.use(
      http.get(`${BASE}/api/conversations/:c/events/search`, () => {
        calls += 1;
        // Always the first page: what the server answers for an unknown page_id.
        return HttpResponse.json({ items: seeded.slice(0, 2), next_page_id: seeded[2]!.id });
      }),
    );
    const error = await drain(client.search(CONVERSATION)).catch((e: unknown) => e);
    expect(isResponseValidationError(error)).toBe(true);
    expect((error as Error).message).toContain('restarted from the first page');
    expect(calls).toBe(2);
  });
});

async function drain<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

function catchSync(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}
