import { describe, expect, it } from 'vitest';
import { EventsClient } from '../../src/agent-server/index.js';
import {
  isAPIConnectionTimeoutError,
  isAPIUserAbortError,
  isInternalServerError,
  isResponseTooLargeError,
  type ResponseTooLargeError,
} from '../../src/core/errors.js';
import { Transport } from '../../src/core/transport.js';
import { GatewayAdminClient } from '../../src/gateway/index.js';
import { PlatformClient } from '../../src/platform/index.js';
import { RuntimeAdminClient } from '../../src/runtime/index.js';
import { hostileServer, trickle, writeForever } from './servers.js';

const MiB = 1024 * 1024;
const CONVERSATION = '3fa85f64-5717-4562-b3fc-2c963f66afa6';

function transport(baseUrl: string, options: Partial<ConstructorParameters<typeof Transport>[0]> = {}) {
  return new Transport({ baseUrl, secrets: () => [], logLevel: 'off', ...options });
}

/** What the call rejected with (undefined when it resolved). */
function failure<T>(run: () => Promise<T>): Promise<unknown> {
  return run().then(
    () => undefined,
    (e: unknown) => e,
  );
}

/** A JSON body the trickling servers send a character at a time: the client must not wait for all of it. */
const TRICKLED = '{"a":"' + 'x'.repeat(100) + '"}';

describe('an endless 200 body', () => {
  it('ends with ResponseTooLargeError at the client limit, and the client hangs up', async () => {
    const server = await hostileServer((_req, res, stats) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"items":["');
      writeForever(res, stats, Buffer.alloc(64 * 1024, 'a'));
    });
    const error = await failure(() =>
      transport(server.url, { maxResponseBytes: MiB }).request({ method: 'GET', path: 'x' }),
    );
    expect(isResponseTooLargeError(error)).toBe(true);
    const tooLarge = error as ResponseTooLargeError;
    expect(tooLarge.limit).toBe(MiB);
    expect(tooLarge.received).toBeGreaterThan(MiB);
    // Memory stays bounded: the client stopped reading near the limit and closed the connection.
    await expect.poll(() => server.stats.closedByClient, { timeout: 5_000 }).toBe(1);
    expect(server.stats.bytesWritten).toBeLessThan(32 * MiB);
  });

  it('is bounded by the default limit of 16 MiB when none is configured', async () => {
    const server = await hostileServer((_req, res, stats) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      writeForever(res, stats, Buffer.alloc(256 * 1024, ' '));
    });
    const error = await failure(() => transport(server.url).request({ method: 'GET', path: 'x' }));
    expect(isResponseTooLargeError(error)).toBe(true);
    expect((error as ResponseTooLargeError).limit).toBe(16 * MiB);
    await expect.poll(() => server.stats.closedByClient, { timeout: 5_000 }).toBe(1);
    expect(server.stats.bytesWritten).toBeLessThan(64 * MiB);
  });

  it('ends with a timeout when the limit is high but `timeout` runs out first', async () => {
    const server = await hostileServer((_req, res, stats) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      // Slow enough never to reach the limit within the timeout.
      const timer = setInterval(() => {
        if (res.destroyed) return clearInterval(timer);
        res.write(Buffer.alloc(1024, ' '));
        stats.bytesWritten += 1024;
      }, 20);
      res.on('close', () => clearInterval(timer));
    });
    const error = await failure(() =>
      transport(server.url, { timeout: 800, maxRetries: 0 }).request({ method: 'GET', path: 'x' }),
    );
    expect(isAPIConnectionTimeoutError(error)).toBe(true);
    await expect.poll(() => server.stats.closedByClient, { timeout: 5_000 }).toBe(1);
  });
});

