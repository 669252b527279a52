import { RequestValidationError } from '../core/errors.js';
import { describe } from '../core/validate.js';

/**
 * A `fetch` that starts at most `perSecond` requests a second, spaced evenly; the others wait their turn. The
 * platform app limits each client to 10 requests/s (slower answers above, 429 above 20/s: docs/compatibility.md,
 * P1). The underlying fetch is looked up at call time, so msw and other doubles installed later still answer.
 */
export function throttledFetch(perSecond: number, fetchImpl?: typeof fetch): typeof fetch {
  if (typeof perSecond !== 'number' || !Number.isFinite(perSecond) || perSecond <= 0) {
    throw new RequestValidationError(
      `must be a positive number, got ${describe(perSecond)}`,
      'maxRequestsPerSecond',
    );
  }
  const interval = 1000 / perSecond;
  let next = 0;
  return async (input, init) => {
    const now = Date.now();
    const at = Math.max(now, next);
    next = at + interval;
    if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
    return (fetchImpl ?? globalThis.fetch)(input, init);
  };
}
