/**
 * A 32-bit hash of each id the delivery ledger keeps in `PairBlocks` (the ledger's slots, while every delivery
 * came with a `seq` and nothing looks ids up), in a hash table of typed arrays: "was this id delivered?" without
 * the id index (a `Set` of strings, which the ledger avoids on such streams for memory, see `DeliveryLedger`).
 * A slot whose hash matches is compared in place (`PairBlocks.holds`): two ids of the window sharing a hash
 * (about once in 400,000 events with a full window of 10,000) cost one comparison, nothing more.
 *
 * Memory: 4 bytes per slot and 8 to 16 per slot in the table (open addressing, linear probing, at most half
 * full), outside the JavaScript heap, grown as slots are written.
 */
/** What tells whether a slot holds an id (`PairBlocks`). */
export interface Slots {
  holds(slot: number, id: string): boolean;
}

export class IdHashes {
  /** The hash of slot `s`'s id; slots `[0, #filled)` are in use (the ledger writes them in order, then wraps). */
  #hashes = new Int32Array(64);
  #filled = 0;
  /** Slot + 1 of each entry (0: empty), at `hash & #mask` or the first free place after it. */
  #table = new Int32Array(128);
  #mask = 127;
  #askedId: string | undefined;
  #askedHash = 0;

  /** True when a slot with `id`'s hash holds `id` (`slots` tells, asked only on a hash match). */
  has(id: string, slots: Slots): boolean {
    const hash = hashOf(id);
    // Kept for `set`, which usually follows with the same id: each id is hashed once.
    this.#askedId = id;
    this.#askedHash = hash;
    const table = this.#table;
    const mask = this.#mask;
    for (let at = hash & mask; table[at] !== 0; at = (at + 1) & mask) {
      const slot = table[at]! - 1;
      if (this.#hashes[slot] === hash && slots.holds(slot, id)) return true;
    }
    return false;
  }

  /** Slot `slot` now holds `id` (instead of what it held before, once the ledger wraps). */
  set(slot: number, id: string): void {
    if (slot < this.#filled) this.#remove(slot);
    else {
      this.#filled = slot + 1;
      if (slot >= this.#hashes.length) {
        const hashes = new Int32Array(this.#hashes.length * 2);
        hashes.set(this.#hashes);
        this.#hashes = hashes;
      }
      if (this.#filled * 2 > this.#table.length) this.#rehash(this.#table.length * 2);
    }
    const hash = id === this.#askedId ? this.#askedHash : hashOf(id);
    this.#hashes[slot] = hash;
    this.#insert(slot, hash);
  }

  #insert(slot: number, hash: number): void {
    const table = this.#table;
    const mask = this.#mask;
    let at = hash & mask;
    while (table[at] !== 0) at = (at + 1) & mask;
    table[at] = slot + 1;
  }

  /** Takes the slot's entry out, moving later entries of its probe run back (no tombstones). */
  #remove(slot: number): void {
    const table = this.#table;
    const mask = this.#mask;
    let hole = this.#hashes[slot]! & mask;
    while (table[hole] !== slot + 1) hole = (hole + 1) & mask;
    table[hole] = 0;
    for (let at = (hole + 1) & mask; table[at] !== 0; at = (at + 1) & mask) {
      const home = this.#hashes[table[at]! - 1]! & mask;
      // The entry at `at` may fill the hole unless its home lies cyclically in (hole, at].
      const stays = hole <= at ? home > hole && home <= at : home > hole || home <= at;
      if (stays) continue;
      table[hole] = table[at]!;
      table[at] = 0;
      hole = at;
    }
  }

  #rehash(size: number): void {
    this.#table = new Int32Array(size);
    this.#mask = size - 1;
    for (let slot = 0; slot < this.#filled - 1; slot += 1) this.#insert(slot, this.#hashes[slot]!);
  }
}

/** 32-bit FNV-1a of the id's code units. */
function hashOf(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i += 1) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  return hash;
}
