import { createServer } from 'node:net';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { type APIConnectionError, EventsClient, isAPIConnectionError } from '../../src/index.js';

const CONVERSATION = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const KEY = 'conn-failure-session-key-1234';

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function failure(baseUrl: string): Promise<APIConnectionError> {
  const client = new EventsClient({ baseUrl, sessionApiKey: KEY, maxRetries: 0, logLevel: 'off' });
  const error = await client.count(CONVERSATION).catch((caught: unknown) => caught);
  expect(isAPIConnectionError(error)).toBe(true);
  return error as APIConnectionError;
}

describe('APIConnectionError says what happened', () => {
  it('a refused connection: reason, system code, cause, and the URL once', async () => {
    const port = await closedPort();
    const error = await failure(`http://127.0.0.1:${port}`);
    expect(error.reason).toBe('refused');
    expect(error.code).toBe('ECONNREFUSED');
    expect(error.message).toContain('connection refused (ECONNREFUSED)');
    expect(error.message.split(`127.0.0.1:${port}`).length - 1).toBe(1);
    expect((error.cause as { code?: string }).code).toBe('ECONNREFUSED');
    expect(inspect(error)).not.toContain(KEY);
    expect(JSON.stringify(error)).not.toContain(KEY);
  });

  it('an unknown host: reason dns', async () => {
    const error = await failure('http://no-such-host.invalid');
    expect(error.reason).toBe('dns');
    expect(error.message).toContain('host name not found');
  });
});

describe('a 401 says whether a credential was sent', () => {
  it('with and without a session key', async () => {
    const { createServer: createHttpServer } = await import('node:http');
    const server = createHttpServer((_request, response) => {
      response.writeHead(401, { 'content-type': 'application/json' }).end('{"detail":"Unauthorized"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const withKey = new EventsClient({ baseUrl, sessionApiKey: KEY, maxRetries: 0, logLevel: 'off' });
      const without = new EventsClient({ baseUrl, maxRetries: 0, logLevel: 'off' });
      const refused = (await withKey.count(CONVERSATION).catch((error: unknown) => error)) as Error;
      const missing = (await without.count(CONVERSATION).catch((error: unknown) => error)) as Error;
      expect(refused.message).toContain('Unauthorized (a credential was sent and refused)');
      expect(missing.message).toContain('Unauthorized (no credential was sent)');
      expect(refused.message).not.toContain(KEY);
    } finally {
      server.close();
    }
  });
});
