/**
 * Redaction of secrets from anything the SDK shows: error messages and properties, log lines, inspect and
 * toJSON output. Known secrets (the credentials given to a client) are replaced wherever they appear; on top
 * of that, credential headers, credential query parameters, secret-looking JSON keys and JWTs are masked.
 */

import { MAX_SHOWN_DEPTH, TOO_DEEP } from './error-base.js';

export const REDACTED = '[redacted]';

const SECRET_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'x-session-api-key',
  'cookie',
  'set-cookie',
]);

/** JSON keys whose values are always secret, in request or response bodies. */
const SECRET_KEYS =
  /^(password|admin_password|token|access_token|refresh_token|api_key|apikey|key_value|session_api_key|master_key|secret|client_secret|hash|encrypted_content|authorization)$/i;

const SECRET_QUERY_PARAMS = /^(session_api_key|api_key|apikey|token|access_token|password|key)$/i;

// Runs of base64url characters and dots: the only text a JWT can lie in. Matching a run never backtracks
// (every prefix of a run is a run), so the scan is linear; the JWT shape is then checked per run.
const TOKEN_RUN = /[\w.-]+/g;
// Linear too: one position per `Bearer`/`Basic`, and the whitespace run and the value class never overlap.
const BEARER = /\b(Bearer|Basic)\s+[\w\-.~+/=]{6,}/gi;

/**
 * Replaces every known secret (also in its JSON-escaped and URL-encoded forms), JWT and bearer value in
 * `text`. Linear in the length of `text` for any input (docs/errors-and-retries.md, "Redaction").
 */
export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) {
    // Short strings would redact ordinary words; credentials are never this short.
    if (secret.length < 4) continue;
    for (const form of secretForms(secret)) {
      if (out.includes(form)) out = out.split(form).join(REDACTED);
    }
  }
  return out
    .replace(TOKEN_RUN, (run) => (run.includes('eyJ') ? maskJwts(run) : run))
    .replace(BEARER, (_m, scheme: string) => `${scheme} ${REDACTED}`);
}

/** A secret as it appears raw, inside JSON text (escaped quotes, slashes, unicode) and in URLs. */
function secretForms(secret: string): string[] {
  const forms = new Set([secret]);
  const json = JSON.stringify(secret).slice(1, -1);
  forms.add(json);
  forms.add(json.replaceAll('/', '\\/'));
  // JSON writers that escape every non-ASCII character (Python's json.dumps default).
  forms.add(json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
  forms.add(encodeURIComponent(secret));
  forms.add(encodeURIComponent(secret).replaceAll('%20', '+'));
  return [...forms].filter((form) => form.length >= 4);
}

/**
 * Within a run of `[\w.-]`, masks what the JWT shape `eyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*` matches,
 * segment by segment (split on dots), so the work is linear in the run's length.
 */
function maskJwts(run: string): string {
  const segments = run.split('.');
  const out: string[] = [];
  let i = 0;
  while (i < segments.length) {
    const segment = segments[i] as string;
    const start = segment.indexOf('eyJ');
    // The header starts at the first `eyJ` (that leaves the longest rest), then 4+ characters, a dot, a
    // payload of 4+ characters, a dot and a signature (possibly empty).
    if (
      start >= 0 &&
      segment.length - start - 3 >= 4 &&
      (segments[i + 1]?.length ?? 0) >= 4 &&
      i + 2 < segments.length
    ) {
      out.push(`${segment.slice(0, start)}${REDACTED}`);
      i += 3;
    } else {
      out.push(segment);
      i += 1;
    }
  }
  return out.join('.');
}

export function isSecretHeader(name: string): boolean {
  return SECRET_HEADERS.has(name.toLowerCase());
}

export function redactHeaders(
  headers: Record<string, string>,
  secrets: readonly string[] = [],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = isSecretHeader(name) ? REDACTED : redactText(value, secrets);
  }
  return out;
}

/** The URL with credential query parameters masked and known secrets removed from the rest. */
export function redactUrl(url: string, secrets: readonly string[] = []): string {
  try {
    const parsed = new URL(url);
    for (const key of [...parsed.searchParams.keys()]) {
      if (SECRET_QUERY_PARAMS.test(key)) parsed.searchParams.set(key, 'REDACTED');
    }
    if (parsed.password) parsed.password = 'REDACTED';
    return redactText(parsed.toString().replaceAll('REDACTED', REDACTED), secrets);
  } catch {
    return redactText(url, secrets);
  }
}

/**
 * A deep copy of a JSON-like value with secret keys masked and secrets removed from strings. Values nested
 * deeper than `MAX_SHOWN_DEPTH` are cut to `TOO_DEEP`: nothing below is shown (so nothing unredacted), and
 * `JSON.stringify` or `util.inspect` of the copy cannot run out of stack, whatever a server sent. Keys are
 * copied as own properties: a `__proto__` key stays data and never sets the copy's prototype.
 */
export function redactValue(value: unknown, secrets: readonly string[] = [], depth = 0): unknown {
  if (typeof value === 'string') return redactText(value, secrets);
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_SHOWN_DEPTH) return TOO_DEEP;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const copy =
      SECRET_KEYS.test(key) && item !== null && item !== undefined && item !== ''
        ? REDACTED
        : redactValue(item, secrets, depth + 1);
    Object.defineProperty(out, key, { value: copy, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * Redacts, in place, the text an error carries (message, stack and its own string properties such as
 * `rawBody` or `closeReason`): for errors built from what a server sent over a socket, before anyone sees them.
 */
export function redactError<T>(error: T, secrets: readonly string[] = []): T {
  if (typeof error !== 'object' || error === null) return error;
  const record = error as Record<string, unknown>;
  for (const key of ['message', 'stack', ...Object.keys(record)]) {
    const value = record[key];
    if (typeof value !== 'string') continue;
    const redacted = redactText(value, secrets);
    if (redacted !== value)
      Object.defineProperty(error, key, { value: redacted, writable: true, configurable: true });
  }
  return error;
}
