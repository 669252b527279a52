import { HttpResponse, http } from 'msw/http';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  ConversationsClient,
  EventsClient,
  isSubscriptionNotFoundError,
  isWaitTimeoutError,
  type StartConversationRequest,
  type WaitTimeoutError,
} from '../../src/agent-server/index.js';
import {
  type APIError,
  isAPIUserAbortError,
  isAuthenticationError,
  isConflictError,
  isNotFoundError,
  isRequestValidationError,
  isUnprocessableEntityError,
  type RequestValidationError,
} from '../../src/core/errors.js';
import { socketDouble } from '../../src/testing/agent-server/socket-handlers.js';
import { agentRunnerFor } from '../../src/testing.js';
import { useMswServer } from '../helpers/msw.js';
import { simulatedServer, sleep } from './simulated.js';

const KEY = 'conversations-key-555';
const sim = simulatedServer('conversations.test', { version: '1.25.0', sessionApiKey: KEY });
// REST works, every websocket handshake is refused: waitUntil must fall back to polling.
const noSockets = simulatedServer('nosockets.test', { version: '1.25.0', sessionApiKey: KEY });
const refuse = socketDouble('ws://nosockets.test/sockets/events/:id', ({ client }) => client.close(1006, ''));
const { server, requests } = useMswServer(...sim.handlers, ...noSockets.restHandlers, ...refuse);

const { store } = sim;
const client = new ConversationsClient({
  baseUrl: sim.baseUrl,
  sessionApiKey: KEY,
  logLevel: 'off',
  maxRetryDelay: 10,
});
const events = new EventsClient({ baseUrl: sim.baseUrl, sessionApiKey: KEY, logLevel: 'off' });
const UNKNOWN = '00000000-0000-4000-8000-00000000abcd';
const LLM_KEY = 'sk-live-llm-key-9f8e7d6c';
const GITHUB = 'ghp_secretvalue123456';

const request: StartConversationRequest = {
  agent: {
    llm: { model: 'litellm_proxy/claude', api_key: LLM_KEY, usage_id: 'agent' },
    tools: [{ name: 'terminal' }],
  },
  workspace: { working_dir: 'workspace/project' },
  initial_message: 'Run `pwd`',
  secrets: { GITHUB_TOKEN: GITHUB },
};

beforeEach(() => {
  agentRunnerFor(store).dispose();
  store.conversations.clear();
});

const urlOf = (r: Request) => new URL(r.url);

