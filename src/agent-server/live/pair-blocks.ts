/**
 * The delivery ledger's ring of (id, position timestamp) pairs: slots are written in order, 0, 1, 2, … up to
 * the window and again from 0; an id is read back when its hash matches one looked up (`IdTable`), a time for a
 * reused id's report, and all of them, rarely, for a reconnect's `catchUpSince`.
 *
 * Why bytes in typed arrays: keeping the last 10,000 events' ids and timestamps as strings (even for a short
 * while, even as copies, even joined 64 to a string) made V8 grow its young generation to 64 MiB during a long
 * stream, against 8 MiB without them (docs/performance.md, "memory streaming"): they survive its scavenges.
 * Here they are encoded as UTF-8 into typed arrays, whose memory is outside the JavaScript heap, and decoded
 * back into strings when read.
 *
 * Cost: this runs for every event of a stream. The pairs of the block being written are kept as they came (at
 * most 64, for well under a millisecond of a stream: too short to survive a scavenge) and encoded when the
 * block is full, joined into one string and handed to `TextEncoder.encodeInto` in one call (native code, where
 * a loop copied code units: about 4% of the stream's speed, docs/performance.md "Against the floor"), into the
 * block's one pass (the last complete one: the pairs a block held before are all replaced at once).
 */
const BLOCK = 64;

const ENCODER = new TextEncoder();
const DECODER = new TextDecoder();

/** The last complete pass over a block: the UTF-8 bytes of its pairs and where each slot's id and time end. */
interface Pass {
  bytes: Uint8Array;
  /** Each piece is stored as its JSON text (a block with text that is not ASCII, see `#sealEach`). */
  json: boolean;
  /** Slot `o`'s id is `bytes[idStart[o], idEnd[o])`; its time `bytes[idEnd[o], timeEnd[o])`, or none at -1. */
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
  /**
   * The block being written (-1: none) and its pairs so far: slot `o`'s id at `#pairs[2o]`, its time at
   * `#pairs[2o + 1]`, for `o` in `[0, #written)` (one array, so that `join` makes the block's text at once).
   */
  #writing = -1;
  #written = 0;
  readonly #pairs: (string | undefined)[] = [];

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
    this.#pairs[2 * offset] = id;
    this.#pairs[2 * offset + 1] = time;
    this.#written = offset + 1;
    if (offset + 1 === this.#sizeOf(index)) this.#seal(index);
  }

  /** Block `index` is written through: its pairs are encoded into its pass, and no longer kept as strings. */
  #seal(index: number): void {
    const size = this.#written;
    const pairs = this.#pairs;
    // The block's text (a missing time joins as '').
    const joined = pairs.join('');
    let pass = this.#passes[index];
    if (pass === undefined) {
      pass = {
        // Room for a UUID and a timestamp with microseconds per slot; more when ids are longer.
        bytes: new Uint8Array(Math.max(joined.length, size * 64)),
        idStart: new Int32Array(size),
        idEnd: new Int32Array(size),
        timeEnd: new Int32Array(size),
        json: false,
      };
      this.#passes[index] = pass;
    } else if (pass.bytes.length < joined.length)
      pass.bytes = new Uint8Array(Math.max(joined.length, pass.bytes.length * 2));
    const { read, written } = ENCODER.encodeInto(joined, pass.bytes);
    // ASCII throughout (ids and timestamps as servers send them): each code unit is one byte.
    if (read === joined.length && written === joined.length) {
      pass.json = false;
      let at = 0;
      for (let offset = 0; offset < size; offset += 1) {
        pass.idStart[offset] = at;
        at += (pairs[2 * offset] as string).length;
        pass.idEnd[offset] = at;
        const time = pairs[2 * offset + 1];
        if (time === undefined) pass.timeEnd[offset] = -1;
        else pass.timeEnd[offset] = at += time.length;
      }
    } else this.#sealEach(pass, size, joined.length);
    pairs.fill(undefined, 0, 2 * size);
    this.#writing = -1;
    this.#written = 0;
  }

  /**
   * Something is not ASCII: each id and time encoded on its own, as its JSON text, so that a lone surrogate
   * (which UTF-8 cannot carry) comes back as it was. JSON text of n code units takes at most 6n + 2 bytes.
   */
  #sealEach(pass: Pass, size: number, length: number): void {
    pass.json = true;
    if (pass.bytes.length < length * 6 + size * 4) pass.bytes = new Uint8Array(length * 6 + size * 4);
    const bytes = pass.bytes;
    let at = 0;
    for (let offset = 0; offset < size; offset += 1) {
      pass.idStart[offset] = at;
      at += ENCODER.encodeInto(JSON.stringify(this.#pairs[2 * offset]), bytes.subarray(at)).written;
      pass.idEnd[offset] = at;
      const time = this.#pairs[2 * offset + 1];
      if (time === undefined) pass.timeEnd[offset] = -1;
      else pass.timeEnd[offset] = at += ENCODER.encodeInto(JSON.stringify(time), bytes.subarray(at)).written;
    }
  }

  /** The id of slot `slot`, `undefined` for a slot never written. */
  idAt(slot: number): string | undefined {
    const index = slot >>> 6;
    const offset = slot & (BLOCK - 1);
    if (index === this.#writing && offset < this.#written) return this.#pairs[2 * offset];
    const pass = this.#passes[index];
    return pass === undefined ? undefined : text(pass, pass.idStart[offset]!, pass.idEnd[offset]!);
  }

  /**
   * True when slot `slot` holds the id `id`. The id table asks only when the hashes agree: a duplicate, or
   * (rarely) a collision, so decoding the stored id costs nothing on a stream of new events.
   */
  idEquals(slot: number, id: string): boolean {
    return this.idAt(slot) === id;
  }

  /** The time of slot `slot`, `undefined` for a slot never written or written without one. */
  timeAt(slot: number): string | undefined {
    const index = slot >>> 6;
    const offset = slot & (BLOCK - 1);
    if (index === this.#writing && offset < this.#written) return this.#pairs[2 * offset + 1];
    const pass = this.#passes[index];
    const timeEnd = pass?.timeEnd[offset] ?? -1;
    return pass === undefined || timeEnd < 0 ? undefined : text(pass, pass.idEnd[offset]!, timeEnd);
  }

  /** Every slot in order, `[0, capacity)`: its id and time, `undefined` for a slot never written. */
  read(): { ids: (string | undefined)[]; times: (string | undefined)[] } {
    const ids: (string | undefined)[] = [];
    const times: (string | undefined)[] = [];
    for (let index = 0; index < this.#blockCount; index += 1) {
      const pass = this.#passes[index];
      for (let offset = 0; offset < this.#sizeOf(index); offset += 1) {
        if (index === this.#writing && offset < this.#written) {
          ids.push(this.#pairs[2 * offset]);
          times.push(this.#pairs[2 * offset + 1]);
        } else if (pass === undefined) {
          ids.push(undefined);
          times.push(undefined);
        } else {
          const idEnd = pass.idEnd[offset]!;
          const timeEnd = pass.timeEnd[offset]!;
          ids.push(text(pass, pass.idStart[offset]!, idEnd));
          times.push(timeEnd < 0 ? undefined : text(pass, idEnd, timeEnd));
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

/** The string stored in `pass.bytes[start, end)`. */
function text(pass: Pass, start: number, end: number): string {
  const stored = DECODER.decode(pass.bytes.subarray(start, end));
  return pass.json ? (JSON.parse(stored) as string) : stored;
}
