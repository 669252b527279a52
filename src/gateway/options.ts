import type { ClientOptions, Credential } from '../core/options.js';

/** Options of `GatewayAdminClient`. */
export interface GatewayAdminClientOptions extends ClientOptions {
  /** `{builtin_gateway_url}`, e.g. `http://localhost:4000`. */
  baseUrl: string;
  /** The gateway's master key, sent as `Authorization: Bearer <MASTER_KEY>` (spec 5.6). */
  masterKey: Credential;
}
