import type { APIPromise } from '../../core/api-promise.js';
import { type DeleteResult, deleteResult } from '../../core/delete-result.js';
import type { RequestOptions } from '../../core/options.js';
import { optionsObject, requireNonEmptyString } from '../../core/validate.js';
import type { ApiContext } from './api-context.js';
import { shape } from './decode.js';
import { op } from './operation.js';
import { optionalString } from './paths.js';

export const SECRETS_OPERATIONS = {
  list: op('GET', '/api/settings/secrets', '1.31.1'),
  put: op('PUT', '/api/settings/secrets', '1.31.1'),
  getValue: op('GET', '/api/settings/secrets/{name}', '1.31.1'),
  delete: op('DELETE', '/api/settings/secrets/{name}', '1.31.1'),
} as const;

/** OpenAPI `SecretItemResponse` (names only; values are never listed). */
export interface SecretItem {
  name: string;
  description?: string | null;
}

/** Named secrets saved on the server; every value that passes through is registered for redaction. */
export class SecretsApi {
  constructor(readonly api: ApiContext) {}

  async list(query: { agentProfileId?: string } = {}, options: RequestOptions = {}): Promise<SecretItem[]> {
    query = optionsObject(query, 'query');
    const answer = await this.api.call(SECRETS_OPERATIONS.list, {
      query: { agent_profile_id: optionalString(query.agentProfileId, 'query.agentProfileId') },
      decode: shape<{ secrets: SecretItem[] }>({ secrets: 'array' }),
      options,
    });
    return answer.secrets;
  }

  /** Creates or replaces a secret. */
  put(
    secret: { name: string; value: string; description?: string },
    options: RequestOptions = {},
  ): APIPromise<SecretItem> {
    requireNonEmptyString(secret?.name, 'secret.name');
    requireNonEmptyString(secret.value, 'secret.value');
    optionalString(secret.description, 'secret.description');
    this.api.addSecret(secret.value);
    return this.api.call(SECRETS_OPERATIONS.put, {
      json: secret,
      decode: shape<SecretItem>({ name: 'string' }),
      retry: false,
      options,
    });
  }

  /** The secret's value: the real server answers it as plain text (registered for redaction at once). */
  async getValue(name: string, options: RequestOptions = {}): Promise<string> {
    requireNonEmptyString(name, 'name');
    const value = await this.api.call<string>(SECRETS_OPERATIONS.getValue, {
      params: { name },
      responseType: 'text',
      headers: { accept: 'text/plain, application/json' },
      options,
    });
    this.api.addSecret(value);
    return value;
  }

  async delete(name: string, options: RequestOptions = {}): Promise<DeleteResult> {
    requireNonEmptyString(name, 'name');
    await this.api.call(SECRETS_OPERATIONS.delete, { params: { name }, decode: shape(), options });
    return deleteResult(name);
  }
}
