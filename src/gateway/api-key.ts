import type { ValidationIssue } from '../core/errors.js';

/** A key for the external gateway: the literal value, or the name of an environment variable of the gateway pod. */
export type GatewayApiKey = string | { env: string };

/**
 * A key may be given as `os.environ/<VAR_NAME>`. LiteLLM resolves every `litellm_params` string starting with
 * exactly this prefix through `get_secret` (proxy_server.py: config-file models at start, database models
 * such as those of `POST /model/new` at load): the variable of the gateway pod, or the configured secret
 * manager's entry of that name. So the SDK takes it as a reference too, whichever way it is written.
 */
export const ENV_REFERENCE_PREFIX = 'os.environ/';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/**
 * What reads as a reference but is not one for LiteLLM (its test is a case-sensitive `startswith`, and its
 * YAML has no `${…}` expansion): sent upstream as the key itself, it would fail as a wrong key far away.
 */
const LOOKS_LIKE_REFERENCE = /^(os\.environ[./]|\$\{?[A-Za-z_]|env:)/i;

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
  if (input.startsWith(ENV_REFERENCE_PREFIX)) {
    const name = input.slice(ENV_REFERENCE_PREFIX.length);
    // get_secret strips the prefix, then treats `oidc/<provider>/<audience>` as a token to fetch.
    if (name.startsWith('oidc/')) {
      return fail(
        "os.environ/oidc/… makes LiteLLM fetch an OIDC token, not read a variable: give { env: 'VAR_NAME' }",
      );
    }
    if (!ENV_NAME.test(name)) return fail('os.environ/ must be followed by an environment variable name');
    return { value: input, issues: [] };
  }
  if (LOOKS_LIKE_REFERENCE.test(input)) {
    return fail(
      "looks like an environment reference, but LiteLLM reads a variable only from exactly os.environ/VAR_NAME (lower case) and would send this as the key itself: give { env: 'VAR_NAME' }",
    );
  }
  if (/\s/.test(input)) return fail('must not contain whitespace');
  return { value: input, issues: [] };
}

export function isEnvReference(apiKey: string): boolean {
  return apiKey.startsWith(ENV_REFERENCE_PREFIX);
}
