const HAS_ZONE = /([zZ]|[+-]\d{2}(:?\d{2})?)$/;

/**
 * Milliseconds of a timestamp from either service. The gateway writes `YYYY-MM-DD HH:MM:SS` or ISO text and
 * the platform may write ISO text without a zone; both mean UTC (parsing them as local time would shift every
 * row by the machine's offset). NaN when unreadable.
 */
export function parseUtcTimestamp(text: unknown): number {
  if (typeof text !== 'string' || text.trim() === '') return Number.NaN;
  const iso = text.trim().replace(' ', 'T');
  return Date.parse(HAS_ZONE.test(iso) ? iso : `${iso}Z`);
}
