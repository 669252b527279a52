import type { ClientOptions, Credential } from '../core/options.js';

/** Options of the agent-server clients (`EventsClient`, `ConversationsClient`). */
export interface AgentServerClientOptions extends ClientOptions {
  /** `{base_url}` of the agent server, e.g. `http://localhost:8000`. */
  baseUrl: string;
  /** Sent as `X-Session-API-Key` (notes §1.1: the only REST auth the agent server accepts). */
  sessionApiKey?: Credential;
}
