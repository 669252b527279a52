/**
 * The two kinds of external gateway, and the routing prefixes of `gateway_params.model`.
 * `same-kind` is a gateway of the same kind as the built-in one; `openai-compatible` is any other
 * OpenAI-compatible gateway.
 */
export type GatewayKind = 'same-kind' | 'openai-compatible';

export const GATEWAY_KINDS: readonly GatewayKind[] = ['same-kind', 'openai-compatible'];

/** `gateway_proxy/<model-on-gateway>` for a same-kind gateway. */
export const SAME_KIND_PREFIX = 'gateway_proxy/';
/** `compat/<provider>/<model-on-gateway>` for an OpenAI-compatible gateway. */
export const COMPAT_PREFIX = 'compat/';

export const ROUTING_PREFIXES = [SAME_KIND_PREFIX, COMPAT_PREFIX] as const;

/** The routing prefix a model string already starts with, if any. */
export function routingPrefixOf(model: string): string | undefined {
  return ROUTING_PREFIXES.find((prefix) => model.startsWith(prefix));
}
