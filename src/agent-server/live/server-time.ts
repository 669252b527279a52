const PARTS = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(.*)$/;

/**
 * A server timestamp moved back by `ms` milliseconds, in the server's own form (naive or with its zone
 * suffix, microseconds). Only this machine's elapsed time is used, never its clock: the server's time of an
 * instant before a snapshot is the snapshot's timestamp minus the time elapsed here since that instant.
 * `undefined` when the timestamp is not in ISO form.
 */
export function serverTimeBefore(timestamp: string, ms: number): string | undefined {
  const parts = PARTS.exec(timestamp);
  if (parts === null) return undefined;
  const [, second, fraction = '', zone = ''] = parts;
  const micros = Number(fraction.padEnd(6, '0').slice(0, 6));
  const base = Date.parse(`${second}Z`);
  if (Number.isNaN(base)) return undefined;
  const totalMicros = base * 1000 + micros - Math.ceil(ms * 1000);
  const date = new Date(Math.floor(totalMicros / 1000));
  const restMicros = ((totalMicros % 1_000_000) + 1_000_000) % 1_000_000;
  return `${date.toISOString().slice(0, 19)}.${String(restMicros).padStart(6, '0')}${zone}`;
}
