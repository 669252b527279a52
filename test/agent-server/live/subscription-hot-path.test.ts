import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SubscriptionContext } from '../../../src/agent-server/live/context.js';
import { DeliveryLedger, positionTimestamp } from '../../../src/agent-server/live/delivery-ledger.js';
import { Subscription } from '../../../src/agent-server/live/subscription.js';

// The subscriber's per-event shortcuts must decide exactly as the plain checks they replace, and an idle
// subscription must stay small (docs/events-and-streaming.md, "Delivery guarantees").

/** positionTimestamp as it was before the remembered-second shortcut: the full check every time. */
function fullCheck(value: unknown): string | undefined {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/.test(value)) return undefined;
  const time = Date.parse(value.length > 23 ? value.slice(0, 23) : value);
  if (Number.isNaN(time) || time > Date.now() + 24 * 3600_000) return undefined;
  return value;
}

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19);

describe('positionTimestamp', () => {
  const now = Date.now();
  // Seconds around now, around the one-day bound (well clear of it: the clock moves while the test runs),
  // far ahead, and ones that look like ISO but are not dates.
  const second = fc.constantFrom(
    iso(now - 3_600_000),
    iso(now),
    iso(now + 24 * 3_600_000 - 30_000),
    iso(now + 24 * 3_600_000 + 30_000),
    iso(now + 400 * 24 * 3_600_000),
    '2026-13-01T10:00:00',
    '2026-02-30T10:00:00',
    '2026-01-01T24:00:00',
    '2026-01-01T10:61:00',
    '2026-01-01T10:00:61',
  );
  const tail = fc.oneof(
    fc.constantFrom('', 'Z', '+05:00', '.', '.1', '.12', '.123', '.123456', '.123456Z', '.000001+00:00'),
    fc.stringMatching(/^\.\d{3}[\dZ+:x-]{0,8}$/),
    fc.string({ maxLength: 6 }),
  );
  const value = fc.oneof(
    { weight: 8, arbitrary: fc.tuple(second, tail).map(([s, t]) => s + t) },
    { weight: 1, arbitrary: fc.constantFrom(undefined, null, 42, '', 'yesterday', '2026-01-01') },
  );

  it('accepts and refuses exactly as the full check, in any order (the remembered second included)', () => {
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 40 }), (values) => {
        for (const item of values) expect(positionTimestamp(item)).toBe(fullCheck(item));
      }),
      { numRuns: 400 },
    );
  });

  it('a far-future timestamp is refused right after a timestamp that passed, and the next one passes again', () => {
    const future = iso(now + 2 * 24 * 3_600_000);
    expect(positionTimestamp(`${iso(now)}.100`)).toBe(`${iso(now)}.100`);
    expect(positionTimestamp(`${future}.200`)).toBeUndefined();
    expect(positionTimestamp(`${iso(now)}.300`)).toBe(`${iso(now)}.300`);
  });
});

describe('DeliveryLedger window', () => {
  it('starts small and grows with deliveries, never beyond the window', () => {
    const ledger = new DeliveryLedger(10_000);
    expect(ledger.capacity).toBeLessThanOrEqual(64);
    for (let i = 0; i < 25_000; i += 1) ledger.record(`id-${i}`, undefined);
    expect(ledger.capacity).toBe(10_000);
    // The last 10 000 ids are remembered, the ones before are not.
    expect(ledger.isOld('id-24999', undefined)).toBe(true);
    expect(ledger.isOld('id-15000', undefined)).toBe(true);
    expect(ledger.isOld('id-14999', undefined)).toBe(false);
  });

  it('remembers exactly the last `window` ids through growth and wrap-around', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.array(fc.integer({ min: 0, max: 300 }), { maxLength: 600 }),
        (window, ids) => {
          const ledger = new DeliveryLedger(window);
          const model: string[] = [];
          for (const n of ids) {
            const id = `e${n}`;
            const admitted = ledger.admit(id, undefined);
            expect(admitted).toBe(!model.includes(id));
            if (admitted) {
              model.push(id);
              if (model.length > window) model.shift();
            }
            expect(ledger.capacity).toBeLessThanOrEqual(window);
          }
          for (let n = 0; n <= 300; n += 1)
            expect(ledger.isOld(`e${n}`, undefined)).toBe(model.includes(`e${n}`));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('admit drops what is below the caller’s floor, unless told not to', () => {
    const ledger = new DeliveryLedger(10);
    ledger.setFloor({ timestamp: '2026-01-01T10:00:00.5', eventIds: ['x'] });
    expect(ledger.admit('old', '2026-01-01T10:00:00.4')).toBe(false);
    expect(ledger.admit('x', '2026-01-01T10:00:00.5')).toBe(false);
    expect(ledger.admit('y', '2026-01-01T10:00:00.5')).toBe(true);
    expect(ledger.admit('live', '2026-01-01T10:00:00.1', false)).toBe(true);
  });

  it('catchUpSince reads from the oldest remembered timestamp after a clock step back, across growth', () => {
    const ledger = new DeliveryLedger(1_000);
    for (let i = 0; i < 100; i += 1) ledger.record(`a${i}`, `2026-01-01T10:00:${String(10 + (i % 40))}`);
    ledger.record('back', '2026-01-01T09:59:00');
    expect(ledger.catchUpSince()).toBe('2026-01-01T09:59:00');
  });
});

/** Garbage-collects (V8's gc, exposed for this test only) and reads the heap in use. */
function heapUsed(): number {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe('an idle subscription', () => {
  it('holds at most 64 KiB (the dedupe window grows on demand)', () => {
    const never = new Promise<never>(() => undefined);
    const ctx: SubscriptionContext = {
      baseUrl: 'http://127.0.0.1:9',
      conversationId: 'idle',
      logger: { debug() {}, info() {}, warn() {}, error() {} } as unknown as SubscriptionContext['logger'],
      secrets: () => [],
      // Never answers: the subscription stays where an idle one is, with its ledger and buffers built.
      serverVersion: () => never,
      sessionApiKey: async () => undefined,
      backfill: async function* () {},
      newestTimestamp: () => never,
      probe: () => never,
      readState: () => never,
    };
    const count = 200;
    const before = heapUsed();
    const subscriptions = Array.from({ length: count }, () => new Subscription(ctx));
    const perSubscription = (heapUsed() - before) / count;
    for (const subscription of subscriptions) subscription.close();
    expect(perSubscription).toBeLessThanOrEqual(64 * 1024);
  });
});
