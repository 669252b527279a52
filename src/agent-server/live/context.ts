import type { SafeLogger } from '../../core/logger.js';
import type { Page } from '../../core/paginate.js';
import type { Positioned } from './positioned.js';

/** What the live layer needs from its client: addresses, credentials and the REST reads it falls back on. */
export interface SubscriptionContext {
  baseUrl: string;
  /**
   * The socket to follow instead of the conversation's: `bash-events` (`/sockets/bash-events`; `conversationId`
   * then only names the stream in logs, and the REST reads are the bash search route's).
   */
  socket?: 'bash-events';
  conversationId: string;
  logger: SafeLogger;
  secrets: () => readonly string[];
  /**
   * The server's version; `undefined` when `/server_info` gave none. Throws when the server is unreachable.
   * `refresh`: read it again instead of the cached answer (after a failed attempt: the server may have been
   * rolled back or upgraded).
   */
  serverVersion(signal: AbortSignal, refresh?: boolean): Promise<string | undefined>;
  sessionApiKey(): Promise<string | undefined>;
  /**
   * Persisted events with timestamp ≥ `since` (all when undefined), oldest first, as positioned items
   * (`maxBytes`: the byte bound, `Infinity` for none; with one, their size is filled in; `pageLimit`: the events
   * to ask for, called for each page).
   */
  backfill(
    since: string | undefined,
    signal: AbortSignal,
    maxBytes: number,
    pageLimit?: () => number,
  ): AsyncIterable<Page<Positioned>>;
  /** The timestamp of the newest persisted event (`undefined`: none), as the server wrote it. */
  newestTimestamp(signal: AbortSignal): Promise<string | undefined>;
  /** A cheap authenticated REST read of the conversation: throws the typed API error the server answers. */
  probe(signal: AbortSignal): Promise<void>;
  /** The conversation read over REST (its state fields), for `ready` when the socket gives no state in time. */
  readState(signal: AbortSignal): Promise<Record<string, unknown>>;
}
