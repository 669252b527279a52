// AgentServerClient on msw: the handlers of src/testing/agent-server (files, bash, final answer, fork,
// interrupt) plus error mappings every namespace shares, redaction, the version gate and request().
import { inspect } from 'node:util';
import { HttpResponse, http } from 'msw/http';
import { describe, expect, it } from 'vitest';
import {
  AgentServerClient,
  isAgentServerVersionError,
  isAPIUserAbortError,
  isAuthenticationError,
  isNotFoundError,
  isRequestValidationError,
  isResponseValidationError,
  isUnprocessableEntityError,
  type ResponseValidationError,
} from '../../src/index.js';
import { AgentServerStore, agentServerApiHandlers, agentServerHandlers } from '../../src/testing.js';
import { useMswServer } from '../helpers/msw.js';

const KEY = 'api-client-session-key-777';
const BASE = 'http://api-client.test';
const OLD = 'http://old-server.test';
const store = new AgentServerStore();
const oldStore = new AgentServerStore();
const { server, requests } = useMswServer(
  ...agentServerApiHandlers({ baseUrl: BASE, sessionApiKey: KEY, store }),
  ...agentServerHandlers({ baseUrl: BASE, sessionApiKey: KEY, store }),
  ...agentServerHandlers({ baseUrl: OLD, sessionApiKey: KEY, store: oldStore, version: '1.11.4' }),
  // What a 1.11.4 server answers for a route it does not have.
  http.all(`${OLD}/*`, () => HttpResponse.json({ detail: 'Not Found' }, { status: 404 })),
);
const client = new AgentServerClient({ baseUrl: BASE, sessionApiKey: KEY, logLevel: 'off', maxRetries: 0 });
const every256 = () => Uint8Array.from({ length: 256 * 40 }, (_, i) => i % 256);

function finishedConversation(target = store, message = 'The answer.') {
  const conversation = target.addConversation(undefined, { execution_status: 'finished' });
  target.appendEvent(conversation.id, {
    id: crypto.randomUUID(),
    timestamp: target.timestamp(),
    kind: 'ActionEvent',
    source: 'agent',
    thought: [],
    action: { kind: 'FinishAction', message },
    tool_name: 'finish',
    tool_call_id: 'call-1',
    tool_call: { id: 'call-1', name: 'finish', arguments: '{}', origin: 'completion' },
    llm_response_id: 'r-1',
    security_risk: 'UNKNOWN',
  });
  return conversation.id;
}

describe('files', () => {
  it('round-trips every byte value, server-wide and through the conversation runtime', async () => {
    const bytes = every256();
    expect((await client.files.upload('/w/a.bin', bytes)).file_size).toBe(bytes.byteLength);
    expect(await client.files.download('/w/a.bin')).toEqual(bytes);
    const id = finishedConversation();
    await client.conversation(id).files.upload('/w/b.bin', new Blob([bytes]));
    expect(await client.conversation(id).files.download('/w/b.bin')).toEqual(bytes);
    expect(requests.map((r) => new URL(r.url).pathname)).toContain(`/api/conversations/${id}/file/upload`);
    expect(requests.every((r) => r.headers.get('X-Session-API-Key') === KEY)).toBe(true);
  });

  it('downloadStream hands over the body unbuffered, past maxResponseBytes, byte for byte', async () => {
    const small = new AgentServerClient({
      baseUrl: BASE,
      sessionApiKey: KEY,
      logLevel: 'off',
      maxResponseBytes: 1024,
    });
    const bytes = every256();
    await small.files.upload('/w/big.bin', bytes);
    await expect(small.files.download('/w/big.bin')).rejects.toThrow(/larger|limit|too large/i);
    const stream = await small.files.downloadStream('/w/big.bin');
    const back = new Uint8Array(await new Response(stream).arrayBuffer());
    expect(back).toEqual(bytes);
    await expect(small.files.downloadStream('/w/none')).rejects.toSatisfy(isNotFoundError);
  });

  it('a missing file is NotFoundError; a relative path or bad id fails before any request', async () => {
    await expect(client.files.download('/w/none')).rejects.toSatisfy(isNotFoundError);
    requests.length = 0;
    await expect(client.files.download('w/relative')).rejects.toSatisfy(isRequestValidationError);
    expect(() => client.conversation('not-a-uuid')).toThrow(/UUID/);
    expect(requests).toHaveLength(0);
  });
});

