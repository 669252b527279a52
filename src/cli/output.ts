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

/**
 * What a CLI prints on stdout when a command run with `--json` fails (besides the message on stderr), so a
 * script reads the failure the way it reads a result: `{"error": {"type", "message", "exitCode", …}}`.
 * `type` is the SDK error class (`AuthenticationError`, `RequestValidationError`, …), `UsageError` for a bad
 * command line, or `Error` for anything else; `status` is the HTTP status of an API error.
 */
export function errorJson(error: unknown, message: string, exitCode: number): string {
  const type =
    error instanceof Error && error.name !== 'Error' && !error.name.startsWith('Cli') ? error.name : 'Error';
  const status = (error as { status?: unknown } | null)?.status;
  return JSON.stringify({
    error: { type, message, exitCode, ...(typeof status === 'number' ? { status } : {}) },
  });
}

/** `json.dumps(value, indent=2)` as the helper CLI prints it. */
export function prettyJson(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
