/**
 * OTLP exporter headers as written in `OTEL_EXPORTER_OTLP_*HEADERS`: comma-separated `key=value` pairs,
 * percent-encoded. Warnings name a pair by its position and key, never by its value (values are credentials).
 */

export interface ParsedHeaders {
  headers: Record<string, string>;
  warnings: string[];
}

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** Parses a headers variable. `variable` is only used to name the source in warnings. */
export function parseOtlpHeaders(raw: string, variable = 'headers'): ParsedHeaders {
  // No prototype: a header named `__proto__` stays an ordinary key.
  const headers: Record<string, string> = Object.create(null);
  const warnings: string[] = [];
  raw.split(',').forEach((pair, index) => {
    if (!pair.trim()) return;
    const at = pair.indexOf('=');
    const key = at > 0 ? decode(pair.slice(0, at).trim()) : undefined;
    const value = key && decode(pair.slice(at + 1).trim());
    if (value) headers[key as string] = value;
    else warnings.push(`${variable}: pair ${index + 1}${key ? ` (${key})` : ''} is not key=value; skipped`);
  });
  return { headers, warnings };
}

/**
 * The inverse of {@link parseOtlpHeaders}: percent-encodes what a parser would misread (`%`, `,`, `;`, quotes,
 * backslash, spaces and non-ASCII), so `Basic abc=` becomes `Basic%20abc=`. The output contains the secrets.
 */
export function formatOtlpHeaders(headers: Record<string, string>): string {
  const enc = (s: string) =>
    s.replace(/[^\x21-\x7e]|[%,;"'\\]/gu, (c) => (c === "'" ? '%27' : encodeURIComponent(c)));
  return Object.entries(headers)
    .map(([k, v]) => `${enc(k)}=${enc(v)}`)
    .join(',');
}
