import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../core/options.js';
import type { Page } from '../../core/paginate.js';
import type { QueryValue } from '../../core/transport.js';
import { optionsObject, requireUuid } from '../../core/validate.js';
import { invalid } from '../invalid.js';
import type { ApiContext } from './api-context.js';
import { arrayOf, shape } from './decode.js';
import { baseName, type UploadData, uploadForm } from './file-body.js';
import { type Operation, op } from './operation.js';
import { optionalBoolean, optionalInt, optionalString, requireAbsolutePath } from './paths.js';

const R = '/api/conversations/{runtime_conversation_id}';

/** Each method and its operation: server-wide first, then the conversation-runtime variant (1.58.0). */
export const FILES_OPERATIONS = {
  upload: [op('POST', '/api/file/upload', '1.14.0'), op('POST', `${R}/file/upload`, '1.58.0')],
  download: [op('GET', '/api/file/download', '1.14.0'), op('GET', `${R}/file/download`, '1.58.0')],
  downloadStream: [op('GET', '/api/file/download', '1.14.0'), op('GET', `${R}/file/download`, '1.58.0')],
  createDirectory: [
    op('POST', '/api/file/create_directory', '1.44.1'),
    op('POST', `${R}/file/create_directory`, '1.58.0'),
  ],
  downloadTrajectory: [
    op('GET', '/api/file/download-trajectory/{conversation_id}'),
    op('GET', `${R}/file/download-trajectory/{conversation_id}`, '1.58.0'),
  ],
  archive: [op('GET', '/api/file/archive', '1.31.1'), op('GET', `${R}/file/archive`, '1.58.0')],
  home: op('GET', '/api/file/home', '1.31.1'),
  searchSubdirectories: op('GET', '/api/file/search_subdirs', '1.31.1'),
} as const;

/** OpenAPI `FileUploadResult` (1.58.0 and later); older servers answer `Success`, without `file_size`. */
export interface FileUploadResult {
  success: boolean;
  /** Bytes written to the destination; absent before 1.58.0, whose answer says only that the file was stored. */
  file_size?: number;
}

export interface DownloadOptions extends RequestOptions {
  /** Largest file accepted, in bytes (default: the client's `maxResponseBytes`, 16 MiB). */
  maxBytes?: number;
}

export interface ArchiveOptions extends DownloadOptions {
  /** `git-delta` (a patch of the working-tree changes, the server's default) or `tar.gz`. */
  format?: 'git-delta' | 'tar.gz';
  /** For `git-delta`: the ref to diff against. */
  baseRef?: string;
  /** Apply the server's default excludes (node_modules/, .venv/, …); default true. */
  useDefaultExcludes?: boolean;
  /** More glob patterns to leave out. */
  exclude?: readonly string[];
}

/** `GET /api/file/home`. */
export interface HomeDirectory {
  home: string;
  favorites?: { label: string; path: string }[];
  locations?: { label: string; path: string }[];
  [field: string]: unknown;
}

/** One item of `GET /api/file/search_subdirs` (OpenAPI `SubdirectoryPage`). */
export interface Subdirectory {
  name: string;
  path: string;
  [field: string]: unknown;
}

export interface SubdirectorySearch {
  pageId?: string;
  /** Page size. */
  limit?: number;
  includeHidden?: boolean;
}

// `file_size` is optional because servers before 1.58.0 answer `{success: true}`: the file is stored by then, so
// rejecting the answer would report a failed upload that did happen.
const decodeUpload = shape<FileUploadResult>({ success: 'boolean?', file_size: 'number?' });
const decodeHome = shape<HomeDirectory>({ home: 'string', favorites: 'array?', locations: 'array?' });
const decodeSubdirs = shape<{ items: Subdirectory[]; next_page_id?: string | null }>({
  items: 'array',
  next_page_id: 'string?',
});
const checkSubdirItems = arrayOf(shape<Subdirectory>({ name: 'string', path: 'string' }));

/**
 * Files of the agent server's machine (`/api/file/…`), or of one conversation's runtime
 * (`/api/conversations/{id}/file/…`, 1.58.0) when reached through `client.conversation(id).files`.
 * Uploads and downloads are binary safe: bytes go out and come back exactly as they are.
 */
export class FilesApi {
  readonly #api: ApiContext;
  readonly #runtime: string | undefined;

  constructor(api: ApiContext, runtimeConversationId?: string) {
    this.#api = api;
    this.#runtime = runtimeConversationId;
  }

