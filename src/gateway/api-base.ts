import type { ValidationIssue } from '../core/errors.js';
import { isClusterLocalHost } from './cluster-host.js';
import { type GatewayConfigNote, pushNote } from './config-note.js';
import type { GatewayKind } from './kinds.js';

export interface ApiBaseCheck {
  /** The corrected base, when the input could be used. */
  value: string | undefined;
  issues: ValidationIssue[];
  notes: GatewayConfigNote[];
}

/**
 * Checks and corrects `gateway_params.api_base` for the gateway kind: a same-kind gateway takes
 * the base without `/v1`, an OpenAI-compatible one needs the base ending in `/v1`. In both cases the built-in
 * gateway posts to `{api_base}/chat/completions`; a same-kind gateway serves that path with and without
 * `/v1` (docs/compatibility.md, "Model gateway").
 */
export function checkApiBase(
  input: unknown,
  kind: GatewayKind | undefined,
  path: (string | number)[],
  options: { allowPlainHttp?: boolean | undefined } = {},
): ApiBaseCheck {
  const issues: ValidationIssue[] = [];
  const notes: GatewayConfigNote[] = [];
  const fail = (message: string): ApiBaseCheck => ({
    value: undefined,
    issues: [...issues, { path, message }],
    notes,
  });
  if (typeof input !== 'string' || input.trim() === '') return fail('must be a non-empty URL');
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return fail('must be an absolute http(s) URL, e.g. https://gateway.example.com');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return fail(`must use http or https, not ${url.protocol.replace(/:$/, '')}`);
  }
  if (url.username || url.password) return fail('must not carry credentials; give the key as apiKey');
  if (url.search || url.hash) return fail('must not carry a query or a fragment');
  if (/\/chat\/completions\/?$/.test(url.pathname)) {
    return fail("is an endpoint; give the gateway's base URL (the gateway appends the path)");
  }
  if (url.protocol === 'http:' && !isClusterLocalHost(url.hostname)) {
    // spec "Security facts": the key travels in the clear over plain http.
    if (!options.allowPlainHttp) {
      return fail(
        `uses plain http to ${url.hostname}, a host outside the cluster; use https (or set allowPlainHttp)`,
      );
    }
    pushNote(notes, {
      level: 'warning',
      code: 'plain-http-external',
      path,
      message: `plain http to ${url.hostname}, outside the cluster: the gateway key travels unencrypted`,
    });
  }

  if (input.trim().endsWith('/')) {
    pushNote(notes, {
      level: 'info',
      code: 'api-base-trailing-slash-removed',
      path,
      message: 'trailing slash removed',
    });
  }
  let pathname = url.pathname.replace(/\/+$/, '');
  if (kind === 'same-kind' && /\/v1$/.test(pathname)) {
    pathname = pathname.replace(/\/v1$/, '');
    pushNote(notes, {
      level: 'info',
      code: 'api-base-v1-removed',
      path,
      message:
        'trailing /v1 removed: a same-kind gateway takes its base without /v1 (it serves /chat/completions there)',
    });
  }
  if (kind === 'openai-compatible' && !/\/v1$/.test(pathname)) {
    pathname = `${pathname}/v1`;
    pushNote(notes, {
      level: 'info',
      code: 'api-base-v1-added',
      path,
      message:
        '/v1 appended: only /chat/completions is appended to api_base, so an OpenAI-compatible gateway needs /v1 in it',
    });
  }
  return { value: `${url.origin}${pathname}`, issues, notes };
}
