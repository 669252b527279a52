/**
 * The delivery core keeps the `state` mirror. A stream's per-key updates set the field in place while nobody
 * holds the mirror (src/agent-server/live/delivery-core.ts), so this checks what that must not change: every
 * object handed out (through `state` or a `state` listener) stays as it was, and the mirror equals what
 * `applyStateUpdate` gives, update after update.
 */
import { EventEmitter } from 'eventemitter3';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeliveryCore } from '../../../src/agent-server/live/delivery-core.js';
import { SafeEmitter } from '../../../src/agent-server/live/safe-emitter.js';
import { liveSettings } from '../../../src/agent-server/live/subscribe-options.js';
import type { SubscriptionEventMap } from '../../../src/agent-server/live/types.js';
import { SafeLogger } from '../../../src/core/logger.js';
import type { Event, KnownEventMap } from '../../../src/models/index.js';
import { applyStateUpdate } from '../../../src/models/state-mirror.js';

type StateUpdate = KnownEventMap['ConversationStateUpdateEvent'];

function core() {
  const logger = new SafeLogger({ debug() {}, info() {}, warn() {}, error() {} }, 'off', () => []);
  const emitter = new EventEmitter<SubscriptionEventMap>();
  const safe = new SafeEmitter(emitter, logger, () => []);
  return { core: new DeliveryCore(liveSettings({}), safe, logger, 'state'), emitter };
}

let n = 0;
function update(key: string | undefined, value: unknown): StateUpdate {
  n += 1;
  return {
    kind: 'ConversationStateUpdateEvent',
    id: `u${n}`,
    timestamp: `2026-11-28T00:00:${String(n % 60).padStart(2, '0')}.000000`,
    source: 'environment',
    key,
    value,
  } as StateUpdate;
}

const deliver = (target: DeliveryCore, event: StateUpdate) =>
  target.deliver(event as Event, event.id, undefined, 100);

describe('the state mirror in the delivery core', () => {
  it('equals applyStateUpdate over any updates, and no object it handed out changes afterwards', () => {
    const keys = fc.constantFrom(
      'execution_status',
      'title',
      'stats',
      'full_state',
      '__proto__',
      'new_field',
    );
    const step = fc.record({
      key: fc.option(keys, { nil: undefined }),
      value: fc.oneof(
        fc.constant(undefined),
        fc.constant(null),
        fc.string(),
        fc.dictionary(fc.string(), fc.nat()),
      ),
      read: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), fc.boolean(), (steps, listen) => {
        const { core: target, emitter } = core();
        const handedOut: [object, string][] = [];
        if (listen) emitter.on('state', (state) => handedOut.push([state, JSON.stringify(state)]));
        target.snapshot(update('full_state', { id: 'c1', execution_status: 'idle' }), undefined);
        let expected = applyStateUpdate(
          undefined,
          update('full_state', { id: 'c1', execution_status: 'idle' }),
        );
        for (const { key, value, read } of steps) {
          const event = update(key, key === 'full_state' && typeof value !== 'object' ? {} : value);
          deliver(target, event);
          expected = applyStateUpdate(expected, event);
          if (read) {
            const state = target.state!;
            handedOut.push([state, JSON.stringify(state)]);
          }
        }
        expect(target.state).toEqual(expected);
        expect(Object.getPrototypeOf(target.state)).toBe(Object.prototype);
        for (const [state, text] of handedOut) expect(JSON.stringify(state)).toBe(text);
      }),
      { numRuns: 300, seed: 24 },
    );
  });

  it('skips updates older than the snapshot, and applies later ones in delivery order whatever their stamps', () => {
    const { core: target } = core();
    const at = (event: StateUpdate, timestamp: string) => {
      const stamped = { ...event, timestamp } as StateUpdate;
      target.deliver(stamped as Event, stamped.id, timestamp, 100);
    };
    target.snapshot(update('full_state', { id: 'c1', execution_status: 'running', stats: 's0' }), 'T10');
    at(update('execution_status', 'idle'), 'T05'); // a catch-up event older than the snapshot
    expect(target.state?.execution_status).toBe('running');
    // 1.44.1: `finished`, then the run's last stats update, stored after it but stamped before it.
    at(update('execution_status', 'finished'), 'T20');
    at(update('stats', 's1'), 'T15');
    expect(target.state).toMatchObject({ execution_status: 'finished', stats: 's1' });
  });

  it('a stream of per-key updates nobody reads ends in the same mirror', () => {
    const { core: target } = core();
    target.snapshot(update('full_state', { id: 'c1', execution_status: 'idle', title: 'a' }), undefined);
    const first = target.state;
    for (let i = 0; i < 1000; i += 1) deliver(target, update('stats', { turn: i }));
    deliver(target, update('execution_status', undefined));
    expect(first).toEqual({ id: 'c1', execution_status: 'idle', title: 'a' });
    expect(target.state).toEqual({ id: 'c1', execution_status: null, title: 'a', stats: { turn: 999 } });
  });
});
