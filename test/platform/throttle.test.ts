// PlatformClient's maxRequestsPerSecond: the platform app slows answers above 10 requests/s per client and
// answers 429 above 20/s (docs/compatibility.md, P1), so an app can keep its calls under the limit.
import { describe, expect, it } from 'vitest';
import { isRequestValidationError } from '../../src/core/errors.js';
import { PlatformClient } from '../../src/platform/index.js';
import { PlatformStore, platformHandlers } from '../../src/testing.js';
import { useMswServer } from '../helpers/msw.js';

const APP = 'https://app.platform.test';
useMswServer(...platformHandlers({ baseUrl: APP, store: new PlatformStore() }));

describe('maxRequestsPerSecond', () => {
  it('spaces the requests evenly: 6 calls at 20/s take at least 250 ms', async () => {
    const platform = new PlatformClient({ baseUrl: APP, maxRequestsPerSecond: 20, logLevel: 'off' });
    const started = Date.now();
    await Promise.all(Array.from({ length: 6 }, () => platform.listLlmProfiles()));
    expect(Date.now() - started).toBeGreaterThanOrEqual(245);
  });

  it('no option, no wait', async () => {
    const platform = new PlatformClient({ baseUrl: APP, logLevel: 'off' });
    const started = Date.now();
    await Promise.all(Array.from({ length: 6 }, () => platform.listLlmProfiles()));
    expect(Date.now() - started).toBeLessThan(245);
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
