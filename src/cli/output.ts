/** Environment variable names whose values are credentials (masked by `list` unless asked). */
const SECRET_ENV_NAME = /(^|_)(API_?KEY|PASSWORD|PASSWD|SECRET|TOKEN|CREDENTIALS?|PRIVATE_KEY)($|_)/i;

export const MASK = '[redacted]';

/** True for an environment variable name that holds a credential, e.g. `LMNR_PROJECT_API_KEY`. */
export function isSecretEnvName(name: string): boolean {
  return SECRET_ENV_NAME.test(name);
}

/** A copy of the configurations with non-empty credential-like `environment` values masked. */
export function maskEnvironmentSecrets<T extends { environment?: Record<string, string> | undefined }>(
  configs: readonly T[],
): T[] {
  return configs.map((config) => {
    if (!config.environment) return config;
    const environment = Object.fromEntries(
      Object.entries(config.environment).map(([name, value]) => [
        name,
        value !== '' && isSecretEnvName(name) ? MASK : value,
      ]),
    );
    return { ...config, environment };
  });
}

/** `json.dumps(value, indent=2)` as the helper CLI prints it. */
export function prettyJson(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
