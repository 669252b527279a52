import type { PairBlocks } from './pair-blocks.js';

/** Entries of a new table (it doubles while more than half full). */
const INITIAL_SIZE = 64;

/**
 * The delivery ledger's id index: which slots of its `PairBlocks` hold an id, looked up by the id. A hash table
 * in typed arrays (open addressing, linear probing, deletion by backward shift), whose entries are slot numbers:
 * the ids themselves stay in the blocks' typed arrays, compared there code unit by code unit. So a stream whose
 * deliveries are looked up by id (`/sockets/events`, whose resends interleave with live frames; anything after a
 * REST catch-up) keeps no string per remembered event on the JavaScript heap: with a `Set` of the ids, the last
 * 10,000 events' ids survived V8's scavenges and its young generation grew to 64 MiB, RSS growth over 300,000
 * events 4.96× the bare client's (docs/performance.md).
 *
 * Each slot is in the table at most once; the same id in two slots is two entries (a lookup finds either).
 */
export class IdTable {
  readonly #blocks: PairBlocks;
  /** Slot + 1 per entry, 0 for an empty one. */
  #entries = new Int32Array(INITIAL_SIZE);
  #mask = INITIAL_SIZE - 1;
  #count = 0;
  /** Per slot: the hash of its id, and whether it is in the table. */
  #hashes = new Int32Array(0);
  #present = new Uint8Array(0);
  /** The last id hashed and its hash: `admit` looks an id up, then adds it. */
  #lastId: string | undefined;
  #lastHash = 0;

  constructor(blocks: PairBlocks) {
    this.#blocks = blocks;
  }

  /** True when a slot holds `id`. */
  has(id: string): boolean {
    return this.slotOf(id) !== -1;
  }

  /** A slot holding `id`, or -1. */
  slotOf(id: string): number {
    const hash = this.#hash(id);
    const entries = this.#entries;
    const mask = this.#mask;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const entry = entries[i]!;
      if (entry === 0) return -1;
      if (this.#hashes[entry - 1] === hash && this.#blocks.idEquals(entry - 1, id)) return entry - 1;
    }
  }

  /** Slot `slot` now holds `id` (call `remove(slot)` first if it held another). */
  add(slot: number, id: string): void {
    if (slot >= this.#present.length) this.#growSlots(slot + 1);
    if (this.#present[slot] === 1) this.remove(slot);
    if ((this.#count + 1) * 2 > this.#entries.length) this.#growTable();
    const hash = this.#hash(id);
    this.#hashes[slot] = hash;
    this.#present[slot] = 1;
    this.#insert(slot, hash);
    this.#count += 1;
  }

  /** Slot `slot` no longer holds its id (nothing when it held none). */
  remove(slot: number): void {
    if (slot >= this.#present.length || this.#present[slot] === 0) return;
    this.#present[slot] = 0;
    this.#count -= 1;
    const entries = this.#entries;
    const mask = this.#mask;
    let hole = this.#hashes[slot]! & mask;
    while (entries[hole] !== slot + 1) hole = (hole + 1) & mask;
    // Backward shift: an entry after the hole moves into it unless its home lies cyclically in (hole, at].
    for (let at = (hole + 1) & mask; entries[at] !== 0; at = (at + 1) & mask) {
      const entry = entries[at]!;
      const home = this.#hashes[entry - 1]! & mask;
      const stays = hole <= at ? hole < home && home <= at : hole < home || home <= at;
      if (stays) continue;
      entries[hole] = entry;
      hole = at;
    }
    entries[hole] = 0;
  }

  #insert(slot: number, hash: number): void {
    const entries = this.#entries;
    const mask = this.#mask;
    let i = hash & mask;
    while (entries[i] !== 0) i = (i + 1) & mask;
    entries[i] = slot + 1;
  }

  #growTable(): void {
    const old = this.#entries;
    this.#entries = new Int32Array(old.length * 2);
    this.#mask = this.#entries.length - 1;
    for (const entry of old) if (entry !== 0) this.#insert(entry - 1, this.#hashes[entry - 1]!);
  }

  #growSlots(needed: number): void {
    let size = Math.max(INITIAL_SIZE, this.#present.length);
    while (size < needed) size *= 2;
    const hashes = new Int32Array(size);
    hashes.set(this.#hashes);
    const present = new Uint8Array(size);
    present.set(this.#present);
    this.#hashes = hashes;
    this.#present = present;
  }

  /** FNV-1a over the UTF-16 code units. */
  #hash(id: string): number {
    if (id === this.#lastId) return this.#lastHash;
    let hash = 0x811c9dc5 | 0;
    for (let i = 0; i < id.length; i += 1) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
    this.#lastId = id;
    this.#lastHash = hash;
    return hash;
  }
}
