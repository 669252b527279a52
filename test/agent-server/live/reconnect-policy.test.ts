/**
 * The reconnect policy's clocks, on an injected time (`now`) and a faked `Date` for the moment it was made:
 * progress resets the outage clock and the attempt count, the first-connection budget ends with the error
 * naming `connectTimeout`, and `maxAttempts` counts. Nothing here waits, so no machine is too slow for it
 * (issue 31); the socket tests count attempts instead of timing outages.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RECONNECT_DEFAULTS } from '../../../src/agent-server/live/reconnect-options.js';
import { ReconnectPolicy } from '../../../src/agent-server/live/reconnect-policy.js';

const T0 = 1_800_000_000_000;
const options = { ...RECONNECT_DEFAULTS, initialDelay: 10, maxDelay: 1_000 };

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(T0);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('progress is success', () => {
  it('an outage longer than giveUpAfter in all, but each part shorter, never gives up', () => {
    const policy = new ReconnectPolicy({ ...options, giveUpAfter: 150 }, 10_000);
    policy.progress();
    for (let drop = 1; drop <= 50; drop += 1) {
      const decision = policy.failed('error', false, T0 + drop * 100);
      expect(decision).toHaveProperty('delay');
      expect(policy.attempt).toBe(1);
      policy.progress();
    }
  });

  it('without progress the same outage gives up once giveUpAfter has passed, naming it', () => {
    const policy = new ReconnectPolicy({ ...options, giveUpAfter: 150 }, 10_000);
    policy.progress();
    expect(policy.failed('error', false, T0 + 100)).toHaveProperty('delay');
    expect(policy.failed('error', false, T0 + 200)).toHaveProperty('delay');
    expect(policy.failed('error', false, T0 + 250)).toEqual({
      giveUp: 'no working connection for 150 ms (reconnect.giveUpAfter 150 ms)',
    });
  });

  it('progress resets the backoff: the delay after it is the first one again', () => {
    // Jitter keeps a delay within half and all of its base: 5-10 ms first, 20-40 ms on the third attempt.
    const policy = new ReconnectPolicy(options, 10_000);
    policy.progress();
    const delays = [1, 2, 3].map(() => (policy.failed('error', false, T0) as { delay: number }).delay);
    expect(delays[2]).toBeGreaterThan(delays[0] as number);
    policy.progress();
    const after = policy.failed('error', false, T0) as { delay: number };
    expect(after.delay).toBeLessThanOrEqual(options.initialDelay);
  });
});

describe('the first-connection budget', () => {
  it('an unreachable host is retried within min(connectTimeout, giveUpAfter), then given up naming both', () => {
    const policy = new ReconnectPolicy({ ...options, giveUpAfter: 45_000 }, 1_500);
    expect(policy.connectBudgetLeft(T0 + 1_000)).toBe(500);
    const retry = policy.failed('error', true, T0 + 1_490) as { delay: number };
    // The last try fits in the budget: never a backoff past it.
    expect(retry.delay).toBeLessThanOrEqual(10);
    expect(policy.failed('error', true, T0 + 1_500)).toEqual({
      giveUp:
        'no connection within 1500 ms of subscribe() (connectTimeout 1500 ms, at most reconnect.giveUpAfter 45000 ms)',
    });
  });

  it('once the host answered, the budget no longer applies', () => {
    const policy = new ReconnectPolicy(options, 1_500);
    policy.answered();
    expect(policy.connectBudgetLeft(T0 + 60_000)).toBe(Number.POSITIVE_INFINITY);
    expect(policy.failed('error', true, T0 + 5_000)).toHaveProperty('delay');
  });
});

it('maxAttempts: the attempt after the last allowed one gives up, however little time passed', () => {
  const policy = new ReconnectPolicy({ ...options, maxAttempts: 3 }, 10_000);
  policy.answered();
  for (let attempt = 1; attempt <= 3; attempt += 1)
    expect(policy.failed('error', false, T0)).toHaveProperty('delay');
  expect(policy.failed('error', false, T0)).toEqual({ giveUp: '3 failed connection attempts' });
});
