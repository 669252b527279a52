// IdHashes, the delivery ledger's id lookup without its index: against a reference (the ids of the last
// `window` slots as a Set), over seeded random streams with reused ids, wrapping and growth; a failure replays
// from its seed.
import { describe, expect, it } from 'vitest';
import { DeliveryLedger } from '../../../src/agent-server/live/delivery-ledger.js';
import { IdHashes } from '../../../src/agent-server/live/id-hashes.js';
import { seededRandom } from '../../helpers/seeded-random.js';

describe('IdHashes', () => {
  it.each([1, 7, 99, 2024])('seed %i: has() is true for every id in a slot, false for ids gone', (seed) => {
    const next = seededRandom(seed);
    const window = 50 + Math.floor(next() * 400);
    const hashes = new IdHashes();
    const slots: string[] = [];
    const inSlots = { holds: (slot: number, id: string) => slots[slot] === id };
    let slot = 0;
    for (let n = 0; n < window * 6; n += 1) {
      // Mostly fresh ids, some reused from the window (a hit must stay a hit while any slot holds the id).
      const id = next() < 0.1 && slots.length > 0 ? slots[Math.floor(next() * slots.length)]! : `id-${n}`;
      hashes.set(slot, id);
      slots[slot] = id;
      slot = slot + 1 === window ? 0 : slot + 1;
      if (n % 7 === 0) {
        const held = new Set(slots);
        for (const known of held) expect(hashes.has(known, inSlots), `${known} after ${n}`).toBe(true);
        // Ids written long ago (overwritten) or never: absent.
        for (let gone = Math.max(0, n - window * 3); gone < n - window; gone += 17)
          if (!held.has(`id-${gone}`))
            expect(hashes.has(`id-${gone}`, inSlots), `id-${gone} after ${n}`).toBe(false);
        expect(hashes.has(`never-${n}`, inSlots)).toBe(false);
      }
    }
  });
});

describe('DeliveryLedger on a seq-only stream', () => {
  it('an id delivered before is not admitted again, without indexing the fresh ids', () => {
    const ledger = new DeliveryLedger(100);
    for (let n = 0; n < 250; n += 1) expect(ledger.admitSequenced(`id-${n}`, undefined)).toBe(true);
    expect(ledger.indexed).toBe(false);
    // Within the window (the last 100): refused, and the index now exists to say so.
    expect(ledger.admitSequenced('id-240', '2026-01-01T00:00:00.000')).toBe(false);
    expect(ledger.indexed).toBe(true);
    expect(ledger.reusedAt('id-240', '2026-01-01T00:00:00.000')).toEqual({ before: undefined });
    expect(ledger.admitSequenced('id-250', undefined)).toBe(true);
  });
});
