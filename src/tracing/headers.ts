/**
 * OTLP exporter headers as written in `OTEL_EXPORTER_OTLP_*HEADERS`: comma-separated `key=value` pairs. Parsed
 * as the platform's tracing SDK parses them (docs/tracing.md, "Headers"): the first `=` splits, the name is
 * trimmed but not decoded, the value is trimmed and percent-decoded leniently (a bad `%` stays), empty names and
 * values are kept, the last duplicate wins, a pair without `=` is dropped. Warnings name a pair by its position
 * only, never by its name or value (values are credentials, and a mistyped pair's name can be one).
 */

/** An HTTP header name (RFC 9110 token). Other names are never shown: one can be a credential. */
export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** A gRPC metadata name: the platform's SDK sends header names as given, and gRPC refuses upper case. */
export const GRPC_NAME = /^[a-z0-9_.-]+$/;

/** How warnings, errors and safe views name a header: by its name if that is a header name, else by position. */
export const headerLabel = (name: string, index: number) => (HEADER_NAME.test(name) ? name : `#${index + 1}`);

export interface ParsedHeaders {
  headers: Record<string, string>;
  warnings: string[];
}

/** Percent-decodes runs of `%XX` as UTF-8 (invalid bytes become U+FFFD); anything else is kept. */
function unquote(text: string): string {
  return text.replace(/(%[0-9a-f]{2})+/gi, (run) => {
    const bytes = Uint8Array.from(run.slice(1).split('%'), (hex) => Number.parseInt(hex, 16));
    return new TextDecoder().decode(bytes);
  });
}

/** Parses a headers variable. `variable` is only used to name the source in warnings. */
export function parseOtlpHeaders(raw: string, variable = 'headers'): ParsedHeaders {
  // No prototype: a header named `__proto__` stays an ordinary key.
  const headers: Record<string, string> = Object.create(null);
  const warnings: string[] = [];
  raw.split(',').forEach((pair, index) => {
    const at = pair.indexOf('=');
    const pairAt = `${variable}: pair ${index + 1}`;
    if (at < 0) {
      if (pair.trim()) warnings.push(`${pairAt} has no '=': dropped`);
      return;
    }
    const key = pair.slice(0, at).trim();
    // Names are never shown: with `Authorization: Basic …=` (":" for "="), the name is the credential.
    if (!key) warnings.push(`${pairAt} has an empty name: an HTTP export fails`);
    else if (!HEADER_NAME.test(key))
      warnings.push(`${pairAt}: the name is not a header name: an HTTP export fails`);
    if (/%[0-9a-f]{2}/i.test(key)) warnings.push(`${pairAt}: the name is not percent-decoded`);
    headers[key] = unquote(pair.slice(at + 1).trim());
  });
  return { headers, warnings };
}

/**
 * The inverse of {@link parseOtlpHeaders} for valid header names: values are percent-encoded where a parser
 * would misread them (`%`, `,`, `;`, quotes, backslash, spaces and non-ASCII), so `Basic abc=` becomes
 * `Basic%20abc=`; names are written as they are (the platform's tracing SDK does not decode them). The output
 * contains the secrets.
 */
export function formatOtlpHeaders(headers: Record<string, string>): string {
  const enc = (s: string) =>
    s.replace(/[^\x21-\x7e]|[%,;"'\\]/gu, (c) => (c === "'" ? '%27' : encodeURIComponent(c)));
  return Object.entries(headers)
    .map(([k, v]) => `${k}=${enc(v)}`)
    .join(',');
}
