import type { EnvDefaults } from '../core/client-options.js';
import type { ClientOptions, Credential } from '../core/options.js';

/** Options of `PlatformClient`. */
export interface PlatformClientOptions extends ClientOptions {
  /** `{app_url}` of the platform web application; default `APP_URL`. */
  baseUrl?: string | undefined;
  /** Sent as `X-Session-API-Key`; default `APP_SESSION_API_KEY`. */
  sessionApiKey?: Credential | undefined;
  /**
   * At most this many requests a second from this client, evenly spaced (conversation URLs included). The
   * platform app slows answers above 10/s and answers 429 above 20/s. Default: no limit (a 429 is retried).
   */
  maxRequestsPerSecond?: number | undefined;
}

/** The environment variables `PlatformClient` reads for options left out (docs/getting-started.md). */
export const PLATFORM_ENV: EnvDefaults<PlatformClientOptions> = {
  baseUrl: 'APP_URL',
  sessionApiKey: 'APP_SESSION_API_KEY',
};
