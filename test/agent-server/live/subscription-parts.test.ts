import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeliveryLedger } from '../../../src/agent-server/live/delivery-ledger.js';
import { EventQueue } from '../../../src/agent-server/live/event-queue.js';
import { RECONNECT_DEFAULTS } from '../../../src/agent-server/live/reconnect-options.js';
import { backoffDelay } from '../../../src/agent-server/live/reconnect-policy.js';

describe('backoff', () => {
  const options = { ...RECONNECT_DEFAULTS, initialDelay: 100, maxDelay: 1_000, overloadedDelay: 5_000 };

  it('doubles per attempt, between half and all of the step, up to the cap', () => {
    const low = (attempt: number) => backoffDelay(attempt, options, false, () => 0);
    const high = (attempt: number) => backoffDelay(attempt, options, false, () => 1);
    expect([1, 2, 3, 4, 5, 6].map(low)).toEqual([50, 100, 200, 400, 500, 500]);
    expect([1, 2, 3, 4, 5, 6].map(high)).toEqual([100, 200, 400, 800, 1_000, 1_000]);
  });

  it('after 1013 starts at overloadedDelay, above the normal cap', () => {
    expect(backoffDelay(1, options, true, () => 0)).toBe(2_500);
    expect(backoffDelay(1, options, true, () => 1)).toBe(5_000);
    expect(backoffDelay(4, options, true, () => 1)).toBe(5_000);
  });

  it('jitter spreads clients dropped together', () => {
    const delays = new Set(Array.from({ length: 50 }, () => backoffDelay(3, options, false)));
    expect(delays.size).toBeGreaterThan(10);
  });
});

describe('DeliveryLedger', () => {
  it('drops duplicates by id and remembers the newest position', () => {
    const ledger = new DeliveryLedger(100);
    expect(ledger.isOld('a', 't1')).toBe(false);
    ledger.record('a', 't1');
    ledger.record('b', 't2');
    ledger.record('c', 't2');
    expect(ledger.isOld('a', 't1')).toBe(true);
    expect(ledger.position()).toEqual({ timestamp: 't2', eventIds: ['b', 'c'] });
  });

  it('a floor drops what is older, and the ids seen at exactly its timestamp', () => {
    const ledger = new DeliveryLedger(100);
    ledger.setFloor({ timestamp: '2026-01-01T10:00:00.5', eventIds: ['x'] });
    expect(ledger.isOld('old', '2026-01-01T10:00:00.4')).toBe(true);
    expect(ledger.isOld('x', '2026-01-01T10:00:00.5')).toBe(true);
    expect(ledger.isOld('y', '2026-01-01T10:00:00.5')).toBe(false);
    expect(ledger.isOld('z', '2026-01-01T10:00:01')).toBe(false);
    ledger.setFloor(undefined);
    expect(ledger.isOld('old', '2026-01-01T10:00:00.4')).toBe(false);
  });

  it('compares server timestamps as the server does: microseconds omitted when zero still sort right', () => {
    const ledger = new DeliveryLedger(100);
    ledger.setFloor({ timestamp: '2026-02-05T11:24:45', eventIds: [] });
    expect(ledger.isOld('a', '2026-02-05T11:24:44.999999')).toBe(true);
    expect(ledger.isOld('b', '2026-02-05T11:24:45.000001')).toBe(false);
  });

  it('keeps only the last `window` ids', () => {
    const ledger = new DeliveryLedger(3);
    for (const id of ['a', 'b', 'c', 'd']) ledger.record(id, undefined);
    expect(ledger.isOld('a', undefined)).toBe(false);
    expect(ledger.isOld('d', undefined)).toBe(true);
    expect(ledger.position()).toBeUndefined();
  });
});

