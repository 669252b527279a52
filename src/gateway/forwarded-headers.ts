/**
 * spec "Deployment switches": with `forward_client_headers_to_llm_api: true` the built-in gateway forwards
 * client headers starting with `x-` to the upstream, excluding `x-stainless-*` (the OpenAI client's own
 * telemetry headers). Names compare case-insensitively, as HTTP header names do.
 */
export function isForwardedClientHeader(name: string, options: ForwardingOptions = {}): boolean {
  const lower = name.toLowerCase();
  if (lower.startsWith('x-stainless-')) return false;
  if (lower.startsWith('x-')) return true;
  // spec: "and provider-prefixed headers"; the spec names none, so the caller lists them (e.g. 'anthropic-').
  return (options.providerPrefixes ?? []).some((prefix) => lower.startsWith(prefix.toLowerCase()));
}

export interface ForwardingOptions {
  /** Whether `general_settings.forward_client_headers_to_llm_api` is on. Default true. */
  forwardingEnabled?: boolean;
  /** Provider header prefixes the deployment forwards too (e.g. `['anthropic-']`). Default none. */
  providerPrefixes?: readonly string[];
}

/** The subset of `headers` the built-in gateway would forward to the external gateway. */
export function forwardedClientHeaders(
  headers: Record<string, string>,
  options: ForwardingOptions = {},
): Record<string, string> {
  if (options.forwardingEnabled === false) return {};
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => isForwardedClientHeader(name, options)),
  );
}