  /** Writes `data` to the absolute `path` (parent folders are created), replacing any file there. */
  async upload(path: string, data: UploadData, options: RequestOptions = {}): Promise<FileUploadResult> {
    requireAbsolutePath(path, 'path');
    const body = await uploadForm(data, baseName(path));
    return this.#api.call(this.#pick(FILES_OPERATIONS.upload), {
      params: this.#params(),
      query: { path },
      body,
      decode: decodeUpload,
      options,
    });
  }

  /** The file's exact bytes. `NotFoundError` when there is none. */
  async download(path: string, options: DownloadOptions = {}): Promise<Uint8Array> {
    requireAbsolutePath(path, 'path');
    return this.#bytes(FILES_OPERATIONS.download, { path }, {}, options);
  }

  /**
   * The file as a stream of bytes, not buffered: for files larger than memory should hold, or to pipe into a
   * file or a response. The client's `maxResponseBytes` does not apply; the per-attempt `timeout` covers the
   * headers only. Cancel the stream (or abort `signal`) to stop reading.
   */
  async downloadStream(path: string, options: RequestOptions = {}): Promise<ReadableStream<Uint8Array>> {
    requireAbsolutePath(path, 'path');
    return this.#api.call<ReadableStream<Uint8Array>>(this.#pick(FILES_OPERATIONS.download), {
      params: this.#params(),
      query: { path },
      responseType: 'stream',
      headers: { accept: 'application/octet-stream, */*' },
      options,
    });
  }

  /** The file as a `Blob` (for a browser's object URL or a `FormData`). */
  async downloadBlob(path: string, options: DownloadOptions = {}): Promise<Blob> {
    const bytes = await this.download(path, options);
    return new Blob([bytes.slice()]);
  }

  /** The file decoded as UTF-8 text. */
  async downloadText(path: string, options: DownloadOptions = {}): Promise<string> {
    return new TextDecoder().decode(await this.download(path, options));
  }

  /** Creates a folder (and its parents). */
  async createDirectory(path: string, options: RequestOptions = {}): Promise<void> {
    requireAbsolutePath(path, 'path');
    await this.#api.call(this.#pick(FILES_OPERATIONS.createDirectory), {
      params: this.#params(),
      query: { path },
      options,
    });
  }

  /** The conversation's persisted trajectory as a zip archive. */
  async downloadTrajectory(conversationId: string, options: DownloadOptions = {}): Promise<Uint8Array> {
    requireUuid(conversationId, 'conversationId');
    return this.#bytes(FILES_OPERATIONS.downloadTrajectory, {}, { conversation_id: conversationId }, options);
  }

  /** A folder as a `git-delta` patch (the default) or a `tar.gz` archive. */
  async archive(path: string, options: ArchiveOptions = {}): Promise<Uint8Array> {
    requireAbsolutePath(path, 'path');
    const { format, baseRef, useDefaultExcludes, exclude } = options;
    if (format !== undefined && format !== 'git-delta' && format !== 'tar.gz') {
      throw invalid('options.format', `must be git-delta or tar.gz, got ${JSON.stringify(format)}`);
    }
    const query = {
      path,
      format,
      base_ref: optionalString(baseRef, 'options.baseRef'),
      use_default_excludes: optionalBoolean(useDefaultExcludes, 'options.useDefaultExcludes'),
      exclude,
    };
    return this.#bytes(FILES_OPERATIONS.archive, query, {}, options);
  }

  /** The server user's home folder, favourites and locations (server-wide only). */
  async home(options: RequestOptions = {}): Promise<HomeDirectory> {
    return this.#api.call(FILES_OPERATIONS.home, { decode: decodeHome, options });
  }

  /** One page of the sub-folders of `path` (server-wide only). */
  async searchSubdirectories(
    path: string,
    search: SubdirectorySearch = {},
    options: RequestOptions = {},
  ): Promise<Page<Subdirectory>> {
    requireAbsolutePath(path, 'path');
    const page = await this.#api.call(FILES_OPERATIONS.searchSubdirectories, {
      query: {
        path,
        page_id: optionalString(search.pageId, 'search.pageId'),
        limit: optionalInt(search.limit, 'search.limit'),
        include_hidden: optionalBoolean(search.includeHidden, 'search.includeHidden'),
      },
      decode: (input) => {
        const outer = decodeSubdirs(input);
        if (!outer.success) return outer;
        const items = checkSubdirItems(outer.data.items);
        if (!items.success)
          return {
            success: false,
            error: { issues: items.error.issues.map((i) => ({ ...i, path: ['items', ...i.path] })) },
          };
        return outer;
      },
      options,
    });
    return { items: page.items, nextPageId: page.next_page_id ?? null };
  }

  #bytes(
    operations: readonly [Operation, Operation],
    query: Record<string, QueryValue>,
    params: Record<string, string>,
    options: DownloadOptions,
  ): APIPromise<Uint8Array> {
    const { maxBytes, ...rest } = optionsObject(options);
    optionalInt(maxBytes, 'options.maxBytes');
    return this.#api.call<Uint8Array>(this.#pick(operations), {
      params: { ...this.#params(), ...params },
      query,
      responseType: 'bytes',
      headers: { accept: 'application/octet-stream, */*' },
      ...(maxBytes ? { maxResponseBytes: maxBytes } : {}),
      options: rest,
    });
  }

  #pick<T>(operations: readonly [T, T]): T {
    return this.#runtime === undefined ? operations[0] : operations[1];
  }

  #params(): Record<string, string> {
    return this.#runtime === undefined ? {} : { runtime_conversation_id: this.#runtime };
  }
}
