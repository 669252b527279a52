import { inspect } from 'node:util';
import { HttpResponse, http } from 'msw/http';
import { describe, expect, it } from 'vitest';
import { EventsClient } from '../../src/agent-server/index.js';
import { isAuthenticationError } from '../../src/core/errors.js';
import type { Logger } from '../../src/core/logger.js';
import { redactUrl, redactValue } from '../../src/core/redact.js';
import { Transport } from '../../src/core/transport.js';
import { useMswServer } from '../helpers/msw.js';

const BASE = 'http://redact.test';
const KEY = 'sk-session-very-secret-4711';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZG1pbiJ9.c2lnbmF0dXJlLXZhbHVl';
const CONVERSATION = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const { server } = useMswServer();

/** Everything a user could see of an error. */
function everything(error: unknown): string {
  const e = error as Error & Record<string, unknown>;
  return [
    e.message,
    e.stack,
    JSON.stringify(e),
    inspect(e, { depth: 10, showHidden: true }),
    ...Object.values(e).map((v) => JSON.stringify(v)),
  ].join('\n');
}

function recordingLogger() {
  const lines: string[] = [];
  const log = (...args: unknown[]) =>
    lines.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
  const logger: Logger = { error: log, warn: log, info: log, debug: log };
  return { logger, lines };
}

describe('secrets never appear', () => {
  it('in any field, message, inspect or JSON of an API error, even when the server echoes them', async () => {
    server.use(
      http.get(`${BASE}/api/conversations/:c/events/:e`, ({ request }) =>
        HttpResponse.json(
          { detail: `Unauthorized key ${request.headers.get('x-session-api-key')} token ${JWT}`, token: JWT },
          { status: 401, headers: { 'x-session-api-key': KEY, 'www-authenticate': `Bearer ${JWT}` } },
        ),
      ),
    );
    const { logger, lines } = recordingLogger();
    const client = new EventsClient({
      baseUrl: BASE,
      sessionApiKey: KEY,
      logger,
      logLevel: 'debug',
      maxRetries: 0,
    });
    const error = await client.get(CONVERSATION, 'evt-1').catch((e: unknown) => e);
    expect(isAuthenticationError(error)).toBe(true);
    const shown = everything(error);
    expect(shown).not.toContain(KEY);
    expect(shown).not.toContain(JWT);
    expect(shown).toContain('[redacted]');
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain(KEY);
  });

  it('for credentials returned by an async function', async () => {
    server.use(
      http.get(`${BASE}/api/conversations/:c/events/:e`, ({ request }) =>
        HttpResponse.json({ detail: `bad key ${request.headers.get('x-session-api-key')}` }, { status: 401 }),
      ),
    );
    const client = new EventsClient({
      baseUrl: BASE,
      sessionApiKey: async () => KEY,
      maxRetries: 0,
      logLevel: 'off',
    });
    const error = await client.get(CONVERSATION, 'evt-1').catch((e: unknown) => e);
    expect(everything(error)).not.toContain(KEY);
  });

  it('in inspect or JSON of a client', () => {
    const client = new EventsClient({
      baseUrl: BASE,
      sessionApiKey: KEY,
      headers: { Authorization: `Bearer ${JWT}` },
    });
    const shown = `${inspect(client, { depth: 10, showHidden: true })}\n${JSON.stringify(client)}`;
    expect(shown).not.toContain(KEY);
    expect(shown).not.toContain(JWT);
    expect(JSON.parse(JSON.stringify(client))).toMatchObject({ baseUrl: BASE, sessionApiKey: '[redacted]' });
  });

  it('in log lines of retries and connection failures', async () => {
    const { logger, lines } = recordingLogger();
    const t = new Transport({
      baseUrl: BASE,
      maxRetries: 1,
      maxRetryDelay: 10,
      logger,
      logLevel: 'debug',
      secrets: () => [KEY],
      fetch: async () => {
        throw new TypeError('fetch failed', { cause: new Error(`connect ECONNREFUSED for ${KEY}`) });
      },
    });
    const error = await t
      .request({ method: 'GET', path: 'x', query: { session_api_key: KEY } })
      .catch((e: unknown) => e);
    expect(everything(error)).not.toContain(KEY);
    expect(lines.some((line) => line.includes('retry 1'))).toBe(true);
    expect(lines.join('\n')).not.toContain(KEY);
  });
});

describe('redaction helpers', () => {
  it('mask credential query parameters', () => {
    const url = redactUrl(`ws://h/sockets/events/x?session_api_key=${KEY}&resend_mode=since`);
    expect(url).not.toContain(KEY);
    expect(url).toContain('resend_mode=since');
    expect(url).toContain('session_api_key=[redacted]');
  });

  it('mask secret JSON keys at any depth, including encrypted_content', () => {
    const value = redactValue({
      a: [{ password: 'p4ssword!', key_value: 'kv-123456', encrypted_content: 'gAAAA', ok: 1 }],
    });
    expect(value).toEqual({
      a: [{ password: '[redacted]', key_value: '[redacted]', encrypted_content: '[redacted]', ok: 1 }],
    });
  });
});
