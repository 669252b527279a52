/**
 * Redaction of secrets from anything the SDK shows: error messages and properties, log lines, inspect and
 * toJSON output. Known secrets (the credentials given to a client) are replaced wherever they appear; on top
 * of that, credential headers, credential query parameters, secret-looking JSON keys and JWTs are masked.
 */

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

// Three base64url segments starting with a JSON header: a JWT.
const JWT = /eyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*/g;
const BEARER = /\b(Bearer|Basic)\s+[\w\-.~+/=]{6,}/gi;

/** Replaces every known secret, JWT and bearer value in `text`. */
export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) {
    // Short strings would redact ordinary words; credentials are never this short.
    if (secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  return out.replace(JWT, REDACTED).replace(BEARER, (_m, scheme: string) => `${scheme} ${REDACTED}`);
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

/** A deep copy of a JSON-like value with secret keys masked and secrets removed from strings. */
export function redactValue(value: unknown, secrets: readonly string[] = [], depth = 0): unknown {
  if (typeof value === 'string') return redactText(value, secrets);
  if (typeof value !== 'object' || value === null || depth > 20) return value;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] =
      SECRET_KEYS.test(key) && item !== null && item !== undefined && item !== ''
        ? REDACTED
        : redactValue(item, secrets, depth + 1);
  }
  return out;
}
