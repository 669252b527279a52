import type { APIPromise } from '../../core/api-promise.js';
import { type DeleteResult, deleteResult } from '../../core/delete-result.js';
import type { RequestOptions } from '../../core/options.js';
import { requireNonEmptyString } from '../../core/validate.js';
import { invalid } from '../invalid.js';
import type { ApiContext } from './api-context.js';
import { shape } from './decode.js';
import { op } from './operation.js';

export const WORKSPACES_OPERATIONS = {
  list: op('GET', '/api/workspaces', '1.31.1'),
  add: op('POST', '/api/workspaces', '1.31.1'),
  delete: op('DELETE', '/api/workspaces', '1.31.1'),
  addParents: op('POST', '/api/workspaces/parents', '1.31.1'),
  deleteParent: op('DELETE', '/api/workspaces/parents', '1.31.1'),
} as const;

/** OpenAPI `WorkspaceItem` / `WorkspaceParentItem`. */
export interface WorkspaceItem {
  id?: string;
  name?: string;
  path: string;
  [field: string]: unknown;
}

/** OpenAPI `WorkspacesListResponse`. */
export interface WorkspacesList {
  workspaces: WorkspaceItem[];
  workspaceParents?: WorkspaceItem[];
}

const decodeList = shape<WorkspacesList>({ workspaces: 'array', workspaceParents: 'array?' });

/** The folders the server offers as workspaces, and the parent folders it lists them from. */
export class WorkspacesApi {
  constructor(readonly api: ApiContext) {}

  list(options: RequestOptions = {}): APIPromise<WorkspacesList> {
    return this.api.call(WORKSPACES_OPERATIONS.list, { decode: decodeList, options });
  }

  add(workspaces: readonly WorkspaceItem[], options: RequestOptions = {}): APIPromise<WorkspacesList> {
    return this.api.call(WORKSPACES_OPERATIONS.add, {
      json: { workspaces: items(workspaces, 'workspaces') },
      decode: decodeList,
      options,
    });
  }

  async delete(path: string, options: RequestOptions = {}): Promise<DeleteResult> {
    requireNonEmptyString(path, 'path');
    const answer = await this.api.call(WORKSPACES_OPERATIONS.delete, {
      query: { path },
      decode: shape<{ deleted?: boolean }>({ deleted: 'boolean?' }),
      options,
    });
    return deleteResult(path, undefined, answer.deleted ?? true);
  }

  addParents(parents: readonly WorkspaceItem[], options: RequestOptions = {}): APIPromise<WorkspacesList> {
    return this.api.call(WORKSPACES_OPERATIONS.addParents, {
      json: { parents: items(parents, 'parents') },
      decode: decodeList,
      options,
    });
  }

  async deleteParent(path: string, options: RequestOptions = {}): Promise<DeleteResult> {
    requireNonEmptyString(path, 'path');
    const answer = await this.api.call(WORKSPACES_OPERATIONS.deleteParent, {
      query: { path },
      decode: shape<{ deleted?: boolean }>({ deleted: 'boolean?' }),
      options,
    });
    return deleteResult(path, undefined, answer.deleted ?? true);
  }
}

function items(list: readonly WorkspaceItem[], field: string): WorkspaceItem[] {
  if (!Array.isArray(list)) throw invalid(field, 'must be an array of {path}');
  for (const [index, item] of list.entries()) requireNonEmptyString(item?.path, `${field}.${index}.path`);
  return [...list];
}