describe('start', () => {
  it('posts a StartConversationRequest with the kinds filled in and returns the ConversationInfo', async () => {
    const info = await client.create(request);
    const body = await requests[0]!.json();
    expect(urlOf(requests[0]!).pathname).toBe('/api/conversations');
    expect(body).toEqual({
      agent: {
        kind: 'Agent',
        llm: { model: 'litellm_proxy/claude', api_key: LLM_KEY, usage_id: 'agent' },
        tools: [{ name: 'terminal' }],
      },
      workspace: { kind: 'LocalWorkspace', working_dir: 'workspace/project' },
      initial_message: { run: false, role: 'user', content: [{ type: 'text', text: 'Run `pwd`' }] },
      secrets: { GITHUB_TOKEN: GITHUB },
    });
    expect(info).toMatchObject({ execution_status: 'idle', workspace: { working_dir: 'workspace/project' } });
    expect((info.agent as unknown as { llm: { api_key: string } }).llm.api_key).toBe('**********');
    // The initial message is the first event, and it runs (as on the real server) although run is false.
    expect(store.getConversation(info.id)!.events[0]!.kind).toBe('MessageEvent');
    expect(store.getConversation(info.id)!.info.execution_status).not.toBe('idle');
  });

  it('starting an id that exists returns that conversation (the server answers 200 instead of 201)', async () => {
    const first = await client.create({
      ...request,
      conversation_id: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
    });
    const again = await client.create({
      ...request,
      conversation_id: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
    });
    expect(again.id).toBe(first.id);
    expect(store.conversations.size).toBe(1);
  });

  it.each([
    [{ ...request, agent: { llm: { model: '' } } }, 'request.agent.llm.model'],
    [{ ...request, agent: undefined }, 'request.agent'],
    [{ ...request, workspace: { working_dir: '' } }, 'request.workspace'],
    [{ ...request, conversation_id: 'c1' }, 'request.conversation_id'],
    [{ ...request, max_iterations: 0 }, 'request.max_iterations'],
    [{ ...request, confirmation_policy: { kind: 'Sometimes' } }, 'request.confirmation_policy'],
    [{ ...request, initial_message: { content: [] } }, 'request.initial_message.content'],
  ])('rejects bad input (%#: %s) before any request', async (bad, field) => {
    const error = (await client.create(bad as never).catch((e: unknown) => e)) as RequestValidationError;
    expect(isRequestValidationError(error)).toBe(true);
    expect(error.issues[0]!.path.join('.')).toBe(field);
    expect(requests).toHaveLength(0);
  });

  it('a 422 that echoes the request never shows the LLM key or the secrets', async () => {
    server.use(
      http.post(`${sim.baseUrl}/api/conversations`, async ({ request: r }) => {
        const input = await r.json();
        return HttpResponse.json(
          {
            detail: [
              {
                type: 'value_error',
                loc: ['body', 'agent'],
                msg: `bad agent ${JSON.stringify(input)}`,
                input,
              },
            ],
          },
          { status: 422 },
        );
      }),
    );
    const error = await client.create(request).catch((e: unknown) => e);
    expect(isUnprocessableEntityError(error)).toBe(true);
    const shown =
      JSON.stringify(error) + String((error as Error).message) + JSON.stringify((error as APIError).body);
    expect(shown).not.toContain(LLM_KEY);
    expect(shown).not.toContain(GITHUB);
    expect(shown).toContain('[redacted]');
  });
});

describe('get, search, count', () => {
  it('gets one conversation; an unknown one is a NotFoundError', async () => {
    const { id } = store.addConversation(undefined, { title: 'Hello' });
    expect(await client.get(id)).toMatchObject({ id, title: 'Hello', execution_status: 'idle' });
    const error = (await client.get(UNKNOWN).catch((e: unknown) => e)) as APIError;
    expect(isNotFoundError(error)).toBe(true);
    expect(error.status).toBe(404);
  });

  it('searches across pages keyed by the 32-hex id, newest first by default', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      ids.push(store.addConversation(undefined, { created_at: `2026-02-0${i + 1}T10:00:00+00:00` }).id);
    }
    const found: string[] = [];
    for await (const info of client.search({ limit: 2 })) found.push(info.id);
    expect(found).toEqual([...ids].reverse());
    const pageIds = requests.map((r) => urlOf(r).searchParams.get('page_id'));
    expect(pageIds).toEqual([null, ids[2]!.replaceAll('-', ''), ids[0]!.replaceAll('-', '')]);
    const oldest: string[] = [];
    for await (const page of client.pages({ sortOrder: 'CREATED_AT', limit: 500 }))
      oldest.push(...page.items.map((i) => i.id));
    expect(oldest).toEqual(ids);
    expect(urlOf(requests.at(-1)!).searchParams.get('limit')).toBe('100');
  });

  it('filters search and count by execution status', async () => {
    store.addConversation(undefined, { execution_status: 'finished' });
    store.addConversation(undefined, { execution_status: 'finished' });
    store.addConversation();
    const finished: string[] = [];
    for await (const info of client.search({ status: 'finished' })) finished.push(info.execution_status);
    expect(finished).toEqual(['finished', 'finished']);
    expect(await client.count({ status: 'finished' })).toBe(2);
    expect(await client.count()).toBe(3);
    expect(urlOf(requests.at(-2)!).searchParams.get('status')).toBe('finished');
  });

  it.each([
    [() => client.search({ status: 'done' as never }), 'query.status'],
    [() => client.search({ sortOrder: 'NEWEST' as never }), 'query.sortOrder'],
    [() => client.count({ status: 'done' as never }), 'filter.status'],
  ])('rejects a bad filter (%#) before any request', async (call, field) => {
    const error = (await (async () => call())().catch((e: unknown) => e)) as RequestValidationError;
    expect(error.issues[0]!.path.join('.')).toBe(field);
    expect(requests).toHaveLength(0);
  });
});

