import type { EnvDefaults } from '../core/client-options.js';
import type { ClientOptions, Credential } from '../core/options.js';

/** Options of `PlatformClient`. */
export interface PlatformClientOptions extends ClientOptions {
  /** `{app_url}` of the platform web application; default `APP_URL`. */
  baseUrl?: string | undefined;
  /** Sent as `X-Session-API-Key`; default `APP_SESSION_API_KEY`. */
  sessionApiKey?: Credential | undefined;
}

/** The environment variables `PlatformClient` reads for options left out (docs/getting-started.md). */
export const PLATFORM_ENV: EnvDefaults<PlatformClientOptions> = {
  baseUrl: 'APP_URL',
  sessionApiKey: 'APP_SESSION_API_KEY',
};
