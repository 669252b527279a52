import { headerAuth, SecretRegistry } from '../core/auth.js';
import { type EnvDefaults, resolveClientOptions } from '../core/client-options.js';
import type { ClientOptions, Credential } from '../core/options.js';
import type { TransportInit } from '../core/transport.js';

/** Options of the agent-server clients (`EventsClient`, `ConversationsClient`). */
export interface AgentServerClientOptions extends ClientOptions {
  /** `{base_url}` of the agent server, e.g. `http://localhost:8000`; default `AGENT_SERVER_URL`. */
  baseUrl?: string | undefined;
  /** Sent as `X-Session-API-Key`, the only REST auth the agent server accepts; default `SESSION_API_KEY`. */
  sessionApiKey?: Credential | undefined;
}

/** The environment variables the agent-server clients read for options left out (docs/getting-started.md). */
export const AGENT_SERVER_ENV: EnvDefaults<AgentServerClientOptions> = {
  baseUrl: 'AGENT_SERVER_URL',
  sessionApiKey: 'SESSION_API_KEY',
};

/**
 * What an agent-server client is built from: its options checked and completed from the environment, the
 * secret registry (shared with the other clients of one `AgentServerClient`), and transport settings with
 * `X-Session-API-Key` auth, the key registered as a secret. `EventsClient` and `ConversationsClient` both
 * start with it.
 */
export function agentServerClientSetup(options: AgentServerClientOptions | undefined): {
  options: AgentServerClientOptions & { baseUrl: string };
  secrets: SecretRegistry;
  transport: TransportInit;
} {
  const resolved = resolveClientOptions(options, AGENT_SERVER_ENV);
  const secrets = secretRegistryFor(options);
  return {
    options: resolved,
    secrets,
    transport: {
      ...resolved,
      secrets: secrets.list,
      authHeaders: headerAuth(resolved.sessionApiKey, 'X-Session-API-Key', secrets),
    },
  };
}

/**
 * What the clients built for one `AgentServerClient` share: one secret registry (a key registered by any
 * namespace is redacted by all) and one `/server_info` cache (one version gate). Keyed by the options object
 * the aggregate client hands to each of them; a client built on its own gets fresh ones.
 */
interface SharedState {
  secrets: SecretRegistry;
  serverInfo?: unknown | undefined;
}

const SHARED = new WeakMap<object, SharedState>();

/** Marks `options` as shared by the clients of one aggregate client (see `SharedState`). */
export function shareClientState(options: AgentServerClientOptions, secrets: SecretRegistry): void {
  SHARED.set(options, { secrets });
}

/** The registry shared through `options`, or a new one. */
export function secretRegistryFor(options: AgentServerClientOptions | undefined): SecretRegistry {
  return (options && SHARED.get(options)?.secrets) ?? new SecretRegistry();
}

/** The value shared through `options` (made by `create` the first time), or a new one from `create`. */
export function sharedServerInfo<T>(options: AgentServerClientOptions | undefined, create: () => T): T {
  const shared = options && SHARED.get(options);
  if (!shared) return create();
  shared.serverInfo ??= create();
  return shared.serverInfo as T;
}
