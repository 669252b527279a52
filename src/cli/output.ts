import { isSecretEnvName } from '../runtime/secret-env.js';

export { isSecretEnvName };

export const MASK = '[redacted]';

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
