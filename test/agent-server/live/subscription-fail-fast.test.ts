/**
 * Issue 24, items 6 and 7: bounds with typed errors, and failing fast before the first connection. Against the
 * loopback simulator (a real `ws` server) and a closed port; no timing is asserted: each case ends with the
 * typed error well before the long budgets it used to run out (refusal-after-deadline.test.ts: a refusal read
 * late is still a refusal).
 */
import { createServer } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocket as WsWebSocket } from 'ws';
import {
  EventsClient,
  isSubscriptionAuthenticationError,
  isSubscriptionConnectionError,
  isSubscriptionFrameTooLargeError,
  type SubscriptionError,
} from '../../../src/agent-server/index.js';
import { type AgentServerLoopback, serveAgentServer } from '../../../src/testing.js';

const servers: AgentServerLoopback[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('fail fast before the first connection', () => {
  it('a refused host: SubscriptionConnectionError naming the cause within connectTimeout', async () => {
    const port = await closedPort();
    const events = new EventsClient({ baseUrl: `http://127.0.0.1:${port}`, logLevel: 'off', maxRetries: 0 });
    // The budget on a faked Date that moves 2 s per refusal: refused at 0, 2 and 4 s, given up at 6 s, on any
    // machine, however long each refusal takes to arrive (issue 31).
    vi.useFakeTimers({ toFake: ['Date'] });
    const sub = events.subscribe('6f1c2a4e-3b5d-4e7f-8a9b-0c1d2e3f4a5b', {
      connectTimeout: 5_000,
      reconnect: { initialDelay: 5, maxDelay: 20 },
    });
    let refusals = 0;
    sub.on('reconnecting', () => {
      refusals += 1;
      vi.setSystemTime(Date.now() + 2_000);
    });
    const error = (await sub.ready
      .catch((e: unknown) => e)
      .finally(() => vi.useRealTimers())) as SubscriptionError;
    expect(refusals).toBe(3);
    expect(isSubscriptionConnectionError(error)).toBe(true);
    expect(error.message).toContain('connection refused');
    expect(error.message).toContain('connectTimeout');
  });

  it.each([
    ['1.58.0', 'first-message auth: the server would wait 10 s for the frame'],
    ['1.25.0', 'first-message auth on the legacy socket'],
  ])('%s, no session key (%s): SubscriptionAuthenticationError at once', async (version) => {
    // The server's own wait for the auth frame is longer than this test may take.
    const server = await serveAgentServer({ version, sessionApiKey: 'the-key', authTimeoutMs: 60_000 });
    servers.push(server);
    const id = server.store.addConversation().id;
    const events = new EventsClient({ baseUrl: server.url, logLevel: 'off', maxRetries: 0 });
    const error = (await events.subscribe(id).ready.catch((e: unknown) => e)) as SubscriptionError;
    expect(isSubscriptionAuthenticationError(error)).toBe(true);
  });
});

describe('bounds', () => {
  it('a frame longer than maxFrameBytes: SubscriptionFrameTooLargeError, nothing after it', async () => {
    const server = await serveAgentServer({ version: '1.58.0' });
    servers.push(server);
    const id = server.store.addConversation().id;
    const events = new EventsClient({ baseUrl: server.url, logLevel: 'off', maxRetries: 0 });
    const sub = events.subscribe(id, { maxFrameBytes: 4_096 });
    await sub.ready;
    server.store.publish(id, server.store.message('x'.repeat(10_000)));
    const error = await (async () => {
      for await (const _event of sub) {
        // nothing fits
      }
    })().catch((e: unknown) => e);
    expect(isSubscriptionFrameTooLargeError(error)).toBe(true);
    expect((error as Error).message).toContain('maxFrameBytes 4096');
  });

  it('with the ws package: maxPayload bounds the frame before it is read; typed error, not a reconnect loop', async () => {
    const server = await serveAgentServer({ version: '1.58.0' });
    servers.push(server);
    const id = server.store.addConversation().id;
    const events = new EventsClient({ baseUrl: server.url, logLevel: 'off', maxRetries: 0 });
    const sub = events.subscribe(id, { maxFrameBytes: 4_096, WebSocket: WsWebSocket });
    const reasons: string[] = [];
    sub.on('reconnecting', (info) => reasons.push(info.reason));
    await sub.ready;
    server.store.publish(id, server.store.message('x'.repeat(10_000)));
    const error = await (async () => {
      for await (const _event of sub) {
        // nothing fits
      }
    })().catch((e: unknown) => e);
    expect(isSubscriptionFrameTooLargeError(error)).toBe(true);
    expect(reasons).toEqual([]);
  });
});
