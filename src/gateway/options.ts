import type { EnvDefaults } from '../core/client-options.js';
import type { ClientOptions, Credential } from '../core/options.js';

/** Options of `GatewayAdminClient`. */
export interface GatewayAdminClientOptions extends ClientOptions {
  /** `{builtin_gateway_url}`, e.g. `http://localhost:4000`; default `GATEWAY_URL`. */
  baseUrl?: string | undefined;
  /** The gateway's master key, sent as `Authorization: Bearer <key>`; default `MASTER_KEY`. Required. */
  masterKey?: Credential | undefined;
}

/** The environment variables `GatewayAdminClient` reads for options left out (docs/getting-started.md). */
export const GATEWAY_ENV: EnvDefaults<GatewayAdminClientOptions> = {
  baseUrl: 'GATEWAY_URL',
  masterKey: 'MASTER_KEY',
};
