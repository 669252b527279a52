/**
 * Redirects, decided by the SDK instead of `fetch`.
 *
 * `fetch` follows redirects to any origin and re-sends every header it does not know to be a credential
 * (`X-Session-API-Key`, `X-API-Key`), the body too on 307/308, and turns a POST answered with 301/302/303
 * into a GET that resolves. So every request goes out with `redirect: 'manual'` and this module decides:
 * a redirect within the same origin (scheme, host and port) is followed, at most `MAX_REDIRECTS` times,
 * keeping method and body; anything else is a `RedirectError` and nothing is sent to the new location
 * (docs/errors-and-retries.md, "Redirects").
 */

import { RedirectError, type RedirectRefusal } from './errors.js';
import { redactHeaders, redactUrl } from './redact.js';

/** Same-origin hops followed before giving up (browsers allow 20; a healthy service needs one or two). */
export const MAX_REDIRECTS = 5;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface RedirectContext {
  /** The request as shown in errors (redacted). */
  method: string;
  shownUrl: string;
  secrets: () => readonly string[];
}

/** A `fetch` that never lets the runtime follow a redirect, and follows same-origin ones itself. */
export function guardRedirects(fetchImpl: typeof fetch, context: RedirectContext): typeof fetch {
  return async (input, init) => {
    let request = new Request(input, { ...init, redirect: 'manual' });
    for (let hops = 0; ; hops++) {
      // A spare copy of the body, for a 307/308 that asks for the same request elsewhere on this origin.
      const spare = request.body ? request.clone() : request;
      const response = await fetchImpl(request, init);
      // Browsers hide a manual redirect: status 0, no Location. It cannot be judged, so it is refused.
      if (response.type === 'opaqueredirect') throw refuse(response, 'hidden', undefined, context);
      if (!REDIRECT_STATUSES.has(response.status)) return response;
      const location = response.headers.get('location');
      if (location === null) return response;
      let target: URL;
      try {
        target = new URL(location, request.url);
      } catch {
        throw refuse(response, 'invalid-location', location, context);
      }
      const from = new URL(request.url);
      if (from.protocol === 'https:' && target.protocol !== 'https:') {
        throw refuse(response, 'downgrade', target.href, context);
      }
      if (target.origin !== from.origin) throw refuse(response, 'cross-origin', target.href, context);
      const keepsMethod = response.status === 307 || response.status === 308;
      const method = request.method.toUpperCase();
      // 301/302/303 would turn a POST into a bodiless GET: the write would be lost and the call succeed.
      if (!keepsMethod && method !== 'GET' && method !== 'HEAD') {
        throw refuse(response, 'method-change', target.href, context);
      }
      if (hops + 1 > MAX_REDIRECTS) throw refuse(response, 'too-many', target.href, context);
      void response.body?.cancel().catch(() => undefined);
      request = new Request(target, {
        method: spare.method,
        headers: spare.headers,
        body: spare.body,
        signal: spare.signal,
        redirect: 'manual',
        // Node needs this for a streamed body; browsers ignore it.
        duplex: 'half',
      } as RequestInit);
    }
  };
}

function refuse(
  response: Response,
  reason: RedirectRefusal,
  location: string | undefined,
  context: RedirectContext,
): RedirectError {
  void response.body?.cancel().catch(() => undefined);
  const secrets = context.secrets();
  const shownLocation = location === undefined ? undefined : redactUrl(location, secrets);
  const headers = redactHeaders(Object.fromEntries(response.headers), secrets);
  // The Location names credential query parameters as a URL does: masked the same way.
  if (headers.location !== undefined) headers.location = redactUrl(headers.location, secrets);
  return new RedirectError({
    status: response.status,
    headers,
    body: undefined,
    method: context.method,
    url: context.shownUrl,
    location: shownLocation,
    reason,
    message: REASONS[reason](shownLocation),
  });
}

const REASONS: Record<RedirectRefusal, (location: string | undefined) => string> = {
  'cross-origin': (to) =>
    `redirect to another origin (${to}) refused: credentials and bodies are sent only to the configured origin; use that address as baseUrl if you trust it`,
  downgrade: (to) => `redirect from https to plain http (${to}) refused`,
  'method-change': (to) =>
    `redirect to ${to} would turn this request into a GET and drop its body; refused so the write is not lost silently`,
  'too-many': (to) => `more than ${MAX_REDIRECTS} redirects (last to ${to})`,
  'invalid-location': () => 'redirect with an invalid Location refused',
  hidden: () =>
    'the answer was a redirect the browser does not let the SDK read (opaque redirect); refused, as its target is unknown',
};
