/**
 * Credential and routing headers the built-in gateway strips from every client request before forwarding
 * (docs/compatibility.md, "Model gateway"): they never reach the upstream, whatever their prefix.
 */
export const NEVER_FORWARDED_HEADERS: readonly string[] = [
  'authorization',
  'api-key',
  'x-api-key',
  'x-goog-api-key',
  'ocp-apim-subscription-key',
  'x-gateway-api-key',
  'x-mcp-auth',
  'x-mcp-servers',
  'x-mcp-access-groups',
];

/**
 * spec "Deployment switches": with `forward_client_headers_to_llm_api: true` the built-in gateway forwards
 * client headers starting with `x-` (but not `x-stainless`, the OpenAI client's telemetry) and
 * `anthropic-beta`, after dropping {@link NEVER_FORWARDED_HEADERS}. Names compare case-insensitively.
 */
export function isForwardedClientHeader(name: string): boolean {
  const lower = name.toLowerCase();
  if (NEVER_FORWARDED_HEADERS.includes(lower)) return false;
  if (lower.startsWith('x-stainless')) return false;
  return lower.startsWith('x-') || lower.startsWith('anthropic-beta');
}

export interface ForwardingOptions {
  /** Whether `general_settings.forward_client_headers_to_llm_api` is on. Default true. */
  forwardingEnabled?: boolean;
}

/** The subset of `headers` the built-in gateway would forward to the external gateway. */
export function forwardedClientHeaders(
  headers: Record<string, string>,
  options: ForwardingOptions = {},
): Record<string, string> {
  if (options.forwardingEnabled === false) return {};
  return Object.fromEntries(Object.entries(headers).filter(([name]) => isForwardedClientHeader(name)));
}
