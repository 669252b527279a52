import {
  AGENT_SERVER_FEATURES,
  assertFeatureSupported,
  parseAgentServerVersion,
  supportsFeature,
} from '../version-gate.js';

/**
 * How the subscriber authenticates the socket:
 * - `first-message`: accept, then `{"type":"auth","session_api_key":…}` as the first frame (servers ≥ 1.18.1;
 *   keeps the key out of URLs and proxy logs; works in browsers).
 * - `header`: `X-Session-API-Key` on the handshake (servers ≥ 1.12.0; Node only, browsers cannot set headers).
 * - `query`: `?session_api_key=` (every version; deprecated on newer servers; the key lands in access logs).
 * - `auto` (default): the first of those the server's version and the runtime allow. An unknown version (a
 *   proxy answered `/server_info`) tries them in that order, moving on only when a handshake is refused while
 *   the REST API accepts the key: the key goes into the URL only for a server that refused the others.
 */
export type WebSocketAuthMode = 'auto' | 'first-message' | 'header' | 'query';

export type ResolvedAuth = 'first-message' | 'header' | 'query' | 'none';

/**
 * The auth method for this connection. A forced mode the server's version does not support fails with
 * AgentServerVersionError before the socket is opened.
 */
export function resolveAuth(
  mode: WebSocketAuthMode,
  version: string | undefined,
  hasKey: boolean,
  runtimeSendsHeaders: boolean,
  /** For an unknown version: how many methods were refused so far. */
  refusedForUnknownVersion = 0,
): ResolvedAuth {
  if (!hasKey) return 'none';
  switch (mode) {
    case 'first-message':
      assertFeatureSupported(version, AGENT_SERVER_FEATURES.websocketFirstMessageAuth);
      return 'first-message';
    case 'header':
      assertFeatureSupported(version, AGENT_SERVER_FEATURES.websocketHeaderAuth);
      return 'header';
    case 'query':
      return 'query';
    default: {
      if (parseAgentServerVersion(version) === undefined) {
        const order = unknownVersionAuthOrder(runtimeSendsHeaders);
        return order[Math.min(refusedForUnknownVersion, order.length - 1)] as ResolvedAuth;
      }
      if (supportsFeature(version, AGENT_SERVER_FEATURES.websocketFirstMessageAuth)) return 'first-message';
      if (runtimeSendsHeaders && supportsFeature(version, AGENT_SERVER_FEATURES.websocketHeaderAuth))
        return 'header';
      return 'query';
    }
  }
}

/** The methods an unknown version tries, the ones that keep the key out of URLs first. */
export function unknownVersionAuthOrder(runtimeSendsHeaders: boolean): ResolvedAuth[] {
  return runtimeSendsHeaders ? ['first-message', 'header', 'query'] : ['first-message', 'query'];
}

/**
 * The key's query parameter for a socket URL: `session_api_key` with `query` auth, nothing otherwise. The
 * protocol adapters build the rest of their URL (`sessionSocketUrl`, `eventsSocketUrl`, `bashEventsSocketUrl`).
 */
export function authQuery(auth: ResolvedAuth, key: string | undefined): Record<string, string> {
  return auth === 'query' && key !== undefined ? { session_api_key: key } : {};
}

/** The first-message auth frame. */
export function authFrame(sessionApiKey: string): string {
  return JSON.stringify({ type: 'auth', session_api_key: sessionApiKey });
}