describe('DeliveryLedger.admit (the live path)', () => {
  // Few ids and timestamps, so that duplicates, ties and older events are frequent.
  const step = fc.record({
    id: fc.option(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), { nil: undefined }),
    timestamp: fc.option(fc.constantFrom('T1', 'T2', 'T2.5', 'T3', 'T4'), { nil: undefined }),
    floor: fc.option(
      fc.record({
        timestamp: fc.constantFrom('T1', 'T2', 'T3'),
        eventIds: fc.subarray(['a', 'b', 'c']),
      }),
      { freq: 8 },
    ),
  });

  it('decides and records exactly as isOld followed by record', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.array(step, { maxLength: 60 }), (window, steps) => {
        const fast = new DeliveryLedger(window);
        const reference = new DeliveryLedger(window);
        for (const { id, timestamp, floor } of steps) {
          if (floor !== null) {
            fast.setFloor(floor);
            reference.setFloor(floor);
          }
          const old = reference.isOld(id, timestamp);
          if (!old) reference.record(id, timestamp);
          expect(fast.admit(id, timestamp)).toBe(!old);
          expect(fast.position()).toEqual(reference.position());
        }
        for (const id of ['a', 'b', 'c', 'd', 'e', 'f']) {
          expect(fast.isOld(id, undefined)).toBe(reference.isOld(id, undefined));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('a newer event is admitted, a resend of one still in the window is not', () => {
    const ledger = new DeliveryLedger(2);
    expect(ledger.admit('a', '2026-01-01T10:00:00.1')).toBe(true);
    expect(ledger.admit('b', '2026-01-01T10:00:00.2')).toBe(true);
    expect(ledger.admit('b', '2026-01-01T10:00:00.2')).toBe(false);
    expect(ledger.admit('c', '2026-01-01T10:00:00.2')).toBe(true);
    expect(ledger.position()).toEqual({ timestamp: '2026-01-01T10:00:00.2', eventIds: ['b', 'c'] });
    // `a` left the window of 2: it can no longer be recognised by id.
    expect(ledger.admit('a', '2026-01-01T10:00:00.1')).toBe(true);
  });

  it('positions handed out are copies: later deliveries do not change them', () => {
    const ledger = new DeliveryLedger(10);
    ledger.admit('a', 'T1');
    ledger.admit('b', 'T1');
    const saved = ledger.position();
    ledger.admit('c', 'T2');
    ledger.admit('d', 'T2');
    expect(saved).toEqual({ timestamp: 'T1', eventIds: ['a', 'b'] });
    expect(ledger.position()).toEqual({ timestamp: 'T2', eventIds: ['c', 'd'] });
  });
});

describe('EventQueue', () => {
  it('hands queued items out before the end, then ends (or throws once)', async () => {
    let taken = 0;
    const queue = new EventQueue<number>(() => {
      taken += 1;
    });
    queue.push(1);
    queue.push(2);
    queue.end(new Error('boom'));
    expect(await queue.next()).toEqual({ value: 1, done: false });
    expect(await queue.next()).toEqual({ value: 2, done: false });
    await expect(queue.next()).rejects.toThrow('boom');
    expect(await queue.next()).toEqual({ value: undefined, done: true });
    expect(taken).toBe(2);
  });

  it('wakes a waiting consumer; clear() drops what is queued', async () => {
    const queue = new EventQueue<string>(() => undefined);
    const waiting = queue.next();
    queue.push('x');
    expect(await waiting).toEqual({ value: 'x', done: false });
    queue.push('y');
    queue.clear();
    expect(queue.size).toBe(0);
    expect(await queue.next()).toEqual({ value: undefined, done: true });
  });

  it('push reports how many items wait; an item handed to a waiting consumer does not wait', async () => {
    const queue = new EventQueue<string>();
    const waiting = queue.next();
    expect(queue.push('a')).toBe(0);
    expect(await waiting).toEqual({ value: 'a', done: false });
    expect(queue.push('b')).toBe(1);
    expect(queue.push('c')).toBe(2);
    expect(queue.size).toBe(2);
  });

  it('several waiting next() calls are served first come, first served', async () => {
    const queue = new EventQueue<number>();
    const first = queue.next();
    const second = queue.next();
    const third = queue.next();
    queue.push(1);
    queue.push(2);
    expect(await first).toEqual({ value: 1, done: false });
    expect(await second).toEqual({ value: 2, done: false });
    queue.end();
    expect(await third).toEqual({ value: undefined, done: true });
  });

  it('end(error) rejects every waiting call; clear() ends every waiting call', async () => {
    const failing = new EventQueue<number>();
    const calls = [failing.next(), failing.next()];
    failing.end(new Error('gone'));
    for (const call of calls) await expect(call).rejects.toThrow('gone');
    const cleared = new EventQueue<number>();
    const more = [cleared.next(), cleared.next()];
    cleared.clear();
    for (const call of more) expect(await call).toEqual({ value: undefined, done: true });
    expect(cleared.push(1)).toBe(0);
  });

  it('hands items out in order through any mix of pushes and takes (ring wrap-around and growth)', async () => {
    const op = fc.oneof(fc.constant('take' as const), fc.integer({ min: 1, max: 200 }));
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 80 }), async (ops) => {
        let taken = 0;
        const queue = new EventQueue<number>(() => {
          taken += 1;
        });
        const model: number[] = [];
        let next = 0;
        let takes = 0;
        for (const o of ops) {
          if (o === 'take') {
            if (model.length === 0) continue;
            expect(await queue.next()).toEqual({ value: model.shift(), done: false });
            takes += 1;
          } else {
            for (let i = 0; i < o; i += 1) {
              model.push(next);
              expect(queue.push(next)).toBe(model.length);
              next += 1;
            }
          }
          expect(queue.size).toBe(model.length);
        }
        queue.end();
        for (const value of model) expect(await queue.next()).toEqual({ value, done: false });
        expect(await queue.next()).toEqual({ value: undefined, done: true });
        expect(taken).toBe(takes + model.length);
      }),
      { numRuns: 200 },
    );
  });

  it('stays compact over a long stream', async () => {
    const queue = new EventQueue<number>(() => undefined);
    for (let i = 0; i < 5_000; i += 1) {
      queue.push(i);
      queue.push(i);
      await queue.next();
    }
    expect(queue.size).toBe(5_000);
    expect((await queue.next()).value).toBe(2_500);
  });
});
