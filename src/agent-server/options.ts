import { headerAuth, type SecretRegistry } from '../core/auth.js';
import type { ClientOptions, Credential } from '../core/options.js';
import type { TransportInit } from '../core/transport.js';

/** Options of the agent-server clients (`EventsClient`, `ConversationsClient`). */
export interface AgentServerClientOptions extends ClientOptions {
  /** `{base_url}` of the agent server, e.g. `http://localhost:8000`. */
  baseUrl: string;
  /** Sent as `X-Session-API-Key` (notes §1.1: the only REST auth the agent server accepts). */
  sessionApiKey?: Credential;
}

/** Transport settings of the agent-server clients: `X-Session-API-Key` auth, the key registered as a secret. */
export function sessionKeyTransport(
  options: AgentServerClientOptions,
  secrets: SecretRegistry,
): TransportInit {
  return {
    ...options,
    secrets: secrets.list,
    authHeaders: headerAuth(options.sessionApiKey, 'X-Session-API-Key', secrets),
  };
}
