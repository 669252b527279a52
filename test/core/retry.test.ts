import { HttpResponse, http } from 'msw/http';
import { describe, expect, it } from 'vitest';
import {
  isAPIConnectionTimeoutError,
  isAPIUserAbortError,
  isInternalServerError,
  isRateLimitError,
} from '../../src/core/errors.js';
import { type HttpMethod, Transport } from '../../src/core/transport.js';
import { useMswServer } from '../helpers/msw.js';
import { recordTimerDelays } from '../helpers/timer-delays.js';

const BASE = 'http://retry.test';
const { server } = useMswServer();

function transport(overrides: Partial<ConstructorParameters<typeof Transport>[0]> = {}) {
  return new Transport({
    baseUrl: BASE,
    maxRetries: 2,
    maxRetryDelay: 50,
    secrets: () => [],
    logLevel: 'off',
    ...overrides,
  });
}

/** A handler for every method that answers `statuses` in turn (the last one repeats) and counts attempts. */
function sequence(statuses: number[], headers: Record<string, string> = {}) {
  const state = { attempts: 0 };
  server.use(
    http.all(`${BASE}/op`, () => {
      const status = statuses[Math.min(state.attempts, statuses.length - 1)]!;
      state.attempts += 1;
      return status === 200
        ? HttpResponse.json({ ok: true })
        : HttpResponse.json({ detail: 'x' }, { status, headers });
    }),
  );
  return state;
}

describe('retry policy', () => {
  it.each([408, 429, 500, 502, 503, 504])('GET is retried on %i and then succeeds', async (status) => {
    const state = sequence([status, status, 200]);
    await expect(transport().request({ method: 'GET', path: 'op' })).resolves.toEqual({ ok: true });
    expect(state.attempts).toBe(3);
  });

  it('gives up after maxRetries and throws the last error', async () => {
    const state = sequence([503]);
    const error = await transport({ maxRetries: 3 })
      .request({ method: 'GET', path: 'op' })
      .catch((e: unknown) => e);
    expect(isInternalServerError(error)).toBe(true);
    expect(state.attempts).toBe(4);
  });

  it.each(['PUT', 'HEAD'] as HttpMethod[])('%s is retried', async (method) => {
    const state = sequence([503, 200]);
    await transport().request({ method, path: 'op', responseType: 'none' });
    expect(state.attempts).toBe(2);
  });

  it.each(['POST', 'PATCH', 'DELETE'] as HttpMethod[])('%s is never retried', async (method) => {
    const state = sequence([503, 200]);
    const error = await transport()
      .request({ method, path: 'op', responseType: 'none' })
      .catch((e: unknown) => e);
    expect(isInternalServerError(error)).toBe(true);
    expect(state.attempts).toBe(1);
  });

  it.each([400, 401, 403, 404, 409, 422])('%i is not retried', async (status) => {
    const state = sequence([status, 200]);
    await transport()
      .request({ method: 'GET', path: 'op' })
      .catch(() => undefined);
    expect(state.attempts).toBe(1);
  });

  it('maxRetries 0 makes one attempt', async () => {
    const state = sequence([503]);
    await transport({ maxRetries: 0 })
      .request({ method: 'GET', path: 'op' })
      .catch(() => undefined);
    expect(state.attempts).toBe(1);
  });

  it('a permanent error answer is not retried', async () => {
    const state = sequence([500]);
    await transport()
      .request({ method: 'GET', path: 'op', isPermanent: (status) => status === 500 })
      .catch(() => undefined);
    expect(state.attempts).toBe(1);
  });

  it('network errors of GET are retried', async () => {
    let calls = 0;
    const t = transport({
      fetch: async () => {
        calls += 1;
        if (calls < 3) throw new TypeError('fetch failed');
        return Response.json({ ok: true });
      },
    });
    await expect(t.request({ method: 'GET', path: 'op' })).resolves.toEqual({ ok: true });
    expect(calls).toBe(3);
  });
});

describe('Retry-After', () => {
  it('is honoured (seconds): the retry waits at least that long', async () => {
    const state = sequence([429, 200], { 'retry-after': '1' });
    const started = performance.now();
    await transport({ maxRetryDelay: 5_000 }).request({ method: 'GET', path: 'op' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(state.attempts).toBe(2);
  });

  it('is honoured as an HTTP date', async () => {
    const at = new Date(Date.now() + 2_000).toUTCString();
    const state = sequence([503, 200], { 'retry-after': at });
    const started = performance.now();
    await transport({ maxRetryDelay: 5_000 }).request({ method: 'GET', path: 'op' });
    // HTTP dates have one-second resolution: the wait is between ~1 s and 2 s.
    expect(performance.now() - started).toBeGreaterThanOrEqual(900);
    expect(state.attempts).toBe(2);
  });

  it('is capped by maxRetryDelay', async () => {
    const state = sequence([429, 200], { 'retry-after': '3600' });
    const timers = recordTimerDelays();
    await transport({ maxRetryDelay: 100 })
      .request({ method: 'GET', path: 'op' })
      .finally(() => timers.stop());
    // The wait asked for is the cap, not the hour the server asked for.
    expect(timers.delays).toContain(100);
    expect(timers.delays).not.toContain(3_600_000);
    expect(state.attempts).toBe(2);
  });

  it('RateLimitError exposes it when retries run out', async () => {
    sequence([429], { 'retry-after': '0' });
    const error = await transport({ maxRetries: 0 })
      .request({ method: 'GET', path: 'op' })
      .catch((e: unknown) => e);
    expect(isRateLimitError(error)).toBe(true);
  });
});

describe('abort and timeouts', () => {
  it('an abort during the backoff wait ends the call at once', async () => {
    const state = sequence([503], { 'retry-after': '30' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const timers = recordTimerDelays();
    const error = await transport({ maxRetryDelay: 60_000 })
      .request({ method: 'GET', path: 'op', signal: controller.signal })
      .catch((e: unknown) => e)
      .finally(() => timers.stop());
    // It was waiting the 30 s the server asked for when the abort ended it (a wait not ended by the abort
    // would outlast the test's timeout).
    expect(timers.delays).toContain(30_000);
    expect(isAPIUserAbortError(error)).toBe(true);
    expect(state.attempts).toBe(1);
  });

  it('an already aborted signal sends nothing', async () => {
    const state = sequence([200]);
    const error = await transport()
      .request({ method: 'GET', path: 'op', signal: AbortSignal.abort() })
      .catch((e: unknown) => e);
    expect(isAPIUserAbortError(error)).toBe(true);
    expect(state.attempts).toBe(0);
  });

  it('the per-attempt timeout gives APIConnectionTimeoutError, after retrying', async () => {
    let attempts = 0;
    server.use(
      http.get(`${BASE}/slow`, async () => {
        attempts += 1;
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        return HttpResponse.json({});
      }),
    );
    const error = await transport({ timeout: 100, maxRetries: 1 })
      .request({ method: 'GET', path: 'slow' })
      .catch((e: unknown) => e);
    expect(isAPIConnectionTimeoutError(error)).toBe(true);
    expect(attempts).toBe(2);
  });

  it('totalTimeout bounds the whole call including retries', async () => {
    const state = sequence([503], { 'retry-after': '10' });
    const error = await transport({ totalTimeout: 300, maxRetries: 5, maxRetryDelay: 60_000 })
      .request({ method: 'GET', path: 'op' })
      .catch((e: unknown) => e);
    // Ended during the first 10 s wait: without the bound it would make 6 attempts over 50 s.
    expect(isAPIConnectionTimeoutError(error)).toBe(true);
    expect(state.attempts).toBe(1);
  });
});
