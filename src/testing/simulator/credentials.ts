/** Every credential of a simulated platform. Generated per run unless given (fixed ones make tests reproducible). */
export interface SimulatorCredentials {
  /** The agent server's `X-Session-API-Key` (also the key of every conversation URL). */
  sessionApiKey: string;
  /** The runtime API's admin password (PBKDF2 login). */
  adminPassword: string;
  /** The runtime API's API key named `default` (`X-API-Key`). */
  apiKey: string;
  /** The built-in gateway's master key. */
  masterKey: string;
  /** The key the external gateway accepts; the built-in gateway reads it from its environment. */
  externalGatewayKey: string;
  /** The platform application's `X-Session-API-Key`. */
  appSessionApiKey: string;
  /** The value of the trace exporter's `x-api-key` header in the simulated runtime pod's environment. */
  tracingApiKey: string;
}

function token(prefix: string): string {
  return `${prefix}-${crypto.randomUUID().replaceAll('-', '')}`;
}

/** Fresh random credentials, with the given ones kept. */
export function simulatorCredentials(given: Partial<SimulatorCredentials> = {}): SimulatorCredentials {
  return {
    sessionApiKey: given.sessionApiKey ?? token('sim-session'),
    adminPassword: given.adminPassword ?? token('sim-admin'),
    apiKey: given.apiKey ?? token('sim-api-key'),
    masterKey: given.masterKey ?? token('sk-sim-master'),
    externalGatewayKey: given.externalGatewayKey ?? token('sk-sim-external'),
    appSessionApiKey: given.appSessionApiKey ?? token('sim-app'),
    tracingApiKey: given.tracingApiKey ?? token('sim-otlp'),
  };
}
