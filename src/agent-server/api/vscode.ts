import type { APIPromise } from '../../core/api-promise.js';
import type { APIError } from '../../core/errors.js';
import type { RequestOptions } from '../../core/options.js';
import { optionsObject } from '../../core/validate.js';
import type { ApiContext } from './api-context.js';
import { shape } from './decode.js';
import { op } from './operation.js';
import { optionalString } from './paths.js';

const R = '/api/conversations/{runtime_conversation_id}';

function isDisabled(status: number, body: unknown): boolean {
  // 1.58.0: 503 {"detail": "Internal Server Error", "exception": "503: VSCode is disabled in configuration. …"}.
  const record = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const text = [body, record.detail, record.exception].filter((part) => typeof part === 'string').join(' ');
  return status === 503 && /vs ?code is disabled/i.test(text);
}

/** Internal marker: the 503 that means "disabled", turned into `null` by `url()`. */
class VSCodeDisabled extends Error {
  constructor(readonly original: APIError) {
    super(original.message);
  }
}

export const VSCODE_OPERATIONS = {
  url: [op('GET', '/api/vscode/url'), op('GET', `${R}/vscode/url`, '1.58.0')],
  status: [op('GET', '/api/vscode/status'), op('GET', `${R}/vscode/status`, '1.58.0')],
} as const;

/** The VS Code (openvscode-server) the agent server runs beside the agent. */
export class VSCodeApi {
  readonly #api: ApiContext;
  readonly #runtime: string | undefined;

  constructor(api: ApiContext, runtimeConversationId?: string) {
    this.#api = api;
    this.#runtime = runtimeConversationId;
  }

  /**
   * The editor's URL, built on `baseUrl` and opening `workspaceDir`; null when VS Code is disabled (the real
   * server answers that with a 503 whose `exception` is "503: VSCode is disabled in configuration"; not retried).
   */
  async url(
    query: { baseUrl?: string; workspaceDir?: string } = {},
    options: RequestOptions = {},
  ): Promise<string | null> {
    query = optionsObject(query, 'query');
    const answer = await this.#api
      .call(this.#pick(VSCODE_OPERATIONS.url), {
        params: this.#params(),
        query: {
          base_url: optionalString(query.baseUrl, 'query.baseUrl'),
          workspace_dir: optionalString(query.workspaceDir, 'query.workspaceDir'),
        },
        decode: shape<{ url: string | null }>({ url: 'string?' }),
        isPermanent: isDisabled,
        mapError: (error) => (isDisabled(error.status, error.body) ? new VSCodeDisabled(error) : error),
        options,
      })
      .catch((error: unknown) => {
        if (error instanceof VSCodeDisabled) return { url: null };
        throw error;
      });
    return answer.url ?? null;
  }

  /** Whether it is enabled and running (`{enabled, running, …}`). */
  status(options: RequestOptions = {}): APIPromise<Record<string, boolean | string | null>> {
    return this.#api.call(this.#pick(VSCODE_OPERATIONS.status), {
      params: this.#params(),
      decode: shape(),
      options,
    });
  }

  #pick<T>(operations: readonly [T, T]): T {
    return this.#runtime === undefined ? operations[0] : operations[1];
  }

  #params(): Record<string, string> {
    return this.#runtime === undefined ? {} : { runtime_conversation_id: this.#runtime };
  }
}