describe('bash', () => {
  it('execute answers the output and exit code; start + output collects the chunks', async () => {
    const out = await client.bash.execute('echo hi; echo oops >&2; exit 3');
    expect(out).toMatchObject({ kind: 'BashOutput', stdout: 'hi\n', stderr: 'oops\n', exit_code: 3 });
    const started = await client.bash.start({ command: 'printf "a\\nb\\n"' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    const chunks = await client.bash.output(started.id);
    expect(chunks.map((c) => c.stdout).join('')).toBe('a\nb\n');
    expect((await client.bash.get(started.id)).kind).toBe('BashCommand');
  });

  it('pages across the real page-id form without a restart error', async () => {
    for (let i = 0; i < 5; i++) await client.bash.execute(`echo ${i}`);
    const ids: string[] = [];
    for await (const event of client.bash.search({ kind: 'BashOutput', limit: 2 })) ids.push(event.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThanOrEqual(5);
  });
});

describe('conversation flow', () => {
  it('finalResponse, fork (a handle on the copy) and interrupt', async () => {
    const id = finishedConversation(store, 'Forty-two.');
    const conversation = client.conversation(id);
    expect(await conversation.finalResponse()).toBe('Forty-two.');
    const fork = await conversation.fork({ title: 'copy' });
    expect(fork.id).not.toBe(id);
    expect(await fork.finalResponse()).toBe('Forty-two.');
    await conversation.interrupt();
    expect(await conversation.askAgent('why?')).toBe('Simulated answer to: why?');
  });

  it('finalResponse on a server older than the route is computed from the events', async () => {
    const old = new AgentServerClient({ baseUrl: OLD, sessionApiKey: KEY, logLevel: 'off', maxRetries: 0 });
    const id = finishedConversation(oldStore, 'Old answer.');
    expect(await old.conversations.finalResponse(id)).toBe('Old answer.');
    // Any other newer route on the old server says "too old", not "not found".
    await expect(old.conversations.interrupt(id)).rejects.toSatisfy(isAgentServerVersionError);
  });
});

describe('errors every namespace shares (one transport)', () => {
  const calls: [string, (c: AgentServerClient) => Promise<unknown>][] = [
    ['tools.list', (c) => c.tools.list()],
    ['settings.get', (c) => c.settings.get()],
    ['skills.listInstalled', (c) => c.skills.listInstalled()],
    ['profiles.list', (c) => c.profiles.list()],
    ['workspaces.list', (c) => c.workspaces.list()],
    ['git.changes', (c) => c.git.changes('/w')],
    ['llm.providers', (c) => c.llm.providers()],
    ['secrets.list', (c) => c.secrets.list()],
  ];

  it.each(calls)(
    '%s: 401 → AuthenticationError, 422 → UnprocessableEntityError, bad JSON → ResponseValidationError',
    async (_, call) => {
      server.use(
        http.all(`${BASE}/api/*`, () => HttpResponse.json({ detail: 'Unauthorized' }, { status: 401 })),
      );
      await expect(call(client)).rejects.toSatisfy(isAuthenticationError);
      server.use(
        http.all(`${BASE}/api/*`, () =>
          HttpResponse.json({ detail: [{ loc: ['query', 'x'], msg: 'bad', type: 'x' }] }, { status: 422 }),
        ),
      );
      await expect(call(client)).rejects.toSatisfy(isUnprocessableEntityError);
      server.use(http.all(`${BASE}/api/*`, () => HttpResponse.json('not the shape')));
      const error = (await call(client).catch((e: unknown) => e)) as ResponseValidationError;
      expect(isResponseValidationError(error)).toBe(true);
      expect(error.rawBody).toContain('not the shape');
    },
  );

  it('a secret stored through one namespace is redacted in every other namespace’s errors', async () => {
    const value = 'sk-very-secret-value-123456';
    server.use(
      http.put(`${BASE}/api/settings/secrets`, () => HttpResponse.json({ name: 'T' })),
      http.get(`${BASE}/api/tools/`, () =>
        HttpResponse.json({ detail: `leaked ${value} and ${KEY}` }, { status: 400 }),
      ),
    );
    await client.secrets.put({ name: 'T', value });
    const error = await client.tools.list().catch((e: unknown) => e as Error);
    expect(String(error)).not.toContain(value);
    expect(JSON.stringify(error)).not.toContain(value);
    expect(JSON.stringify(error)).not.toContain(KEY);
    expect(inspect(client, { depth: 5 })).not.toContain(KEY);
    expect(JSON.stringify(client)).not.toContain(KEY);
  });
});

describe('request() escape hatch', () => {
  it('sends auth, encodes params, decodes and aborts', async () => {
    server.use(
      http.get(`${BASE}/api/things/:name`, ({ params, request }) =>
        HttpResponse.json({ name: params.name, key: request.headers.get('X-Session-API-Key') === KEY }),
      ),
    );
    const answer = await client.request<{ name: string; key: boolean }>({
      method: 'GET',
      path: '/api/things/{name}',
      params: { name: 'a b?c#%2F' },
    });
    expect(answer).toEqual({ name: 'a b?c#%2F', key: true });
    // A "/" (or a dot segment) would change the route: refused before any request.
    await expect(
      client.request({ method: 'GET', path: '/api/things/{name}', params: { name: 'a/b' } }),
    ).rejects.toSatisfy(isRequestValidationError);
    const controller = new AbortController();
    controller.abort();
    await expect(
      client.request({ method: 'GET', path: '/api/things/x', signal: controller.signal }),
    ).rejects.toSatisfy(isAPIUserAbortError);
    await expect(client.request({ method: 'GET', path: '/api/things/{name}', params: {} })).rejects.toSatisfy(
      isRequestValidationError,
    );
  });
});
