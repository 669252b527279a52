import { describe, expect, it } from 'vitest';
import { DeliveryLedger } from '../../src/agent-server/delivery-ledger.js';
import { EventQueue } from '../../src/agent-server/event-buffer.js';
import { backoffDelay, RECONNECT_DEFAULTS } from '../../src/agent-server/reconnect.js';
import { eventsSocketUrl, resendQuery, resolveAuth } from '../../src/agent-server/ws-auth.js';

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

describe('socket URL, resend and auth choice', () => {
  it('maps http(s) to ws(s) and keeps a base path', () => {
    expect(eventsSocketUrl('https://host.example/runtime/abc/', 'c-1', { resend_all: 'true' })).toBe(
      'wss://host.example/runtime/abc/sockets/events/c-1?resend_all=true',
    );
    expect(eventsSocketUrl('http://127.0.0.1:8000', 'c-1', {})).toBe(
      'ws://127.0.0.1:8000/sockets/events/c-1',
    );
  });

  it('resend_mode=since from 1.15.0, resend_all before (or when the version is unknown)', () => {
    expect(resendQuery({ since: 'T' }, '1.15.0')).toEqual({ resend_mode: 'since', after_timestamp: 'T' });
    expect(resendQuery({ since: 'T' }, '1.14.9')).toEqual({ resend_all: 'true' });
    expect(resendQuery({ since: 'T' }, undefined)).toEqual({ resend_all: 'true' });
    expect(resendQuery('none', '1.30.0')).toEqual({});
  });

  it.each([
    ['1.11.4', true, 'query'],
    ['1.12.0', true, 'header'],
    ['1.12.0', false, 'query'],
    ['1.18.0', true, 'header'],
    ['1.18.1', false, 'first-message'],
    ['1.40.0', true, 'first-message'],
    [undefined, true, 'query'],
  ])('auto on %s (runtime sends headers: %s) → %s', (version, headers, expected) => {
    expect(resolveAuth('auto', version, true, headers)).toBe(expected);
  });

  it('no key means no auth', () => {
    expect(resolveAuth('first-message', '1.11.4', false, true)).toBe('none');
  });
});
