/**
 * Issue 31 item 4: on a busy machine the first-connection deadline and the host's refusal can both be due when
 * the event loop gets to them, and timers run first. The refusal had arrived: it is what the error names, not
 * "no answer in time". Made deterministic by a `fetch` that connects to a closed port and then keeps the
 * event loop busy past the deadline, so both are always pending together.
 */
import { createServer, connect as tcpConnect } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  EventsClient,
  isSubscriptionConnectionError,
  type SubscriptionError,
} from '../../../src/agent-server/index.js';

const CONNECT_TIMEOUT = 100;

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Keeps the event loop from running anything for `ms` (what a loaded machine does to a process). */
function busy(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // spin
  }
}

/**
 * A `fetch` whose host refuses: the refusal is on its way (the connect is issued) when the event loop is held
 * past the subscription's deadline. It fails as Node's fetch does (`TypeError: fetch failed` caused by
 * ECONNREFUSED) and honours the abort signal.
 */
function refusedWhileBusy(port: number, calls: { count: number }): typeof fetch {
  return (input, init) =>
    new Promise<Response>((_resolve, reject) => {
      calls.count += 1;
      const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
      const socket = tcpConnect(port, '127.0.0.1');
      socket.on('error', (error) => reject(new TypeError('fetch failed', { cause: error })));
      signal?.addEventListener('abort', () => {
        socket.destroy();
        reject(signal.reason);
      });
      // net.connect issues the connect on the next tick; this tick comes after it.
      process.nextTick(() => busy(CONNECT_TIMEOUT * 3));
    });
}

describe('a refusal read after the first-connection deadline', () => {
  it('is reported as connection refused, not as no answer in time', async () => {
    const calls = { count: 0 };
    const events = new EventsClient({
      baseUrl: 'http://127.0.0.1:9',
      fetch: refusedWhileBusy(await closedPort(), calls),
      logLevel: 'off',
      maxRetries: 0,
    });
    const sub = events.subscribe('6f1c2a4e-3b5d-4e7f-8a9b-0c1d2e3f4a5b', { connectTimeout: CONNECT_TIMEOUT });
    const error = (await sub.ready.catch((e: unknown) => e)) as SubscriptionError;
    expect(isSubscriptionConnectionError(error)).toBe(true);
    // The first attempt was already past the deadline: no second one.
    expect(calls.count).toBe(1);
    expect(error.message).toContain('connection refused (ECONNREFUSED)');
    expect(error.message).not.toContain('no answer in time');
    expect(error.message).toContain(`connectTimeout ${CONNECT_TIMEOUT} ms`);
  });
});
