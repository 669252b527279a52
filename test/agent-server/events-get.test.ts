import { readFileSync } from 'node:fs';
import { HttpResponse, http } from 'msw/http';
import { describe, expect, it } from 'vitest';
import { EventsClient } from '../../src/agent-server/index.js';
import {
  isAuthenticationError,
  isNotFoundError,
  isRequestValidationError,
  isResponseValidationError,
  isUnprocessableEntityError,
  type RequestValidationError,
  type ResponseValidationError,
} from '../../src/core/errors.js';
import { AgentServerStore, agentServerHandlers } from '../../src/testing.js';
import { useMswServer } from '../helpers/msw.js';

const BASE = 'http://agent.test';
const KEY = 'session-key-123';
const CONVERSATION = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const sample = JSON.parse(
  readFileSync(new URL('../fixtures/anchor-events/ActionEvent.TerminalAction.json', import.meta.url), 'utf8'),
);

const store = new AgentServerStore();
store.appendEvent(CONVERSATION, sample);
const { server, requests } = useMswServer(
  ...agentServerHandlers({ baseUrl: BASE, sessionApiKey: KEY, store }),
);
const client = new EventsClient({ baseUrl: BASE, sessionApiKey: KEY, logLevel: 'off', maxRetryDelay: 10 });

describe('EventsClient.get', () => {
  it('fetches one typed event with the session key header', async () => {
    const event = await client.get(CONVERSATION, sample.id);
    expect(event.kind).toBe('ActionEvent');
    expect(event.id).toBe(sample.id);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.url).toBe(`${BASE}/api/conversations/${CONVERSATION}/events/${sample.id}`);
    expect(requests[0]!.headers.get('x-session-api-key')).toBe(KEY);
  });

  it('accepts the 32-hex form of a conversation id', async () => {
    const event = await client.get(CONVERSATION.replaceAll('-', ''), sample.id);
    expect(event.id).toBe(sample.id);
  });

  it('sends no key header when none is configured', async () => {
    const open = new EventsClient({ baseUrl: BASE, logLevel: 'off' });
    const error = await open.get(CONVERSATION, sample.id).catch((e: unknown) => e);
    expect(isAuthenticationError(error)).toBe(true);
    expect(requests[0]!.headers.has('x-session-api-key')).toBe(false);
  });

  it.each(['not-a-uuid', '', '3fa85f64-5717-4562-b3fc', `${CONVERSATION}x`, 42, null])(
    'rejects conversation id %j before any request',
    async (bad) => {
      const error = (await client
        .get(bad as string, sample.id)
        .catch((e: unknown) => e)) as RequestValidationError;
      expect(isRequestValidationError(error)).toBe(true);
      expect(error.issues[0]!.path).toEqual(['conversationId']);
      expect(error.message).toContain('conversationId');
      expect(requests).toHaveLength(0);
    },
  );

  it.each(['', '   ', undefined])('rejects event id %j before any request', async (bad) => {
    const error = (await client
      .get(CONVERSATION, bad as string)
      .catch((e: unknown) => e)) as RequestValidationError;
    expect(isRequestValidationError(error)).toBe(true);
    expect(error.message).toContain('eventId');
    expect(requests).toHaveLength(0);
  });

  it('an unknown conversation is a NotFoundError (404)', async () => {
    const error = await client.get('00000000-0000-4000-8000-000000000000', 'x').catch((e: unknown) => e);
    expect(isNotFoundError(error)).toBe(true);
  });

  it("an unknown event id (404 from 1.58, the real server's 500 'Unknown event_id' before) is a NotFoundError, not retried", async () => {
    const newest = await client.get(CONVERSATION, 'missing-event').catch((e: unknown) => e);
    expect(isNotFoundError(newest)).toBe(true);
    expect(requests).toHaveLength(1);
    requests.length = 0;
    server.use(...agentServerHandlers({ baseUrl: BASE, sessionApiKey: KEY, store, version: '1.45.0' }));
    const error = await client.get(CONVERSATION, 'missing-event').catch((e: unknown) => e);
    expect(isNotFoundError(error)).toBe(true);
    expect((error as Error).message).toContain('Event not found');
    expect(requests).toHaveLength(1);
  });

  it('a documented 404 "Item not found" is a NotFoundError too', async () => {
    server.use(
      http.get(`${BASE}/api/conversations/:c/events/:e`, () =>
        HttpResponse.json({ detail: 'Item not found' }, { status: 404 }),
      ),
    );
    expect(isNotFoundError(await client.get(CONVERSATION, 'x').catch((e: unknown) => e))).toBe(true);
  });

  it('422 is an UnprocessableEntityError with the typed detail', async () => {
    server.use(
      http.get(`${BASE}/api/conversations/:c/events/:e`, () =>
        HttpResponse.json(
          { detail: [{ loc: ['path', 'event_id'], msg: 'bad', type: 'value_error' }] },
          { status: 422 },
        ),
      ),
    );
    const error = await client.get(CONVERSATION, 'x').catch((e: unknown) => e);
    expect(isUnprocessableEntityError(error)).toBe(true);
    expect((error as { detail: unknown }).detail).toEqual([
      { loc: ['path', 'event_id'], msg: 'bad', type: 'value_error' },
    ]);
  });

  it('a malformed event is a ResponseValidationError with path and raw body', async () => {
    const raw = JSON.stringify({ id: 'e1', timestamp: '2026-01-01T00:00:00', source: 'agent' });
    server.use(
      http.get(
        `${BASE}/api/conversations/:c/events/:e`,
        () => new HttpResponse(raw, { headers: { 'content-type': 'application/json' } }),
      ),
    );
    const error = (await client.get(CONVERSATION, 'e1').catch((e: unknown) => e)) as ResponseValidationError;
    expect(isResponseValidationError(error)).toBe(true);
    expect(error.rawBody).toBe(raw);
    expect(error.issues.some((issue) => issue.path.includes('kind'))).toBe(true);
  });

  it('passes the abort signal through', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await client
      .get(CONVERSATION, sample.id, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect((error as Error).name).toBe('APIUserAbortError');
  });
});
