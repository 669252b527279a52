import type { RequestOptions } from '../../core/options.js';
import { optionsObject, requireNonEmptyString } from '../../core/validate.js';
import { invalid } from '../invalid.js';
import type { ApiContext } from './api-context.js';
import { arrayOf, shape } from './decode.js';
import { op } from './operation.js';
import { optionalInt, optionalString } from './paths.js';

const R = '/api/conversations/{runtime_conversation_id}';

/** Each method and its operation: server-wide first, then the conversation-runtime variant (1.58.0). */
export const GIT_OPERATIONS = {
  changes: [op('GET', '/api/git/changes', '1.12.0'), op('GET', `${R}/git/changes`, '1.58.0')],
  diff: [op('GET', '/api/git/diff', '1.12.0'), op('GET', `${R}/git/diff`, '1.58.0')],
  commits: [op('GET', '/api/git/commits', '1.36.1'), op('GET', `${R}/git/commits`, '1.58.0')],
  commitChanges: [
    op('GET', '/api/git/commits/{sha}/changes', '1.36.1'),
    op('GET', `${R}/git/commits/{sha}/changes`, '1.58.0'),
  ],
  searchRepositories: op('GET', '/api/git/repositories/search', '1.58.0'),
} as const;

/** OpenAPI `GitChangeStatus`. */
export type GitChangeStatus = 'MOVED' | 'ADDED' | 'DELETED' | 'UPDATED';

/** OpenAPI `GitChange`: a changed file, its path relative to the repository. */
export interface GitChange {
  status: GitChangeStatus;
  path: string;
}

/** OpenAPI `GitDiff`: the file's text before (`original`) and now (`modified`); null when absent. */
export interface GitDiff {
  original: string | null;
  modified: string | null;
}

/** OpenAPI `GitCommit`. */
export interface GitCommit {
  sha: string;
  short_sha: string;
  subject: string;
  author: string;
  timestamp: string;
}

export interface GitCommitsPage {
  commits: GitCommit[];
  has_more: boolean;
}

export interface GitRepositorySearch {
  provider: string;
  query?: string;
  limit?: number;
  pageId?: string;
}

/** OpenAPI `GitProviderRepositoryPage`. */
export interface GitRepositoryPage {
  items: { [field: string]: unknown }[];
  next_page_id?: string | null;
  missing_token?: boolean;
  [field: string]: unknown;
}

const decodeChanges = arrayOf(shape<GitChange>({ status: 'string', path: 'string' }));
const decodeDiff = shape<GitDiff>({ original: 'string?', modified: 'string?' });
const decodeCommits = shape<GitCommitsPage>({ commits: 'array', has_more: 'boolean' });
const decodeRepositories = shape<GitRepositoryPage>({ items: 'array' });

/** Git state of a repository folder on the server (or in one conversation's runtime). */
export class GitApi {
  readonly #api: ApiContext;
  readonly #runtime: string | undefined;

  constructor(api: ApiContext, runtimeConversationId?: string) {
    this.#api = api;
    this.#runtime = runtimeConversationId;
  }

  /** Changed files of the repository at `path`, against `ref` (default: the upstream branch). */
  async changes(
    path: string,
    query: { ref?: string } = {},
    options: RequestOptions = {},
  ): Promise<GitChange[]> {
    query = optionsObject(query, 'query');
    requireNonEmptyString(path, 'path');
    return this.#api.call(this.#pick(GIT_OPERATIONS.changes), {
      params: this.#params(),
      query: { path, ref: optionalString(query.ref, 'query.ref') },
      decode: decodeChanges,
      options,
    });
  }

  /** Before and after text of one file (`path` is the file), against `ref`, or the change of `commit`. */
  async diff(
    path: string,
    query: { ref?: string; commit?: string } = {},
    options: RequestOptions = {},
  ): Promise<GitDiff> {
    query = optionsObject(query, 'query');
    requireNonEmptyString(path, 'path');
    if (query.ref !== undefined && query.commit !== undefined) {
      throw invalid('query.commit', 'cannot be combined with query.ref');
    }
    if (query.commit !== undefined && !/^[0-9a-fA-F]{4,64}$/.test(query.commit)) {
      throw invalid('query.commit', 'must be a hexadecimal commit SHA');
    }
    return this.#api.call(this.#pick(GIT_OPERATIONS.diff), {
      params: this.#params(),
      query: { path, ref: query.ref, commit: query.commit },
      decode: decodeDiff,
      options,
    });
  }

  /** Recent commits of the repository at `path`, newest first. */
  async commits(
    path: string,
    query: { limit?: number } = {},
    options: RequestOptions = {},
  ): Promise<GitCommitsPage> {
    query = optionsObject(query, 'query');
    requireNonEmptyString(path, 'path');
    return this.#api.call(this.#pick(GIT_OPERATIONS.commits), {
      params: this.#params(),
      query: { path, limit: optionalInt(query.limit, 'query.limit') },
      decode: decodeCommits,
      options,
    });
  }

  /** Files one commit changed. */
  async commitChanges(sha: string, path: string, options: RequestOptions = {}): Promise<GitChange[]> {
    requireNonEmptyString(sha, 'sha');
    requireNonEmptyString(path, 'path');
    return this.#api.call(this.#pick(GIT_OPERATIONS.commitChanges), {
      params: { ...this.#params(), sha },
      query: { path },
      decode: decodeChanges,
      options,
    });
  }

  /** Repositories of a git provider the server holds a token for (server-wide only). */
  async searchRepositories(
    search: GitRepositorySearch,
    options: RequestOptions = {},
  ): Promise<GitRepositoryPage> {
    requireNonEmptyString(search?.provider, 'search.provider');
    return this.#api.call(GIT_OPERATIONS.searchRepositories, {
      query: {
        provider: search.provider,
        query: optionalString(search.query, 'search.query'),
        limit: optionalInt(search.limit, 'search.limit'),
        page_id: optionalString(search.pageId, 'search.pageId'),
      },
      decode: decodeRepositories,
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