describe('lifecycle and its error mapping', () => {
  it('run starts the agent; run while running is a ConflictError (409); unknown is a NotFoundError', async () => {
    const { id } = store.addConversation();
    await client.run(id);
    expect(store.getConversation(id)!.info.execution_status).toBe('running');
    const conflict = (await client.run(id).catch((e: unknown) => e)) as APIError;
    expect(isConflictError(conflict)).toBe(true);
    expect(conflict.message).toContain('Conversation already running');
    expect(isNotFoundError(await client.run(UNKNOWN).catch((e: unknown) => e))).toBe(true);
  });

  it('pause: publishes the pause; an unknown id (400 on the server) is a NotFoundError', async () => {
    const { id } = store.addConversation();
    await client.pause(id);
    expect(store.getConversation(id)!.info.execution_status).toBe('paused');
    expect(store.getConversation(id)!.events.map((e) => e.kind)).toEqual([
      'PauseEvent',
      'ConversationStateUpdateEvent',
    ]);
    const error = (await client.pause(UNKNOWN).catch((e: unknown) => e)) as APIError;
    expect(isNotFoundError(error)).toBe(true);
    expect(error.status).toBe(400);
  });

  it('delete: removes; an unknown id (400) is a NotFoundError, not retried', async () => {
    const { id } = store.addConversation();
    await client.delete(id);
    expect(store.getConversation(id)).toBeUndefined();
    requests.length = 0;
    expect(isNotFoundError(await client.delete(id).catch((e: unknown) => e))).toBe(true);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.method).toBe('DELETE');
  });

  it('setTitle: PATCH {title}; the server says success: false for an unknown id → NotFoundError', async () => {
    const { id } = store.addConversation();
    await client.setTitle(id, '  Fix the build  ');
    expect(await requests[0]!.json()).toEqual({ title: '  Fix the build  ' });
    expect(store.getConversation(id)!.info.title).toBe('Fix the build');
    const error = (await client.setTitle(UNKNOWN, 'x').catch((e: unknown) => e)) as APIError;
    expect(isNotFoundError(error)).toBe(true);
    expect(error.message).toContain('success: false');
    for (const bad of ['', '   ', 'x'.repeat(201)]) {
      const invalid = (await client.setTitle(id, bad).catch((e: unknown) => e)) as RequestValidationError;
      expect(invalid.issues[0]!.path).toEqual(['title']);
    }
  });

  it('setConfirmationPolicy posts {policy: {kind, …}}', async () => {
    const { id } = store.addConversation();
    await client.setConfirmationPolicy(id, 'AlwaysConfirm');
    await client.setConfirmationPolicy(id, {
      kind: 'ConfirmRisky',
      threshold: 'MEDIUM',
      confirm_unknown: false,
    });
    expect(await requests[0]!.json()).toEqual({ policy: { kind: 'AlwaysConfirm' } });
    expect(await requests[1]!.json()).toEqual({
      policy: { kind: 'ConfirmRisky', threshold: 'MEDIUM', confirm_unknown: false },
    });
    expect(store.getConversation(id)!.info.confirmation_policy).toEqual({
      kind: 'ConfirmRisky',
      threshold: 'MEDIUM',
      confirm_unknown: false,
    });
    const bad = (await client
      .setConfirmationPolicy(id, { type: 'always' } as never)
      .catch((e: unknown) => e)) as RequestValidationError;
    expect(bad.issues[0]!.path).toEqual(['policy']);
    expect(
      isNotFoundError(await client.setConfirmationPolicy(UNKNOWN, 'NeverConfirm').catch((e: unknown) => e)),
    ).toBe(true);
  });

  it('every route needs the session key (401)', async () => {
    const { id } = store.addConversation();
    const anonymous = new ConversationsClient({ baseUrl: sim.baseUrl, logLevel: 'off' });
    const calls: (() => Promise<unknown>)[] = [
      () => anonymous.get(id),
      () => anonymous.count(),
      () => anonymous.run(id),
      () => anonymous.pause(id),
      () => anonymous.delete(id),
      () => anonymous.setTitle(id, 't'),
      () => anonymous.setConfirmationPolicy(id, 'NeverConfirm'),
      () => anonymous.create(request),
    ];
    for (const call of calls) expect(isAuthenticationError(await call().catch((e: unknown) => e))).toBe(true);
  });

  it('ids that are not UUIDs are rejected before any request', async () => {
    for (const call of [
      () => client.get('x'),
      () => client.run('x'),
      () => client.pause('x'),
      () => client.delete('x'),
    ]) {
      expect(isRequestValidationError(await call().catch((e: unknown) => e))).toBe(true);
    }
    expect(requests).toHaveLength(0);
  });
});

