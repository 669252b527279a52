// Issue 34 item 9: `.withResponse()` and `.asResponse()` on a call's promise, as openai-node's APIPromise: the
// status and headers of the answer, the data unchanged; errors stay the SDK's typed errors.
import { HttpResponse, http } from 'msw/http';
import { describe, expect, it } from 'vitest';
import { APIPromise } from '../../src/core/api-promise.js';
import { isNotFoundError, isRequestValidationError } from '../../src/core/errors.js';
import { Transport } from '../../src/core/transport.js';
import { AgentServerClient } from '../../src/index.js';
import { AgentServerStore, agentServerApiHandlers, agentServerHandlers } from '../../src/testing.js';
import { useMswServer } from '../helpers/msw.js';

const BASE = 'http://api-promise.test';
const KEY = 'api-promise-session-key-5';
const store = new AgentServerStore();
useMswServer(
  http.get(`${BASE}/raw/json`, () =>
    HttpResponse.json(
      { a: 1 },
      { status: 201, headers: { 'x-request-id': 'req-1', 'x-ratelimit-remaining': '9' } },
    ),
  ),
  http.get(
    `${BASE}/raw/empty`,
    () => new HttpResponse(null, { status: 204, headers: { 'x-kind': 'empty' } }),
  ),
  http.get(`${BASE}/raw/missing`, () => HttpResponse.json({ detail: 'no' }, { status: 404 })),
  ...agentServerApiHandlers({ baseUrl: BASE, sessionApiKey: KEY, store }),
  ...agentServerHandlers({ baseUrl: BASE, sessionApiKey: KEY, store }),
);
const transport = new Transport({ baseUrl: BASE, secrets: () => [], logLevel: 'off', maxRetries: 0 });

describe('APIPromise from the transport', () => {
  it('awaits to the data; withResponse gives data and response; asResponse the response', async () => {
    const call = transport.request<{ a: number }>({ method: 'GET', path: 'raw/json' });
    expect(call).toBeInstanceOf(APIPromise);
    expect(call).toBeInstanceOf(Promise);
    expect(await call).toEqual({ a: 1 });
    const { data, response } = await call.withResponse();
    expect(data).toEqual({ a: 1 });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-ratelimit-remaining')).toBe('9');
    expect(await response.json()).toEqual({ a: 1 });
    const raw = await transport.request({ method: 'GET', path: 'raw/json' }).asResponse();
    expect(raw.headers.get('x-request-id')).toBe('req-1');
    const empty = await transport
      .request({ method: 'GET', path: 'raw/empty', responseType: 'none' })
      .asResponse();
    expect([empty.status, empty.headers.get('x-kind'), await empty.text()]).toEqual([204, 'empty', '']);
  });

  it('rejects every form with the typed error; then, catch and finally work as on any promise', async () => {
    const call = transport.request({ method: 'GET', path: 'raw/missing' });
    await expect(call).rejects.toSatisfy(isNotFoundError);
    await expect(call.withResponse()).rejects.toSatisfy(isNotFoundError);
    await expect(call.asResponse()).rejects.toSatisfy(isNotFoundError);
    expect(await call.catch((e: unknown) => isNotFoundError(e))).toBe(true);
    let finished = false;
    await transport.request({ method: 'GET', path: 'raw/json' }).finally(() => {
      finished = true;
    });
    expect(finished).toBe(true);
    expect(await Promise.all([transport.request({ method: 'GET', path: 'raw/json' })])).toEqual([{ a: 1 }]);
  });
});

describe('APIPromise through the agent-server client', () => {
  const client = new AgentServerClient({ baseUrl: BASE, sessionApiKey: KEY, logLevel: 'off', maxRetries: 0 });

  it('request() and a namespace method give the response', async () => {
    const { data, response } = await client
      .request<{ status: string }>({ method: 'GET', path: '/health' })
      .withResponse();
    expect(response.status).toBe(200);
    expect(data).toEqual(await response.json());
    const tools = await client.tools.list().withResponse();
    expect(tools.response.status).toBe(200);
    expect(Array.isArray(tools.data)).toBe(true);
  });

  it('bad input is still a rejection, not a throw, on a method that returns an APIPromise', async () => {
    const call = client.request({ method: 'BREW' as never, path: '/x' });
    await expect(call).rejects.toSatisfy(isRequestValidationError);
  });
});
