/**
 * Issue 23 item 4: an error body a server controls cannot leak a secret by nesting it deep, cannot make
 * `JSON.stringify(error)` or `util.inspect(error)` throw, and cannot set the body's prototype.
 */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { EventsClient } from '../../src/agent-server/index.js';
import { TOO_DEEP } from '../../src/core/error-base.js';
import { APIError, isAPIError } from '../../src/core/errors.js';
import { redactValue } from '../../src/core/redact.js';
import { hostileServer } from './servers.js';

const ID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const SESSION = 'PLANTED-session-key-deep-body';
const PASSWORD = 'PLANTED-password-deep-body';

function nest(levels: number, inner: unknown): unknown {
  let value = inner;
  for (let i = 0; i < levels; i++) value = { level: value };
  return value;
}

async function errorFor(bodyText: string): Promise<APIError> {
  const server = await hostileServer((req, res) => {
    req.resume();
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(bodyText);
  });
  const events = new EventsClient({
    baseUrl: server.url,
    sessionApiKey: SESSION,
    logLevel: 'off',
    env: false,
  });
  const error = await events.get(ID, 'e1').catch((e: unknown) => e);
  expect(isAPIError(error)).toBe(true);
  return error as APIError;
}

describe('error bodies a server controls', () => {
  it.each([5, 18, 25, 40, 200])('a secret echoed %i levels deep is never shown', async (levels) => {
    const error = await errorFor(
      JSON.stringify({ detail: 'no', echo: nest(levels, { password: PASSWORD, said: `key ${SESSION}` }) }),
    );
    const shown = [JSON.stringify(error), JSON.stringify(error.body), inspect(error, { depth: Infinity })];
    for (const text of shown) {
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(SESSION);
    }
  });

  it('a 60 KB body nested 30,000 levels: JSON.stringify and inspect of the error do not throw', async () => {
    const error = await errorFor(`${'['.repeat(30_000)}${']'.repeat(30_000)}`);
    expect(() => JSON.stringify(error)).not.toThrow();
    expect(() => inspect(error, { depth: Infinity })).not.toThrow();
    expect(JSON.stringify(error)).toContain(TOO_DEEP);
  });

  it('a __proto__ key stays data: the body keeps the plain prototype', async () => {
    const error = await errorFor('{"detail":"no","__proto__":{"polluted":true,"detail":"spoofed"}}');
    const body = error.body as Record<string, unknown>;
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
    expect(body.polluted).toBeUndefined();
    expect(Object.hasOwn(body, '__proto__')).toBe(true);
    expect(JSON.stringify(error)).toContain('"__proto__":{"polluted":true');
  });

  it('redactValue and toJSON never throw on a deep value built in memory', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(() => JSON.stringify(redactValue(deep))).not.toThrow();
    const error = new APIError({
      status: 400,
      headers: {},
      body: deep,
      method: 'GET',
      url: 'u',
      message: 'm',
    });
    expect(() => JSON.stringify(error)).not.toThrow();
  });
});
