/**
 * The delivery ledger keeps ids and timestamps in typed arrays while nothing looks ids up (src/agent-server/live/
 * pair-blocks.ts). It must answer exactly as the plain ring it replaces: checked against a ledger that builds
 * its id index (and so the plain ring) before the first event, over random windows, timestamps (missing,
 * repeated, going back) and points where the compact one is first asked for an id.
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
          // Some ids are long and not ASCII (the character buffer grows; UTF-16 code units are kept as they are).
          const id = i % 5 === 0 ? `id${i}-${'é😀'.repeat(i % 90)}` : `id${i}`;
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
        }
      }),
      { numRuns: 300, seed: 5 },
    );
  });
});

describe('DeliveryLedger with its pairs in blocks', () => {
  // Few distinct timestamps, so that equal and earlier ones (a clock set back) occur; some missing.
  const step = fc.option(fc.integer({ min: 0, max: 30 }), { nil: undefined });

  it('answers isOld and catchUpSince as the plain ring does, before and after its first id lookup', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.array(step, { maxLength: 600 }),
        fc.nat(),
        (window, steps, askAt) => {
          const compact = new DeliveryLedger(window);
          const plain = new DeliveryLedger(window);
          plain.isOld('never-delivered', undefined); // builds the index: the plain ring from the start
          const firstLookup = steps.length === 0 ? 0 : askAt % steps.length;
          steps.forEach((time, i) => {
            const id = `e${i}`;
            const timestamp =
              time === undefined ? undefined : `2026-01-01T00:00:${String(time).padStart(2, '0')}.000`;
            // The session socket's path: admitSequenced records without looking the id up.
            expect(compact.admitSequenced(id, timestamp)).toBe(true);
            plain.record(id, timestamp);
            expect(compact.catchUpSince()).toBe(plain.catchUpSince());
            expect(compact.delivered).toBe(plain.delivered);
            if (i >= firstLookup) {
              // From here on the compact ledger has its index too (its blocks were read into the ring).
              for (const probe of [`e${i}`, `e${Math.max(0, i - window)}`, `e${Math.max(0, i - window - 1)}`])
                expect(compact.isOld(probe, undefined, false), probe).toBe(
                  plain.isOld(probe, undefined, false),
                );
            }
          });
          expect(compact.position()).toEqual(plain.position());
          expect(compact.capacity).toBeLessThanOrEqual(window);
        },
      ),
      { numRuns: 200, seed: 11 },
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
