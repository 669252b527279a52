// PlatformClient's maxRequestsPerSecond: the platform app slows answers above 10 requests/s per client and
// answers 429 above 20/s (docs/compatibility.md, P1), so an app can keep its calls under the limit.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { isRequestValidationError } from '../../src/core/errors.js';
import { PlatformClient } from '../../src/platform/index.js';
import { PlatformStore, platformHandlers } from '../../src/testing.js';
import { useMswServer } from '../helpers/msw.js';

const APP = 'https://app.platform.test';
useMswServer(...platformHandlers({ baseUrl: APP, store: new PlatformStore() }));

/**
 * When each of 6 concurrent calls reached `fetch`, on a faked clock (Date and setTimeout): the spacing is the
 * throttle's own arithmetic, the same on any machine (issue 31). The fetch never answers: only the starts count.
 */
async function startTimes(options: { maxRequestsPerSecond?: number }, advanceMs: number): Promise<number[]> {
  vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
  try {
    const t0 = Date.now();
    const starts: number[] = [];
    const platform = new PlatformClient({
      baseUrl: APP,
      logLevel: 'off',
      fetch: () => {
        starts.push(Date.now() - t0);
        return new Promise<Response>(() => undefined);
      },
      ...options,
    });
    for (let i = 0; i < 6; i += 1) void platform.listLlmProfiles().catch(() => undefined);
    await vi.advanceTimersByTimeAsync(advanceMs);
    return starts;
  } finally {
    vi.useRealTimers();
  }
}

describe('maxRequestsPerSecond', () => {
  // A first call loads what the client loads lazily (real I/O, which a faked clock cannot advance).
  beforeAll(async () => {
    await new PlatformClient({ baseUrl: APP, logLevel: 'off' }).listLlmProfiles();
  });

  it('spaces the requests evenly: 6 calls at 20/s start 50 ms apart', async () => {
    expect(await startTimes({ maxRequestsPerSecond: 20 }, 300)).toEqual([0, 50, 100, 150, 200, 250]);
    // None starts early: 240 ms in, the sixth still waits.
    expect(await startTimes({ maxRequestsPerSecond: 20 }, 240)).toHaveLength(5);
  });

  it('no option, no wait: all 6 start at once', async () => {
    expect(await startTimes({}, 0)).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('a limit that is not a positive number is a RequestValidationError naming the option', () => {
    for (const value of [0, -1, Number.NaN, '10' as unknown as number]) {
      let error: unknown;
      try {
        new PlatformClient({ baseUrl: APP, maxRequestsPerSecond: value });
      } catch (e) {
        error = e;
      }
      expect(isRequestValidationError(error)).toBe(true);
      expect(String(error)).toMatch(/maxRequestsPerSecond/);
    }
  });
});
