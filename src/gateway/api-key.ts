import type { ValidationIssue } from '../core/errors.js';

/** A key for the external gateway: the literal value, or the name of an environment variable of the gateway pod. */
export type GatewayApiKey = string | { env: string };

/** A key may be given as `os.environ/<VAR_NAME>`, read by the gateway at config load. */
export const ENV_REFERENCE_PREFIX = 'os.environ/';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `{ env: 'VAR' }` → `os.environ/VAR`; a literal (or an existing reference) is checked and kept. */
export function resolveApiKey(
  input: unknown,
  path: (string | number)[],
): { value: string | undefined; issues: ValidationIssue[] } {
  const fail = (message: string) => ({ value: undefined, issues: [{ path, message }] });
  if (typeof input === 'object' && input !== null && !Array.isArray(input)) {
    const env = (input as { env?: unknown }).env;
    if (typeof env !== 'string' || !ENV_NAME.test(env)) {
      return fail('env must be an environment variable name (letters, digits, underscores)');
    }
    return { value: `${ENV_REFERENCE_PREFIX}${env}`, issues: [] };
  }
  if (typeof input !== 'string' || input.trim() === '') {
    return fail("must be the gateway key or { env: 'VAR_NAME' }");
  }
  if (input.startsWith(ENV_REFERENCE_PREFIX) && !ENV_NAME.test(input.slice(ENV_REFERENCE_PREFIX.length))) {
    return fail('os.environ/ must be followed by an environment variable name');
  }
  if (/\s/.test(input)) return fail('must not contain whitespace');
  return { value: input, issues: [] };
}

export function isEnvReference(apiKey: string): boolean {
  return apiKey.startsWith(ENV_REFERENCE_PREFIX);
}
