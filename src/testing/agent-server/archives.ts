/**
 * Real archive bytes for the file doubles, in plain JS (no dependency): a zip (stored, no compression) like
 * the trajectory download, and a tar.gz like the folder archive, so that a test can open what it downloads.
 */
const encoder = new TextEncoder();

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** A zip archive of `entries` (name → bytes), stored uncompressed. */
export function zip(entries: ReadonlyMap<string, Uint8Array>): Uint8Array {
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const [name, data] of entries) {
    const nameBytes = encoder.encode(name);
    const crc = crc32(data);
    const local = new Uint8Array(30 + nameBytes.length);
    const l = new DataView(local.buffer);
    l.setUint32(0, 0x04034b50, true);
    l.setUint16(4, 20, true);
    l.setUint32(14, crc, true);
    l.setUint32(18, data.length, true);
    l.setUint32(22, data.length, true);
    l.setUint16(26, nameBytes.length, true);
    local.set(nameBytes, 30);
    const central = new Uint8Array(46 + nameBytes.length);
    const c = new DataView(central.buffer);
    c.setUint32(0, 0x02014b50, true);
    c.setUint16(4, 20, true);
    c.setUint16(6, 20, true);
    c.setUint32(16, crc, true);
    c.setUint32(20, data.length, true);
    c.setUint32(24, data.length, true);
    c.setUint16(28, nameBytes.length, true);
    c.setUint32(42, offset, true);
    central.set(nameBytes, 46);
    locals.push(local, data);
    centrals.push(central);
    offset += local.length + data.length;
  }
  const centralSize = centrals.reduce((sum, part) => sum + part.length, 0);
  const end = new Uint8Array(22);
  const e = new DataView(end.buffer);
  e.setUint32(0, 0x06054b50, true);
  e.setUint16(8, entries.size, true);
  e.setUint16(10, entries.size, true);
  e.setUint32(12, centralSize, true);
  e.setUint32(16, offset, true);
  return concat([...locals, ...centrals, end]);
}

/** A ustar archive of `entries` (path → bytes). */
export function tar(entries: ReadonlyMap<string, Uint8Array>): Uint8Array {
  const parts: Uint8Array[] = [];
  const field = (header: Uint8Array, at: number, length: number, value: string) =>
    header.set(encoder.encode(value).subarray(0, length), at);
  for (const [name, data] of entries) {
    const header = new Uint8Array(512);
    field(header, 0, 100, name);
    field(header, 100, 8, '0000644\0');
    field(header, 108, 8, '0001750\0');
    field(header, 116, 8, '0001750\0');
    field(header, 124, 12, `${data.length.toString(8).padStart(11, '0')}\0`);
    field(
      header,
      136,
      12,
      `${Math.floor(Date.now() / 1000)
        .toString(8)
        .padStart(11, '0')}\0`,
    );
    field(header, 148, 8, '        ');
    field(header, 156, 1, '0');
    field(header, 257, 8, 'ustar\u000000');
    const sum = header.reduce((total, byte) => total + byte, 0);
    field(header, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
    parts.push(header, data, new Uint8Array((512 - (data.length % 512)) % 512));
  }
  parts.push(new Uint8Array(1024));
  return concat(parts);
}

/** gzip through the runtime's CompressionStream (Node 18+, browsers). */
export async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
