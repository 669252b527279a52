/**
 * A human message from any service's error body. The shapes, per `notes`:
 * agent server `{detail: string}` / `{detail: [{loc, msg, type}]}` / `{detail, exception}` on 500;
 * gateway `{error: {message, type, param, code}}`; runtime API `{error: string}` or `{detail}`.
 */
export function errorMessageFromBody(body: unknown, fallback: string): string {
  if (typeof body === 'string') return body.trim() === '' ? fallback : truncate(body.trim());
  if (typeof body !== 'object' || body === null) return fallback;
  const record = body as Record<string, unknown>;
  const { detail, error, message, exception } = record;
  if (typeof detail === 'string') {
    return typeof exception === 'string' ? `${detail}: ${truncate(exception)}` : truncate(detail);
  }
  if (Array.isArray(detail)) {
    const parts = detail.map((entry) => {
      const item = entry as { loc?: unknown; msg?: unknown };
      const loc = Array.isArray(item.loc) ? item.loc.join('.') : '';
      return loc ? `${loc}: ${String(item.msg)}` : String(item.msg);
    });
    return truncate(parts.join('; '));
  }
  if (typeof error === 'string') return truncate(error);
  if (typeof error === 'object' && error !== null) {
    const inner = error as Record<string, unknown>;
    if (typeof inner.message === 'string') return truncate(inner.message);
  }
  if (typeof message === 'string') return truncate(message);
  return fallback;
}

function truncate(text: string): string {
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}
