import type { ClientOptions, Credential } from '../core/options.js';

/** Options of `PlatformClient`. */
export interface PlatformClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** `{app_url}` of the platform web application. */
  appUrl: string;
  /** Sent as `X-Session-API-Key` (spec 5.2). */
  sessionApiKey?: Credential | undefined;
}
