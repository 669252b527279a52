import { CollectionLimitError } from '../../core/errors.js';
import type { RequestOptions } from '../../core/options.js';
import { type Page, PagedIterable } from '../../core/paginate.js';
import { optionsObject, requireNonEmptyString } from '../../core/validate.js';
import { SubscriptionConfigurationError } from '../errors.js';
import { invalid } from '../invalid.js';
import type { BashLiveOptions, BashLiveStream } from '../live/bash-live.js';
import type { ApiContext } from './api-context.js';
import {
  type BashCommand,
  type BashEvent,
  type BashOutput,
  bashPageCursor,
  decodeCommand,
  decodeEvent,
  decodeOutput,
} from './bash-events.js';
import { shape } from './decode.js';
import { op } from './operation.js';
import { optionalInt, optionalString } from './paths.js';

const R = '/api/conversations/{runtime_conversation_id}';

/** Each method and its operation: server-wide first, then the conversation-runtime variant (1.58.0). */
export const BASH_OPERATIONS = {
  start: [op('POST', '/api/bash/start_bash_command'), op('POST', `${R}/bash/start_bash_command`, '1.58.0')],
  execute: [
    op('POST', '/api/bash/execute_bash_command'),
    op('POST', `${R}/bash/execute_bash_command`, '1.58.0'),
  ],
  search: [op('GET', '/api/bash/bash_events/search'), op('GET', `${R}/bash/bash_events/search`, '1.58.0')],
  get: [
    op('GET', '/api/bash/bash_events/{event_id}'),
    op('GET', `${R}/bash/bash_events/{event_id}`, '1.58.0'),
  ],
  clear: [op('DELETE', '/api/bash/bash_events'), op('DELETE', `${R}/bash/bash_events`, '1.58.0')],
  stop: [
    op('POST', '/api/bash/bash_commands/{command_id}/stop', '1.58.0'),
    op('POST', `${R}/bash/bash_commands/{command_id}/stop`, '1.58.0'),
  ],
} as const;

/** OpenAPI `ExecuteBashRequest`. */
export interface BashCommandRequest {
  command: string;
  /** Working folder (the server's default when omitted). */
  cwd?: string;
  /** Most seconds the command may run (server default 300). */
  timeout?: number;
}

/** Default cap of `bash.output()` on chunks. */
export const DEFAULT_MAX_CHUNKS = 100_000;
/** Default cap of `bash.output()` on stdout and stderr characters together (16 Mi). */
export const DEFAULT_MAX_CHARS = 16 * 1024 * 1024;

/** Options of `bash.output()`: a call's options plus its caps. */
export interface BashOutputOptions extends RequestOptions {
  /** Most chunks gathered; more is `CollectionLimitError`. Default 100 000. */
  maxChunks?: number;
  /** Most stdout and stderr characters gathered; more is `CollectionLimitError`. Default 16 Mi. */
  maxChars?: number;
}

export interface BashEventSearch {
  kind?: 'BashCommand' | 'BashOutput';
  commandId?: string;
  /** ISO date-time bounds. */
  timestampGte?: string;
  timestampLt?: string;
  /** Only outputs with `order` above this (to poll for new output). */
  orderGt?: number;
  sortOrder?: 'TIMESTAMP' | 'TIMESTAMP_DESC';
  /** Page size, 1..100. */
  limit?: number;
}

const decodePage = shape<{ items: BashEvent[]; next_page_id?: string | null }>({
  items: 'array',
  next_page_id: 'string?',
});
const decodeCleared = shape<Record<string, number>>();

/**
 * Shell commands on the agent server (`/api/bash/…`), or in one conversation's runtime (1.58.0) through
 * `client.conversation(id).bash`. `execute` waits for the command; `start` returns at once and the output
 * arrives as `BashOutput` events (`search`, `output`).
 */
export class BashApi {
  readonly #api: ApiContext;
  readonly #runtime: string | undefined;
  readonly #follow: ((options: BashLiveOptions) => BashLiveStream) | undefined;

  constructor(
    api: ApiContext,
    runtimeConversationId?: string,
    follow?: (options: BashLiveOptions) => BashLiveStream,
  ) {
    this.#api = api;
    this.#runtime = runtimeConversationId;
    this.#follow = follow;
  }

