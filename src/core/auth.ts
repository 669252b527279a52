import { type Credential, resolveCredential } from './options.js';

/**
 * The secrets a client knows of. Every credential value the client resolves is added here, so that
 * redaction covers values returned by credential functions too, not only literal strings.
 */
export class SecretRegistry {
  readonly #values = new Set<string>();

  add(value: string | undefined): void {
    if (value) this.#values.add(value);
  }

  list = (): readonly string[] => [...this.#values];
}

/**
 * `authHeaders` for the transport: resolves `credential` at call time and sends it in `header`
 * (with an optional scheme such as `Bearer `). No credential, no header.
 */
export function headerAuth(
  credential: Credential | undefined,
  header: string,
  secrets: SecretRegistry,
  scheme = '',
): () => Promise<Record<string, string>> {
  if (typeof credential === 'string') secrets.add(credential);
  return async () => {
    const value = await resolveCredential(credential, header);
    if (!value) return {};
    secrets.add(value);
    return { [header]: `${scheme}${value}` };
  };
}
