/** Environment variable names whose values are credentials, e.g. `LMNR_PROJECT_API_KEY`. */
const SECRET_ENV_NAME = /(^|_)(API_?KEY|PASSWORD|PASSWD|SECRET|TOKEN|CREDENTIALS?|PRIVATE_KEY)($|_)/i;

/** True for an environment variable name that holds a credential, e.g. `LMNR_PROJECT_API_KEY`. */
export function isSecretEnvName(name: string): boolean {
  return SECRET_ENV_NAME.test(name);
}

/** The non-empty values of credential-like variables of an `environment` map. */
export function secretEnvValues(environment: unknown): string[] {
  if (typeof environment !== 'object' || environment === null) return [];
  return Object.entries(environment).flatMap(([name, value]) =>
    typeof value === 'string' && value !== '' && isSecretEnvName(name) ? [value] : [],
  );
}
