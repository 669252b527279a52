import { HttpResponse, http } from 'msw/http';
import { describe, expect, it, vi } from 'vitest';
import * as errors from '../../src/core/errors.js';
import { Transport } from '../../src/core/transport.js';
import { useMswServer } from '../helpers/msw.js';

const BASE = 'http://errors.test';
const { server } = useMswServer();

function transport() {
  return new Transport({ baseUrl: BASE, maxRetries: 0, secrets: () => [], logLevel: 'off' });
}

async function failWith(status: number, body: unknown, headers: Record<string, string> = {}) {
  server.use(http.get(`${BASE}/thing`, () => HttpResponse.json(body as never, { status, headers })));
  return transport()
    .request({ method: 'GET', path: 'thing' })
    .then(
      () => {
        throw new Error('expected a failure');
      },
      (error: unknown) => error,
    );
}

describe('status → error class', () => {
  const table: [number, string, (e: unknown) => boolean][] = [
    [400, 'BadRequestError', errors.isBadRequestError],
    [401, 'AuthenticationError', errors.isAuthenticationError],
    [403, 'PermissionDeniedError', errors.isPermissionDeniedError],
    [404, 'NotFoundError', errors.isNotFoundError],
    [409, 'ConflictError', errors.isConflictError],
    [422, 'UnprocessableEntityError', errors.isUnprocessableEntityError],
    [429, 'RateLimitError', errors.isRateLimitError],
    [500, 'InternalServerError', errors.isInternalServerError],
    [503, 'InternalServerError', errors.isInternalServerError],
    [418, 'APIError', errors.isAPIError],
  ];
  it.each(table)('%i → %s', async (status, name, guard) => {
    const error = await failWith(status, { detail: 'nope' });
    expect(guard(error)).toBe(true);
    expect(errors.isAPIError(error)).toBe(true);
    expect(errors.isAgentPlatformError(error)).toBe(true);
    expect((error as Error).name).toBe(name);
    const apiError = error as errors.APIError;
    expect(apiError.status).toBe(status);
    expect(apiError.method).toBe('GET');
    expect(apiError.url).toBe(`${BASE}/thing`);
    expect(apiError.body).toEqual({ detail: 'nope' });
    expect(apiError.message).toContain('nope');
  });

  it('guards reject other classes and non-errors', async () => {
    const error = await failWith(404, { detail: 'x' });
    expect(errors.isConflictError(error)).toBe(false);
    expect(errors.isNotFoundError(new Error('404'))).toBe(false);
    expect(errors.isNotFoundError(null)).toBe(false);
    expect(errors.isNotFoundError({ status: 404 })).toBe(false);
  });

  it('422 carries the typed HTTPValidationError detail', async () => {
    const body = {
      detail: [
        { loc: ['path', 'conversation_id'], msg: 'Input should be a valid UUID', type: 'uuid_parsing' },
      ],
    };
    const error = (await failWith(422, body)) as errors.UnprocessableEntityError;
    expect(error.detail).toEqual(body.detail);
    expect(error.message).toContain('path.conversation_id: Input should be a valid UUID');
  });

  it('429 exposes retryAfter in milliseconds', async () => {
    const error = (await failWith(
      429,
      { detail: 'slow down' },
      { 'retry-after': '7' },
    )) as errors.RateLimitError;
    expect(error.retryAfter).toBe(7000);
  });
});

describe('error bodies of every service are read', () => {
  it.each([
    [{ detail: 'Conversation not found: abc' }, 'Conversation not found: abc'],
    [
      { detail: 'Internal Server Error', exception: "'Unknown event_id: x'" },
      "Internal Server Error: 'Unknown event_id: x'",
    ],
    [
      {
        error: { message: 'Invalid model name', type: 'invalid_request_error', param: 'model', code: '400' },
      },
      'Invalid model name',
    ],
    [{ error: 'Admin functionality is disabled' }, 'Admin functionality is disabled'],
    [{ detail: [{ loc: ['query', 'limit'], msg: 'too big', type: 'x' }] }, 'query.limit: too big'],
    ['plain text failure', 'plain text failure'],
  ])('%j', async (body, message) => {
    server.use(
      http.get(`${BASE}/thing`, () =>
        typeof body === 'string'
          ? new HttpResponse(body, { status: 400 })
          : HttpResponse.json(body, { status: 400 }),
      ),
    );
    const error = await transport()
      .request({ method: 'GET', path: 'thing' })
      .catch((e: unknown) => e);
    expect((error as Error).message).toContain(message);
  });
});

describe('brand checks work across two copies of the package', () => {
  it('a NotFoundError from another module instance passes the guards of this one', async () => {
    vi.resetModules();
    // @ts-expect-error: the query string makes Vite load a second, independent copy of the module.
    const copy = (await import('../../src/core/errors.js?copy')) as typeof errors;
    expect(copy.NotFoundError).not.toBe(errors.NotFoundError);
    const foreign = new copy.NotFoundError({
      status: 404,
      headers: {},
      body: null,
      method: 'GET',
      url: 'u',
      message: 'm',
    });
    expect(foreign instanceof errors.NotFoundError).toBe(false);
    expect(errors.isNotFoundError(foreign)).toBe(true);
    expect(errors.isAPIError(foreign)).toBe(true);
    expect(errors.isConflictError(foreign)).toBe(false);
  });
});

describe('connection failures', () => {
  it('a network error becomes APIConnectionError', async () => {
    const t = new Transport({
      baseUrl: BASE,
      maxRetries: 0,
      secrets: () => [],
      logLevel: 'off',
      fetch: async () => {
        throw new TypeError('fetch failed');
      },
    });
    const error = await t.request({ method: 'GET', path: 'x' }).catch((e: unknown) => e);
    expect(errors.isAPIConnectionError(error)).toBe(true);
    expect(errors.isAPIConnectionTimeoutError(error)).toBe(false);
  });

  it('an answer that is not JSON becomes ResponseValidationError with the raw body', async () => {
    server.use(http.get(`${BASE}/thing`, () => new HttpResponse('<html>proxy</html>', { status: 200 })));
    const error = (await transport()
      .request({ method: 'GET', path: 'thing' })
      .catch((e: unknown) => e)) as errors.ResponseValidationError;
    expect(errors.isResponseValidationError(error)).toBe(true);
    expect(error.rawBody).toBe('<html>proxy</html>');
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(errors.parseRetryAfter('3')).toBe(3000);
    expect(errors.parseRetryAfter('0')).toBe(0);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(errors.parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(errors.parseRetryAfter('garbage')).toBeUndefined();
    expect(errors.parseRetryAfter(undefined)).toBeUndefined();
  });
});
