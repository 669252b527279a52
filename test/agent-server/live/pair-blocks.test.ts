/**
 * The delivery ledger keeps ids and timestamps in typed arrays (src/agent-server/live/pair-blocks.ts) and looks
 * ids up in a hash table of slot numbers (id-table.ts). Both must answer exactly as the plain ring they replace:
 * checked against plain arrays over random windows, ids (repeated, long, not ASCII, lone surrogates) and timestamps.
 */
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeliveryLedger } from '../../../src/agent-server/live/delivery-ledger.js';
import { PairBlocks } from '../../../src/agent-server/live/pair-blocks.js';

describe('PairBlocks', () => {
  it('reads back the last window of pairs, slot by slot, whatever the window and the number written', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 0, max: 1000 }), (window, count) => {
        const blocks = new PairBlocks(window);
        const ids: (string | undefined)[] = [];
        const times: (string | undefined)[] = [];
        for (let i = 0; i < count; i += 1) {
          const slot = i % window;
          const time = i % 7 === 0 ? undefined : `t${i}`;
          // Some ids are long and not ASCII (the byte buffer grows), some hold a lone surrogate (not UTF-8):
          // each comes back as it was, code unit for code unit.
          const id =
            i % 5 === 0 ? `id${i}-${'é😀'.repeat(i % 90)}` : i % 11 === 0 ? `id${i}\ud800${i}` : `id${i}`;
          blocks.set(slot, id, time);
          ids[slot] = id;
          times[slot] = time;
        }
        const read = blocks.read();
        expect(read.ids.length).toBe(blocks.capacity);
        expect(blocks.capacity).toBeLessThanOrEqual(window);
        for (let slot = 0; slot < read.ids.length; slot += 1) {
          expect(read.ids[slot]).toBe(ids[slot]);
          expect(read.times[slot]).toBe(times[slot]);
          expect(blocks.idAt(slot)).toBe(ids[slot]);
          expect(blocks.timeAt(slot)).toBe(times[slot]);
          // `idEquals` compares in place: the slot's own id, not its neighbour's, nor a prefix of it.
          if (ids[slot] !== undefined) {
            expect(blocks.idEquals(slot, ids[slot] as string)).toBe(true);
            expect(blocks.idEquals(slot, `${ids[slot]}x`)).toBe(false);
            expect(blocks.idEquals(slot, (ids[slot] as string).slice(0, -1))).toBe(false);
          }
          if (window > 1 && ids[(slot + 1) % window] !== undefined && ids[(slot + 1) % window] !== ids[slot])
            expect(blocks.idEquals(slot, ids[(slot + 1) % window] as string)).toBe(false);
        }
      }),
      { numRuns: 300, seed: 5 },
    );
  });
});

describe('DeliveryLedger id index (IdTable over the blocks)', () => {
  it('looks ids up exactly as a plain ring of the last `window` ids, repeated ids and wrap-around included', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 150 }),
        // Few distinct ids, so that the same id comes again within and beyond the window; some long, not ASCII.
        fc.array(fc.integer({ min: 0, max: 60 }), { maxLength: 700 }),
        fc.nat(),
        (window, picks, indexAt) => {
          const ledger = new DeliveryLedger(window);
          const ring: string[] = [];
          const name = (n: number) => (n % 7 === 0 ? `id${n}-${'é😀'.repeat(n)}` : `id${n}`);
          const firstLookup = picks.length === 0 ? 0 : indexAt % picks.length;
          picks.forEach((n, i) => {
            // record, not admit: the same id may be written down twice (two slots, two entries).
            ledger.record(name(n), undefined);
            ring[i % window] = name(n);
            if (i >= firstLookup)
              for (let probe = 0; probe <= 60; probe += 1)
                expect(ledger.isOld(name(probe), undefined, false), name(probe)).toBe(
                  ring.includes(name(probe)),
                );
          });
        },
      ),
      { numRuns: 150, seed: 24 },
    );
  });
});

describe('DeliveryLedger.reusedAt', () => {
  it('names the timestamp an id was delivered with when it comes again with another, on any stream', () => {
    const ledger = new DeliveryLedger(100);
    for (let n = 0; n < 250; n += 1) expect(ledger.admit(`id-${n}`, `2026-01-01T00:00:00.${n}`)).toBe(true);
    // Within the window (the last 100): refused; a resend of the same event (same timestamp) is no reuse.
    expect(ledger.admit('id-240', '2026-01-02T00:00:00.000')).toBe(false);
    expect(ledger.reusedAt('id-240', '2026-01-02T00:00:00.000')).toEqual({
      before: '2026-01-01T00:00:00.240',
    });
    expect(ledger.reusedAt('id-240', '2026-01-01T00:00:00.240')).toBeUndefined();
    // Beyond the window: forgotten.
    expect(ledger.reusedAt('id-100', '2026-01-02T00:00:00.000')).toBeUndefined();
    expect(ledger.admit('id-250', undefined)).toBe(true);
  });
});
