/**
 * The delivery ledger's ring of (id, position timestamp) pairs while nothing looks ids up (every delivery came
 * with a `seq`, see `DeliveryLedger`): slots are written in order, 0, 1, 2, … up to the window and again from 0,
 * and read only all at once, rarely (a reconnect's `catchUpSince`, or the first id lookup).
 *
 * Why character codes in typed arrays: keeping the last 10,000 events' ids and timestamps as strings (even for
 * a short while, even as copies) made V8 grow its young generation to 64 MiB during a long stream, against
 * 8 MiB without them (docs/performance.md, "memory streaming"). Here they are copied, code unit by code unit,
 * into typed arrays, whose memory is outside the JavaScript heap, and turned back into strings when read.
 */
const BLOCK = 64;

/** One pass over a block: the characters of its pairs and where each slot's id and time end. */
interface Pass {
  chars: Uint16Array;
  length: number;
  /** Slot `o`'s id is `chars[idStart[o], idEnd[o])`; its time `chars[idEnd[o], timeEnd[o])`, or none at -1. */
  idStart: Int32Array;
  idEnd: Int32Array;
  timeEnd: Int32Array;
}

interface Block {
  /** The pass being written: slots `[0, written)`. */
  current: Pass;
  /** The last complete pass, for the slots the current one has not reached yet. */
  previous: Pass | undefined;
  written: number;
}

export class PairBlocks {
  readonly #window: number;
  readonly #blocks: Block[] = [];

  constructor(window: number) {
    this.#window = window;
  }

  /** Slots the blocks hold room for (whole blocks, never beyond the window). */
  get capacity(): number {
    return Math.min(this.#window, this.#blocks.length * BLOCK);
  }

  /** Writes slot `slot`, the one after the slot written last (or 0 after the last slot of the window). */
  set(slot: number, id: string, time: string | undefined): void {
    const index = Math.floor(slot / BLOCK);
    const offset = slot - index * BLOCK;
    let block = this.#blocks[index];
    if (block === undefined) {
      block = { current: newPass(this.#sizeOf(index)), previous: undefined, written: 0 };
      this.#blocks[index] = block;
    } else if (offset === 0) {
      // A new pass: the last one becomes the previous, and the one before it is reused.
      const spare = block.previous ?? newPass(this.#sizeOf(index));
      block.previous = block.current;
      block.current = spare;
      spare.length = 0;
      block.written = 0;
    }
    const pass = block.current;
    pass.idStart[offset] = pass.length;
    append(pass, id);
    pass.idEnd[offset] = pass.length;
    if (time === undefined) pass.timeEnd[offset] = -1;
    else {
      append(pass, time);
      pass.timeEnd[offset] = pass.length;
    }
    block.written = offset + 1;
  }

  /** True when slot `slot` (written before) holds the id `id`: compared in place, no string is made. */
  holds(slot: number, id: string): boolean {
    const index = Math.floor(slot / BLOCK);
    const offset = slot - index * BLOCK;
    const block = this.#blocks[index];
    const pass = block === undefined ? undefined : offset < block.written ? block.current : block.previous;
    if (pass === undefined) return false;
    const start = pass.idStart[offset]!;
    if (pass.idEnd[offset]! - start !== id.length) return false;
    const chars = pass.chars;
    for (let i = 0; i < id.length; i += 1) if (chars[start + i] !== id.charCodeAt(i)) return false;
    return true;
  }

  /** Every slot in order, `[0, capacity)`: its id and time, `undefined` for a slot never written. */
  read(): { ids: (string | undefined)[]; times: (string | undefined)[] } {
    const ids: (string | undefined)[] = [];
    const times: (string | undefined)[] = [];
    this.#blocks.forEach((block, index) => {
      for (let offset = 0; offset < this.#sizeOf(index); offset += 1) {
        const pass = offset < block.written ? block.current : block.previous;
        if (pass === undefined) {
          ids.push(undefined);
          times.push(undefined);
          continue;
        }
        const idEnd = pass.idEnd[offset]!;
        const timeEnd = pass.timeEnd[offset]!;
        ids.push(text(pass.chars, pass.idStart[offset]!, idEnd));
        times.push(timeEnd < 0 ? undefined : text(pass.chars, idEnd, timeEnd));
      }
    });
    return { ids, times };
  }

  /** Slots of block `index`: 64, or what is left of the window for the last one. */
  #sizeOf(index: number): number {
    return Math.min(BLOCK, this.#window - index * BLOCK);
  }
}

function newPass(size: number): Pass {
  return {
    // Room for a UUID and a timestamp with microseconds per slot; it doubles when ids are longer.
    chars: new Uint16Array(size * 64),
    length: 0,
    idStart: new Int32Array(size),
    idEnd: new Int32Array(size),
    timeEnd: new Int32Array(size),
  };
}

function append(pass: Pass, value: string): void {
  const end = pass.length + value.length;
  if (end > pass.chars.length) {
    const grown = new Uint16Array(Math.max(end, pass.chars.length * 2));
    grown.set(pass.chars.subarray(0, pass.length));
    pass.chars = grown;
  }
  const chars = pass.chars;
  for (let i = 0, at = pass.length; i < value.length; i += 1, at += 1) chars[at] = value.charCodeAt(i);
  pass.length = end;
}

/** The string of `chars[start, end)`, in pieces small enough for `String.fromCharCode`'s argument list. */
function text(chars: Uint16Array, start: number, end: number): string {
  let out = '';
  for (let at = start; at < end; at += 4096)
    out += String.fromCharCode(...chars.subarray(at, Math.min(end, at + 4096)));
  return out;
}