describe('a body that trickles a byte a second', () => {
  it('ends with APIConnectionTimeoutError when the per-attempt timeout runs out', async () => {
    const server = await hostileServer((_req, res, stats) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      trickle(res, stats, TRICKLED, 1000);
    });
    const error = await failure(() =>
      transport(server.url, { timeout: 1_200, maxRetries: 0 }).request({ method: 'GET', path: 'x' }),
    );
    expect(isAPIConnectionTimeoutError(error)).toBe(true);
    expect(server.stats.bytesWritten).toBeLessThan(TRICKLED.length);
    await expect.poll(() => server.stats.closedByClient, { timeout: 5_000 }).toBe(1);
  });

  it('is retried per attempt and stopped by totalTimeout', async () => {
    const server = await hostileServer((_req, res, stats) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      trickle(res, stats, TRICKLED, 1000);
    });
    const error = await failure(() =>
      transport(server.url, {
        timeout: 700,
        totalTimeout: 2_500,
        maxRetries: 10,
        maxRetryDelay: 100,
      }).request({
        method: 'GET',
        path: 'x',
      }),
    );
    expect(isAPIConnectionTimeoutError(error)).toBe(true);
    expect(server.stats.requests).toBeGreaterThanOrEqual(2);
    expect(server.stats.bytesWritten).toBeLessThan(TRICKLED.length);
  });

  it('ends with APIUserAbortError when the caller aborts mid-body', async () => {
    const server = await hostileServer((_req, res, stats) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      trickle(res, stats, TRICKLED, 200);
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 600);
    const error = await failure(() =>
      transport(server.url, { timeout: 30_000 }).request({
        method: 'GET',
        path: 'x',
        signal: controller.signal,
      }),
    );
    expect(isAPIUserAbortError(error)).toBe(true);
    expect(server.stats.bytesWritten).toBeLessThan(TRICKLED.length);
    await expect.poll(() => server.stats.closedByClient, { timeout: 5_000 }).toBe(1);
  });

  it('in every client: agent server, runtime API, platform app, gateway', async () => {
    const server = await hostileServer((_req, res, stats) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      trickle(res, stats, TRICKLED, 1000);
    });
    const common = { timeout: 1_000, maxRetries: 0, logLevel: 'off' as const };
    const calls: (() => Promise<unknown>)[] = [
      () => new EventsClient({ baseUrl: server.url, ...common }).get(CONVERSATION, 'e1'),
      () =>
        new RuntimeAdminClient({
          baseUrl: server.url,
          apiKey: 'k-0123456789',
          env: false,
          ...common,
        }).listWarmRuntimeConfigs(),
      () => new PlatformClient({ baseUrl: server.url, ...common }).getLlmProfile('p1'),
      () =>
        new GatewayAdminClient({
          baseUrl: server.url,
          masterKey: 'sk-master-0123456789',
          ...common,
        }).listModels(),
    ];
    const errors = await Promise.all(calls.map((call) => failure(call)));
    for (const error of errors) expect(isAPIConnectionTimeoutError(error)).toBe(true);
    // Each gave up long before the body ended (one character a second).
    expect(server.stats.bytesWritten).toBeLessThan(TRICKLED.length);
  });
});

describe('an oversize body', () => {
  it('declared by Content-Length fails before it is read', async () => {
    const server = await hostileServer((_req, res, stats) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(64 * MiB) });
      writeForever(res, stats, Buffer.alloc(64 * 1024, ' '), 64 * MiB);
    });
    const error = await failure(() =>
      transport(server.url, { maxResponseBytes: MiB }).request({ method: 'GET', path: 'x' }),
    );
    expect(isResponseTooLargeError(error)).toBe(true);
    expect((error as ResponseTooLargeError).received).toBe(64 * MiB);
    await expect.poll(() => server.stats.closedByClient, { timeout: 5_000 }).toBe(1);
    expect(server.stats.bytesWritten).toBeLessThan(32 * MiB);
  });

  it('is not retried (the same request gets the same body)', async () => {
    const server = await hostileServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`"${'x'.repeat(2 * 1024)}"`);
    });
    const error = await failure(() =>
      transport(server.url, { maxResponseBytes: 1024, maxRetries: 3 }).request({ method: 'GET', path: 'x' }),
    );
    expect(isResponseTooLargeError(error)).toBe(true);
    expect(server.stats.requests).toBe(1);
  });

  it('under the limit is read whole', async () => {
    const payload = { items: Array.from({ length: 1000 }, (_, i) => `item-${i}`) };
    const server = await hostileServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    });
    await expect(
      transport(server.url, { maxResponseBytes: MiB }).request({ method: 'GET', path: 'x' }),
    ).resolves.toEqual(payload);
  });
});

describe('an endless error body', () => {
  it('gives the typed API error from its beginning instead of hanging', async () => {
    const server = await hostileServer((_req, res, stats) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.write('database exploded ');
      writeForever(res, stats, Buffer.alloc(64 * 1024, 'z'));
    });
    const error = await failure(() =>
      transport(server.url, { maxRetries: 0, timeout: 5_000 }).request({ method: 'GET', path: 'x' }),
    );
    expect(isInternalServerError(error)).toBe(true);
    expect((error as Error).message).toContain('database exploded');
    await expect.poll(() => server.stats.closedByClient, { timeout: 5_000 }).toBe(1);
  });
});
