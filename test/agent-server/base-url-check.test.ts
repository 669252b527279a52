import { HttpResponse, http } from 'msw/http';
import { describe, expect, it } from 'vitest';
import {
  AgentServerClient,
  ConversationsClient,
  EventsClient,
  isNotAnAgentServerError,
  type NotAnAgentServerError,
} from '../../src/agent-server/index.js';
import { isNotFoundError } from '../../src/core/errors.js';
import { AgentServerStore, agentServerHandlers } from '../../src/testing.js';
import { useMswServer } from '../helpers/msw.js';

const BASE = 'http://agent.test';
const KEY = 'session-key-123';
const MISSING = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const quiet = { logLevel: 'off', maxRetryDelay: 10 } as const;

// A real agent server at BASE; anything else on the host answers as the real server does for an unknown
// route: 404 {"detail":"Not Found"}.
const { server, requests } = useMswServer(
  ...agentServerHandlers({ baseUrl: BASE, sessionApiKey: KEY, store: new AgentServerStore() }),
  http.all(`${BASE}/*`, () => HttpResponse.json({ detail: 'Not Found' }, { status: 404 })),
  http.all('http://other.test/*', () => HttpResponse.json({ detail: 'Not Found' }, { status: 404 })),
);

const serverInfoRequests = () => requests.filter((r) => new URL(r.url).pathname.endsWith('/server_info'));

describe('a 404 from a base URL that is not an agent server', () => {
  it('is a NotAnAgentServerError naming the base URL, not a NotFoundError', async () => {
    const events = new EventsClient({ baseUrl: `${BASE}/api`, sessionApiKey: KEY, ...quiet });
    const error = (await events.count(MISSING).catch((e: unknown) => e)) as NotAnAgentServerError;
    expect(isNotAnAgentServerError(error)).toBe(true);
    expect(isNotFoundError(error)).toBe(false);
    expect(error.baseUrl).toBe(`${BASE}/api`);
    expect(error.serverInfoStatus).toBe(404);
    expect(error.message).toContain(`${BASE}/api does not look like an agent server`);
    expect(isNotFoundError(error.cause)).toBe(true);
  });

  it('asks /server_info once per client, however many 404s follow', async () => {
    const conversations = new ConversationsClient({ baseUrl: 'http://other.test', ...quiet });
    for (let i = 0; i < 3; i += 1) {
      expect(isNotAnAgentServerError(await conversations.get(MISSING).catch((e: unknown) => e))).toBe(true);
    }
    expect(serverInfoRequests()).toHaveLength(1);
  });

  it('says so for a 200 that is not server info (another service)', async () => {
    server.use(
      http.get('http://other.test/server_info', () => HttpResponse.json({ ok: true })),
      http.get('http://other.test/api/conversations/*', () => HttpResponse.json({}, { status: 404 })),
    );
    const events = new EventsClient({ baseUrl: 'http://other.test', ...quiet });
    const error = (await events.count(MISSING).catch((e: unknown) => e)) as NotAnAgentServerError;
    expect(isNotAnAgentServerError(error)).toBe(true);
    expect(error.serverInfoStatus).toBe(200);
  });

  it('never shows a secret the base URL holds (a proxy path with the key in it)', async () => {
    const events = new EventsClient({ baseUrl: `http://other.test/s/${KEY}`, sessionApiKey: KEY, ...quiet });
    const error = (await events.count(MISSING).catch((e: unknown) => e)) as NotAnAgentServerError;
    expect(isNotAnAgentServerError(error)).toBe(true);
    expect(error.baseUrl).toBe('http://other.test/s/[redacted]');
    expect(`${error.message} ${JSON.stringify(error)}`).not.toContain(KEY);
  });

  it('reaches the aggregate client’s namespaces', async () => {
    const client = new AgentServerClient({ baseUrl: `${BASE}/api`, sessionApiKey: KEY, ...quiet });
    const error = await client.files.downloadText('/workspace/README.md').catch((e: unknown) => e);
    expect(isNotAnAgentServerError(error)).toBe(true);
  });
});

describe('a 404 from a real agent server', () => {
  it('stays a NotFoundError (the conversation is missing)', async () => {
    const events = new EventsClient({ baseUrl: BASE, sessionApiKey: KEY, ...quiet });
    const first = await events.count(MISSING).catch((e: unknown) => e);
    const second = await events.count(MISSING).catch((e: unknown) => e);
    expect(isNotFoundError(first)).toBe(true);
    expect(isNotFoundError(second)).toBe(true);
    expect(serverInfoRequests()).toHaveLength(1);
  });

  it('stays a NotFoundError when /server_info cannot be reached (no verdict, nothing cached)', async () => {
    server.use(http.get('http://other.test/server_info', () => HttpResponse.error()));
    const events = new EventsClient({ baseUrl: 'http://other.test', ...quiet, maxRetries: 0 });
    expect(isNotFoundError(await events.count(MISSING).catch((e: unknown) => e))).toBe(true);
  });
});
