/**
 * The delivery ledger's ring of (id, position timestamp) pairs while nothing looks ids up (every delivery came
 * with a `seq`, see `DeliveryLedger`): slots are written in order, 0, 1, 2, … up to the window and again from 0,
 * and read only all at once, rarely (a reconnect's `catchUpSince`, or the first id lookup).
 *
 * Why character codes in typed arrays: keeping the last 10,000 events' ids and timestamps as strings (even for
 * a short while, even as copies, even joined 64 to a string) made V8 grow its young generation to 64 MiB during
 * a long stream, against 8 MiB without them (docs/performance.md, "memory streaming"): they survive its
 * scavenges. Here they are copied, code unit by code unit, into typed arrays, whose memory is outside the
 * JavaScript heap, and turned back into strings when read.
 *
 * Cost: this runs for every event of a session stream. The pairs of the block being written are kept as they
 * came (at most 64, for well under a millisecond of a stream: too short to survive a scavenge) and copied
 * when the block is full, in one loop over the block, into the block's one pass (the last complete one: the
 * pairs a block held before are all replaced at once).
 */
const BLOCK = 64;

/** The last complete pass over a block: the characters of its pairs and where each slot's id and time end. */
interface Pass {
  chars: Uint16Array;
  /** Slot `o`'s id is `chars[idStart[o], idEnd[o])`; its time `chars[idEnd[o], timeEnd[o])`, or none at -1. */
  idStart: Int32Array;
  idEnd: Int32Array;
  timeEnd: Int32Array;
}

export class PairBlocks {
  readonly #window: number;
  /** Each block's last complete pass (`undefined` until the block was written through once). */
  readonly #passes: (Pass | undefined)[] = [];
  /** Blocks written to so far. */
  #blockCount = 0;
  /** The block being written (-1: none) and its pairs so far, `#ids[0, #written)` and `#times[0, #written)`. */
  #writing = -1;
  #written = 0;
  readonly #ids: (string | undefined)[] = [];
  readonly #times: (string | undefined)[] = [];

  constructor(window: number) {
    this.#window = window;
  }

  /** Slots the blocks hold room for (whole blocks, never beyond the window). */
  get capacity(): number {
    return Math.min(this.#window, this.#blockCount * BLOCK);
  }

  /** Writes slot `slot`, the one after the slot written last (or 0 after the last slot of the window). */
  set(slot: number, id: string, time: string | undefined): void {
    // BLOCK is 64: `slot >>> 6` is Math.floor(slot / BLOCK) (a window is far below 2^31 slots).
    const index = slot >>> 6;
    const offset = slot & (BLOCK - 1);
    if (index !== this.#writing) {
      this.#writing = index;
      if (index >= this.#blockCount) this.#blockCount = index + 1;
    }
    this.#ids[offset] = id;
    this.#times[offset] = time;
    this.#written = offset + 1;
    if (offset + 1 === this.#sizeOf(index)) this.#seal(index);
  }

  /** Block `index` is written through: its pairs are copied into its pass, and no longer kept as strings. */
  #seal(index: number): void {
    const size = this.#written;
    const ids = this.#ids;
    const times = this.#times;
    let total = 0;
    for (let offset = 0; offset < size; offset += 1)
      total += (ids[offset] as string).length + (times[offset]?.length ?? 0);
    let pass = this.#passes[index];
    if (pass === undefined) {
      pass = {
        // Room for a UUID and a timestamp with microseconds per slot; more when ids are longer.
        chars: new Uint16Array(Math.max(total, size * 64)),
        idStart: new Int32Array(size),
        idEnd: new Int32Array(size),
        timeEnd: new Int32Array(size),
      };
      this.#passes[index] = pass;
    } else if (pass.chars.length < total)
      pass.chars = new Uint16Array(Math.max(total, pass.chars.length * 2));
    const chars = pass.chars;
    let at = 0;
    for (let offset = 0; offset < size; offset += 1) {
      const id = ids[offset] as string;
      pass.idStart[offset] = at;
      for (let i = 0; i < id.length; i += 1) chars[at++] = id.charCodeAt(i);
      pass.idEnd[offset] = at;
      const time = times[offset];
      if (time === undefined) pass.timeEnd[offset] = -1;
      else {
        for (let i = 0; i < time.length; i += 1) chars[at++] = time.charCodeAt(i);
        pass.timeEnd[offset] = at;
      }
      ids[offset] = undefined;
      times[offset] = undefined;
    }
    this.#writing = -1;
    this.#written = 0;
  }

  /** The id of slot `slot`, `undefined` for a slot never written. */
  idAt(slot: number): string | undefined {
    const index = slot >>> 6;
    const offset = slot & (BLOCK - 1);
    if (index === this.#writing && offset < this.#written) return this.#ids[offset];
    const pass = this.#passes[index];
    return pass === undefined ? undefined : text(pass.chars, pass.idStart[offset]!, pass.idEnd[offset]!);
  }

  /** True when slot `slot` holds the id `id` (compared code unit by code unit, no string made). */
  idEquals(slot: number, id: string): boolean {
    const index = slot >>> 6;
    const offset = slot & (BLOCK - 1);
    if (index === this.#writing && offset < this.#written) return this.#ids[offset] === id;
    const pass = this.#passes[index];
    if (pass === undefined) return false;
    const start = pass.idStart[offset]!;
    if (pass.idEnd[offset]! - start !== id.length) return false;
    const chars = pass.chars;
    for (let i = 0; i < id.length; i += 1) if (chars[start + i] !== id.charCodeAt(i)) return false;
    return true;
  }

  /** The time of slot `slot`, `undefined` for a slot never written or written without one. */
  timeAt(slot: number): string | undefined {
    const index = slot >>> 6;
    const offset = slot & (BLOCK - 1);
    if (index === this.#writing && offset < this.#written) return this.#times[offset];
    const pass = this.#passes[index];
    const timeEnd = pass?.timeEnd[offset] ?? -1;
    return pass === undefined || timeEnd < 0 ? undefined : text(pass.chars, pass.idEnd[offset]!, timeEnd);
  }

  /** Every slot in order, `[0, capacity)`: its id and time, `undefined` for a slot never written. */
  read(): { ids: (string | undefined)[]; times: (string | undefined)[] } {
    const ids: (string | undefined)[] = [];
    const times: (string | undefined)[] = [];
    for (let index = 0; index < this.#blockCount; index += 1) {
      const pass = this.#passes[index];
      for (let offset = 0; offset < this.#sizeOf(index); offset += 1) {
        if (index === this.#writing && offset < this.#written) {
          ids.push(this.#ids[offset]);
          times.push(this.#times[offset]);
        } else if (pass === undefined) {
          ids.push(undefined);
          times.push(undefined);
        } else {
          const idEnd = pass.idEnd[offset]!;
          const timeEnd = pass.timeEnd[offset]!;
          ids.push(text(pass.chars, pass.idStart[offset]!, idEnd));
          times.push(timeEnd < 0 ? undefined : text(pass.chars, idEnd, timeEnd));
        }
      }
    }
    return { ids, times };
  }

  /** Slots of block `index`: 64, or what is left of the window for the last one. */
  #sizeOf(index: number): number {
    return Math.min(BLOCK, this.#window - index * BLOCK);
  }
}

/** The string of `chars[start, end)`, in pieces small enough for `String.fromCharCode`'s argument list. */
function text(chars: Uint16Array, start: number, end: number): string {
  let out = '';
  for (let at = start; at < end; at += 4096)
    out += String.fromCharCode(...chars.subarray(at, Math.min(end, at + 4096)));
  return out;
}
