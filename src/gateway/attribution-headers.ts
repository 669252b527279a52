/** spec "Identity and cost attribution recipes": the headers the platform SDK and the gateway understand. */

/** Stamped by the platform SDK on every LLM request with the conversation id; for tracing, not attribution. */
export const SESSION_ID_HEADER = 'x-gateway-session-id';
/** Recipe 4: a JSON string (not a nested object), parsed into spend logs by a same-kind gateway only. */
export const SPEND_LOGS_METADATA_HEADER = 'x-gateway-spend-logs-metadata';

// RFC 9110 token: what a header name may contain.
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

export function isValidHeaderName(name: string): boolean {
  return HEADER_NAME.test(name);
}

/** A header value must not break the header block (CR, LF) or carry NUL. */
export function isValidHeaderValue(value: string): boolean {
  return !/[\r\n\0]/.test(value);
}