describe('waitUntil', () => {
  it('resolves on a terminal status from the stream after a run', async () => {
    const { id } = store.addConversation();
    const done = client.waitUntil(id);
    await sleep(20);
    await events.send(id, { content: 'Run `pwd`', run: true });
    expect(await done).toBe('finished');
  });

  it('resolves at once when the conversation already has the status', async () => {
    const { id } = store.addConversation(undefined, { execution_status: 'stuck' });
    expect(await client.waitUntil(id, ['finished', 'stuck'])).toBe('stuck');
    expect(await client.waitUntil(id, 'stuck')).toBe('stuck');
  });

  it('falls back to REST polling when the stream cannot connect', async () => {
    const polling = new ConversationsClient({
      baseUrl: noSockets.baseUrl,
      sessionApiKey: KEY,
      logLevel: 'off',
    });
    const { id } = noSockets.store.addConversation();
    const done = polling.waitUntil(id, 'paused', { pollInterval: 10 });
    await sleep(40);
    noSockets.store.setStatus(id, 'paused');
    expect(await done).toBe('paused');
  });

  it('times out with WaitTimeoutError naming the last status', async () => {
    const { id } = store.addConversation();
    const error = (await client
      .waitUntil(id, 'finished', { timeout: 60 })
      .catch((e: unknown) => e)) as WaitTimeoutError;
    expect(isWaitTimeoutError(error)).toBe(true);
    expect(error.lastStatus).toBe('idle');
    expect(error.code).toBe('WAIT_TIMEOUT');
  });

  it('aborts with APIUserAbortError', async () => {
    const { id } = store.addConversation();
    const controller = new AbortController();
    const done = client.waitUntil(id, 'finished', { signal: controller.signal });
    await sleep(10);
    controller.abort();
    expect(isAPIUserAbortError(await done.catch((e: unknown) => e))).toBe(true);
    expect(
      isAPIUserAbortError(
        await client.waitUntil(id, 'finished', { signal: AbortSignal.abort() }).catch((e: unknown) => e),
      ),
    ).toBe(true);
  });

  it('an unknown conversation rejects with NotFoundError, whether the stream or a poll finds out first', async () => {
    for (const pollInterval of [1, 2_000]) {
      const error = await client.waitUntil(UNKNOWN, 'finished', { pollInterval }).catch((e: unknown) => e);
      expect(isNotFoundError(error), String(error)).toBe(true);
      expect(isSubscriptionNotFoundError(error)).toBe(false);
    }
  });

  it('rejects statuses that do not exist', async () => {
    const { id } = store.addConversation();
    for (const bad of [[], ['done'], 'finish']) {
      const error = (await client
        .waitUntil(id, bad as never)
        .catch((e: unknown) => e)) as RequestValidationError;
      expect(error.issues[0]!.path).toEqual(['statuses']);
    }
  });
});

describe('serverInfo', () => {
  it('is fetched once and shared', async () => {
    const fresh = new ConversationsClient({ baseUrl: sim.baseUrl, logLevel: 'off' });
    const [a, b] = await Promise.all([fresh.serverInfo(), fresh.serverInfo()]);
    expect(a.version).toBe('1.25.0');
    expect(b).toBe(a);
    expect(await fresh.serverInfo()).toBe(a);
    expect(requests.filter((r) => urlOf(r).pathname === '/server_info')).toHaveLength(1);
  });
});