  /**
   * Follows `/sockets/bash-events` live: every `BashCommand` and `BashOutput` exactly once, in order, across
   * reconnects (a REST catch-up over the bash search route fills what a drop missed). The socket is the
   * server's only bash stream (it has no per-conversation variant), so a conversation handle's `bash.live()`
   * follows it too. Returns at once; `history: true` starts with the stored bash events.
   */
  live(options: BashLiveOptions = {}): BashLiveStream {
    if (this.#follow === undefined)
      throw new SubscriptionConfigurationError('This BashApi was made without a live connection');
    return this.#follow(options);
  }

  /** Starts a command and returns at once. Not retried (it would run twice). */
  async start(request: BashCommandRequest | string, options: RequestOptions = {}): Promise<BashCommand> {
    return this.#api.call(this.#pick(BASH_OPERATIONS.start), {
      params: this.#params(),
      json: commandBody(request),
      decode: decodeCommand,
      options,
    });
  }

  /**
   * Runs a command and resolves with its output once it ends or its `timeout` (seconds) passes (then
   * `exit_code` is null). Give the call a `timeout` (ms) above the command's. Not retried.
   */
  async execute(request: BashCommandRequest | string, options: RequestOptions = {}): Promise<BashOutput> {
    return this.#api.call(this.#pick(BASH_OPERATIONS.execute), {
      params: this.#params(),
      json: commandBody(request),
      decode: decodeOutput,
      options,
    });
  }

  /** Every bash event matching `query`, across pages, fetched lazily; `.pages()` iterates pages. */
  search(query: BashEventSearch = {}, options: RequestOptions = {}): PagedIterable<BashEvent> {
    query = optionsObject(query, 'query');
    const wire = {
      kind__eq: query.kind,
      command_id__eq: optionalString(query.commandId, 'query.commandId'),
      timestamp__gte: optionalString(query.timestampGte, 'query.timestampGte'),
      timestamp__lt: optionalString(query.timestampLt, 'query.timestampLt'),
      order__gt: optionalInt(query.orderGt, 'query.orderGt', -1),
      sort_order: query.sortOrder,
      limit: optionalInt(query.limit, 'query.limit', 1, 100),
    };
    if (wire.kind__eq !== undefined && wire.kind__eq !== 'BashCommand' && wire.kind__eq !== 'BashOutput') {
      throw invalid('query.kind', 'must be BashCommand or BashOutput');
    }
    return new PagedIterable<BashEvent>(
      async (pageId): Promise<Page<BashEvent>> => {
        const page = await this.#api.call(this.#pick(BASH_OPERATIONS.search), {
          params: this.#params(),
          query: { ...wire, page_id: pageId },
          decode: decodePage,
          options,
        });
        return { items: page.items, nextPageId: page.next_page_id ?? null };
      },
      bashPageCursor((event) => event.id),
    );
  }

  /**
   * The output chunks of one command, in order. Gathers every page, within caps (a server that keeps
   * sending pages must not fill memory): `maxChunks` (default 100 000) and `maxChars` of stdout and stderr
   * together (default 16 Mi characters); past either, `CollectionLimitError`.
   */
  async output(commandId: string, options: BashOutputOptions = {}): Promise<BashOutput[]> {
    requireNonEmptyString(commandId, 'commandId');
    const {
      maxChunks = DEFAULT_MAX_CHUNKS,
      maxChars = DEFAULT_MAX_CHARS,
      ...request
    } = optionsObject(options);
    const limit = (value: unknown, field: string) => {
      if (!Number.isSafeInteger(value) || (value as number) < 1)
        throw invalid(field, 'must be a positive integer');
    };
    limit(maxChunks, 'options.maxChunks');
    limit(maxChars, 'options.maxChars');
    const chunks: BashOutput[] = [];
    let chars = 0;
    for await (const event of this.search({ kind: 'BashOutput', commandId }, request)) {
      if (event.kind !== 'BashOutput') continue;
      chunks.push(event);
      chars += (event.stdout?.length ?? 0) + (event.stderr?.length ?? 0);
      if (chunks.length > maxChunks) {
        throw new CollectionLimitError('bash.output()', maxChunks, 'items', 'maxChunks');
      }
      if (chars > maxChars)
        throw new CollectionLimitError('bash.output()', maxChars, 'characters', 'maxChars');
    }
    return chunks.sort((a, b) => a.order - b.order);
  }

  /** One bash event by id; `NotFoundError` when unknown. */
  async get(eventId: string, options: RequestOptions = {}): Promise<BashEvent> {
    requireNonEmptyString(eventId, 'eventId');
    return this.#api.call(this.#pick(BASH_OPERATIONS.get), {
      params: { ...this.#params(), event_id: eventId },
      decode: decodeEvent,
      options,
    });
  }

  /** Deletes every stored bash event; resolves with the server's counts (e.g. `{deleted: n}`). */
  async clear(options: RequestOptions = {}): Promise<Record<string, number>> {
    return this.#api.call(this.#pick(BASH_OPERATIONS.clear), {
      params: this.#params(),
      decode: decodeCleared,
      options,
    });
  }

  /** Stops a running command (1.58.0). */
  async stop(commandId: string, options: RequestOptions = {}): Promise<void> {
    requireNonEmptyString(commandId, 'commandId');
    await this.#api.call(this.#pick(BASH_OPERATIONS.stop), {
      params: { ...this.#params(), command_id: commandId },
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

function commandBody(request: BashCommandRequest | string): BashCommandRequest {
  const value = typeof request === 'string' ? { command: request } : request;
  if (typeof value !== 'object' || value === null) throw invalid('request', 'must be a command or an object');
  requireNonEmptyString(value.command, 'request.command');
  optionalString(value.cwd, 'request.cwd');
  optionalInt(value.timeout, 'request.timeout');
  const body: BashCommandRequest = { command: value.command };
  if (value.cwd !== undefined) body.cwd = value.cwd;
  if (value.timeout !== undefined) body.timeout = value.timeout;
  return body;
}
