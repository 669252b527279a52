// Issue 34 item 8: `conversations.create(request, { trace })` sends the server's observability headers
// (X-OpenHands-Observability-Span-Name, -Tags, -Metadata, -Parent-Span-Context), each checked first.
import { describe, expect, it } from 'vitest';
import { AgentServerClient, isRequestValidationError, parentSpanContext } from '../../src/index.js';
import { AgentServerStore, agentServerHandlers } from '../../src/testing.js';
import { useMswServer } from '../helpers/msw.js';

const KEY = 'trace-client-session-key-71';
const BASE = 'http://trace.test';
const { requests } = useMswServer(
  ...agentServerHandlers({ baseUrl: BASE, sessionApiKey: KEY, store: new AgentServerStore() }),
);
const client = new AgentServerClient({ baseUrl: BASE, sessionApiKey: KEY, logLevel: 'off', maxRetries: 0 });
const start = { agent: { llm: { model: 'openai/x' } }, workspace: { working_dir: '/w' } };
const parent = parentSpanContext('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01') as string;

describe('conversations.create with trace', () => {
  it('sends the four headers', async () => {
    await client.conversations.create(start, {
      trace: {
        spanName: 'checkout-review',
        tags: ['team-a', ' nightly '],
        metadata: { tenant: 'acme', attempt: 2, flags: ['x', 'y'], city: 'Zürich' },
        parentSpanContext: parent,
      },
    });
    const sent = requests.find(
      (r) => r.method === 'POST' && new URL(r.url).pathname === '/api/conversations',
    );
    expect(sent?.headers.get('x-openhands-observability-span-name')).toBe('checkout-review');
    expect(sent?.headers.get('x-openhands-observability-tags')).toBe('team-a,nightly');
    const metadata = sent?.headers.get('x-openhands-observability-metadata') as string;
    expect(metadata).toMatch(/^[\x20-\x7e]+$/);
    expect(JSON.parse(metadata)).toEqual({ tenant: 'acme', attempt: 2, flags: ['x', 'y'], city: 'Zürich' });
    expect(sent?.headers.get('x-openhands-observability-parent-span-context')).toBe(parent);
  });

  it('sends none of them without trace', async () => {
    await client.conversations.create(start);
    const sent = requests.find((r) => r.method === 'POST');
    expect([...(sent?.headers.keys() ?? [])].filter((name) => name.includes('observability'))).toEqual([]);
  });

  it.each([
    [{ spanName: '' }, 'options.trace.spanName'],
    [{ spanName: 'a\nb' }, 'options.trace.spanName'],
    [{ spanName: 'café' }, 'options.trace.spanName'],
    [{ tags: 'a,b' }, 'options.trace.tags'],
    [{ tags: ['a,b'] }, 'options.trace.tags.0'],
    [{ metadata: { a: { nested: 1 } } }, 'options.trace.metadata.a'],
    [{ metadata: { a: [1, 'x'] } }, 'options.trace.metadata.a'],
    [{ metadata: { a: Number.NaN } }, 'options.trace.metadata.a'],
    [{ parentSpanContext: 7 }, 'options.trace.parentSpanContext'],
    ['x', 'options.trace'],
  ])('refuses %j before any request, naming %s', async (trace, field) => {
    const error = await client.conversations
      .create(start, { trace: trace as never })
      .catch((e: unknown) => e);
    expect(isRequestValidationError(error)).toBe(true);
    expect(String(error)).toContain(`${field}:`);
    expect(requests).toHaveLength(0);
  });
});
