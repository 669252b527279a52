import type { PaginateOptions } from '../../core/paginate.js';
import { shape } from './decode.js';

/**
 * The bash events as the server stores and sends them: the REST routes (`bash.start`, `bash.search`, …) and
 * `/sockets/bash-events` (the live layer's bash adapter) share these types and decoders, so neither side has to
 * import the other.
 */

/** OpenAPI `BashCommand`: a command the server started. */
export interface BashCommand {
  kind: 'BashCommand';
  id: string;
  timestamp: string;
  command: string;
  cwd?: string | null;
  timeout?: number;
}

/** OpenAPI `BashOutput`: a chunk of a command's output; `exit_code` null while it still runs. */
export interface BashOutput {
  kind: 'BashOutput';
  id: string;
  timestamp: string;
  command_id: string;
  /** Sequence of this chunk within the command, from 0. */
  order: number;
  exit_code?: number | null;
  stdout?: string | null;
  stderr?: string | null;
}

export type BashEvent = BashCommand | BashOutput;

export const decodeCommand = shape<BashCommand>({ kind: 'string', id: 'string', command: 'string' });
export const decodeOutput = shape<BashOutput>({ kind: 'string', id: 'string', command_id: 'string' });
export const decodeEvent = shape<BashEvent>({ kind: 'string', id: 'string' });

/**
 * How the bash search's pages follow each other, on every version (1.11.4 to 1.58.2): `next_page_id` is the file
 * name of the next page's first event, `<timestamp>_<kind>_[<command id>_]<event id>`; its last part is that
 * event's id.
 */
export function bashPageCursor<T>(idOf: (item: T) => string | undefined): PaginateOptions<T> {
  return { idOf, normalizeId: (id) => id.slice(id.lastIndexOf('_') + 1) };
}
