import type { RequestOptions } from '../../core/options.js';
import type { ApiContext } from './api-context.js';
import { shape } from './decode.js';
import { op } from './operation.js';
import { optionalString } from './paths.js';

const R = '/api/conversations/{runtime_conversation_id}';

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

  /** The editor's URL (null when VS Code is disabled), built on `baseUrl` and opening `workspaceDir`. */
  async url(
    query: { baseUrl?: string; workspaceDir?: string } = {},
    options: RequestOptions = {},
  ): Promise<string | null> {
    const answer = await this.#api.call(this.#pick(VSCODE_OPERATIONS.url), {
      params: this.#params(),
      query: {
        base_url: optionalString(query.baseUrl, 'query.baseUrl'),
        workspace_dir: optionalString(query.workspaceDir, 'query.workspaceDir'),
      },
      decode: shape<{ url: string | null }>({ url: 'string?' }),
      options,
    });
    return answer.url ?? null;
  }

  /** Whether it is enabled and running (`{enabled, running, …}`). */
  status(options: RequestOptions = {}): Promise<Record<string, boolean | string | null>> {
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
