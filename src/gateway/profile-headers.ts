import { RequestValidationError, type ValidationIssue } from '../core/errors.js';
import {
  isValidHeaderName,
  isValidHeaderValue,
  SESSION_ID_HEADER,
  SPEND_LOGS_METADATA_HEADER,
} from './attribution-headers.js';
import type { GatewayConfigNote } from './config-note.js';
import { type ForwardingOptions, isForwardedClientHeader } from './forwarded-headers.js';

/** The built-in gateway's own key header (docs/compatibility.md, "Model gateway"). */
const GATEWAY_KEY_HEADER = 'x-gateway-api-key';
/** Takes priority over `x-gateway-session-id` as the spend-log session id (docs/compatibility.md, G10). */
const TRACE_ID_HEADER = 'x-gateway-trace-id';
/** Any other `x-…-session-id` with such a value is the gateway's last fallback for the session id (G10). */
const FALLBACK_SESSION_HEADER = /^x-.+-session-id$/;
const FALLBACK_SESSION_VALUE = /^[A-Za-z0-9_-]{8,}$/;

import type { JsonObject } from './json-value.js';
import { parseSpendLogsMetadataHeader, spendLogsMetadataHeader } from './spend-metadata.js';

export interface ProfileHeadersInput {
  /** Recipe 2: static headers of the profile, e.g. `{ 'X-Team-Id': 'alpha' }`. */
  headers?: Record<string, string>;
  /** Recipe 4: serialised into `x-gateway-spend-logs-metadata` as a JSON string. */
  spendLogsMetadata?: JsonObject;
}

export interface ProfileHeadersResult {
  /** Ready for the LLM profile's `llm.extra_headers`. */
  extra_headers: Record<string, string>;
  notes: GatewayConfigNote[];
}

/**
 * Builds a profile's `llm.extra_headers` for recipes 2 and 4 and says what will happen to each header:
 * headers the gateway does not forward, `x-gateway-session-id` overwritten at call time, and the spend
 * metadata understood only by a same-kind gateway. Bad names or values are a `RequestValidationError`.
 */
export function profileExtraHeaders(
  input: ProfileHeadersInput,
  options: ForwardingOptions = {},
): ProfileHeadersResult {
  const headers = input?.headers ?? {};
  const issues: ValidationIssue[] = [];
  const notes: GatewayConfigNote[] = [];
  const out: Record<string, string> = {};
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) {
    throw new RequestValidationError('must be an object of header name to string value', 'headers');
  }
  const seen = new Map<string, string>();
  for (const [name, value] of Object.entries(headers as Record<string, unknown>)) {
    const path = ['headers', name];
    const lower = name.toLowerCase();
    if (!isValidHeaderName(name)) {
      issues.push({ path, message: 'is not a valid header name' });
      continue;
    }
    if (seen.has(lower)) {
      issues.push({ path, message: `repeats "${seen.get(lower)}" (header names ignore case)` });
      continue;
    }
    seen.set(lower, name);
    if (lower === SPEND_LOGS_METADATA_HEADER) {
      try {
        parseSpendLogsMetadataHeader(value, `headers.${name}`);
      } catch (error) {
        if (error instanceof RequestValidationError) issues.push({ ...error.issues[0]!, path });
        continue;
      }
    } else if (typeof value !== 'string') {
      issues.push({ path, message: 'must be a string (header values are strings)' });
      continue;
    }
    if (!isValidHeaderValue(value as string)) {
      issues.push({ path, message: 'must not contain CR, LF or NUL' });
      continue;
    }
    out[name] = value as string;
  }
  if (input?.spendLogsMetadata !== undefined) {
    if (seen.has(SPEND_LOGS_METADATA_HEADER)) {
      issues.push({
        path: ['spendLogsMetadata'],
        message: `${SPEND_LOGS_METADATA_HEADER} is also given in headers`,
      });
    } else {
      try {
        out[SPEND_LOGS_METADATA_HEADER] = spendLogsMetadataHeader(input.spendLogsMetadata);
      } catch (error) {
        if (!(error instanceof RequestValidationError)) throw error;
        issues.push(...error.issues);
      }
    }
  }
  if (issues.length > 0) throw new RequestValidationError(issues);

  notes.push(...attributionNotes(out, options));
  return { extra_headers: out, notes };
}

/** What the gateway chain will do with each of these profile headers (spec recipes 2 and 4). */
export function attributionNotes(
  headers: Record<string, string>,
  options: ForwardingOptions = {},
): GatewayConfigNote[] {
  const notes: GatewayConfigNote[] = [];
  const names = Object.keys(headers);
  if (names.length === 0) return notes;
  if (options.forwardingEnabled === false) {
    notes.push({
      level: 'warning',
      code: 'forwarding-disabled',
      message: 'header forwarding is off: none of these headers reaches the external gateway',
    });
  } else {
    notes.push({
      level: 'info',
      code: 'forwarding-required',
      message:
        'these headers reach the external gateway only with general_settings.forward_client_headers_to_llm_api: true',
    });
  }
  for (const name of names) {
    const lower = name.toLowerCase();
    if (lower === SESSION_ID_HEADER) {
      notes.push({
        level: 'warning',
        code: 'session-id-overwritten',
        path: ['headers', name],
        message: `${SESSION_ID_HEADER} is overwritten at call time with the conversation id; it is for tracing, not attribution`,
      });
    } else if (lower === GATEWAY_KEY_HEADER) {
      notes.push({
        level: 'warning',
        code: 'gateway-key-header',
        path: ['headers', name],
        message: `${GATEWAY_KEY_HEADER} is read by the built-in gateway as the caller's key, in place of the one the runtime sends: calls are refused unless it holds a key the gateway accepts; it is never forwarded`,
      });
    } else if (options.forwardingEnabled !== false && !isForwardedClientHeader(name)) {
      notes.push({
        level: 'warning',
        code: 'header-not-forwarded',
        path: ['headers', name],
        message: `${name} is not forwarded: the gateway forwards x-* headers and anthropic-beta, never x-stainless*, credential headers (x-api-key, x-goog-api-key, …) or x-mcp-*`,
      });
    }
    if (lower === TRACE_ID_HEADER) {
      notes.push({
        level: 'warning',
        code: 'trace-id-replaces-session-id',
        path: ['headers', name],
        message: `${TRACE_ID_HEADER} takes the place of the conversation id (${SESSION_ID_HEADER}) as the session id of the gateway's spend logs: every conversation of this profile shares its value there`,
      });
    } else if (
      lower !== SESSION_ID_HEADER &&
      FALLBACK_SESSION_HEADER.test(lower) &&
      FALLBACK_SESSION_VALUE.test(headers[name] as string)
    ) {
      notes.push({
        level: 'info',
        code: 'session-id-fallback-unused',
        path: ['headers', name],
        message: `the gateway takes ${name} as the spend-log session id only when a call has neither ${TRACE_ID_HEADER} nor ${SESSION_ID_HEADER}; calls of the platform SDK always carry ${SESSION_ID_HEADER}`,
      });
    }
    if (lower === SPEND_LOGS_METADATA_HEADER) {
      notes.push({
        level: 'info',
        code: 'spend-metadata-same-kind-only',
        path: ['headers', name],
        message:
          'spend metadata is recorded in the spend logs of the built-in gateway, and also of a same-kind external gateway when forwarded (recipe 4)',
      });
    }
  }
  return notes;
}
