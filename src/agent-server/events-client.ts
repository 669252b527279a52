import type { SecretRegistry } from '../core/auth.js';
import { BaseClient } from '../core/base-client.js';
import { isAPIError, isResponseValidationError } from '../core/errors.js';
import { type Credential, type RequestOptions, resolveCredential } from '../core/options.js';
import { type Page, PagedIterable } from '../core/paginate.js';
import { type Decoder, encodePath, type QueryValue } from '../core/transport.js';
import { describe, optionsObject, requireNonEmptyString, requireUuid } from '../core/validate.js';
import { decodeOwnedEvent } from '../models/decode-event.js';
import type { Event } from '../models/index.js';
import { AgentServerTransport, BaseUrlCheck, shownBaseUrl } from './base-url-check.js';
import { isNotAnAgentServerError } from './errors.js';
import { decodeCount, decodeEventPage, decodeSuccess } from './event-page.js';
import {
  type EventFilter,
  type EventSearchQuery,
  eventFilterToQuery,
  eventSearchToQuery,
} from './event-query.js';
import { invalid } from './invalid.js';
import {
  BASH_SEARCH_PATH,
  type BashLiveOptions,
  type BashLiveStream,
  bashCatchUpPageDecoder,
  bashCatchUpPages,
} from './live/bash-live.js';
import type { SubscriptionContext } from './live/context.js';
import type { Positioned } from './live/positioned.js';
import { catchUpPageDecoder } from './live/rest-catch-up.js';
import { Subscription } from './live/subscription.js';
import type { SubscribeOptions } from './live/types.js';
import { type MessageInput, toWireMessage } from './message-input.js';
import { eventNotFound, isUnknownEventIdBody } from './not-found.js';
import { type AgentServerClientOptions, agentServerClientSetup, sharedServerInfo } from './options.js';
import { decodeServerInfo, type ServerInfo, ServerInfoCache } from './server-info.js';
import { type AgentServerFeature, assertFeatureSupported } from './version-gate.js';

/** `POST /events/respond_to_confirmation` (OpenAPI ConfirmationResponseRequest). */
export interface ConfirmationResponse {
  /** true runs the pending actions; false rejects them (a UserRejectObservation each). */
  accept: boolean;
  /** Why they were rejected; the server's default is "User rejected the action.". */
  reason?: string;
}

/** Events of agent-server conversations, live or paged. */
export class EventsClient extends BaseClient {
  readonly #secrets: SecretRegistry;
  readonly #sessionApiKey: Credential | undefined;
  readonly #serverInfo: ServerInfoCache;

  constructor(options?: AgentServerClientOptions) {
    const setup = agentServerClientSetup(options);
    const transport = new AgentServerTransport(setup.transport);
    super(setup.transport, { sessionApiKey: setup.options.sessionApiKey }, transport);
    this.#secrets = setup.secrets;
    this.#sessionApiKey = setup.options.sessionApiKey;
    this.#serverInfo = sharedServerInfo(
      options,
      () =>
        new ServerInfoCache((signal) =>
          this.transport.request({
            method: 'GET',
            path: 'server_info',
            signal,
            decode: decodeServerInfo,
          }),
        ),
    );
    transport.checkBaseUrlWith(
      new BaseUrlCheck(
        (signal) => this.serverInfo(signal ? { signal } : {}),
        () => shownBaseUrl(this.baseUrl, this.#secrets.list()),
      ),
    );
  }

  /**
   * One event by id: `GET /api/conversations/{conversation_id}/events/{event_id}`.
   * Throws `NotFoundError` for an unknown conversation or event, `RequestValidationError` (before any
   * request) for a conversation id that is not a UUID or an empty event id.
   */
  async get(conversationId: string, eventId: string, options: RequestOptions = {}): Promise<Event> {
    requireUuid(conversationId, 'conversationId');
    requireNonEmptyString(eventId, 'eventId');
    return this.transport.request({
      method: 'GET',
      path: encodePath('api', 'conversations', { conversationId }, 'events', { eventId }),
      ...options,
      decode: decodeOwnedEvent,
      // The real server answers an unknown event id with 500 "Unknown event_id".
      isPermanent: (status, body) => status === 500 && isUnknownEventIdBody(body),
      mapError: (error) => (isUnknownEventIdBody(error.body) ? eventNotFound(error) : error),
    });
  }

  /**
   * Every event matching `query`, across pages (`GET …/events/search`), fetched lazily:
   * `for await (const event of events.search(id, { kind: 'ActionEvent' }))`. `.pages()` iterates the pages.
   * `kind` takes the short kind names (translated to the module paths the server needs) and
   * `limit` (the page size) is clamped to 1..100. Bad input throws RequestValidationError right away.
   */
  search(
    conversationId: string,
    query: EventSearchQuery = {},
    options: RequestOptions = {},
  ): PagedIterable<Event> {
    requireUuid(conversationId, 'conversationId');
    return this.#search(conversationId, eventSearchToQuery(query), options);
  }

  /** The pages of `search` (each `{items, nextPageId}`), for page-at-a-time UIs. */
  pages(
    conversationId: string,
    query: EventSearchQuery = {},
    options: RequestOptions = {},
  ): AsyncIterable<Page<Event>> {
    return this.search(conversationId, query, options).pages();
  }

  /** How many events match `filter` (`GET …/events/count`). */
  async count(
    conversationId: string,
    filter: EventFilter = {},
    options: RequestOptions = {},
  ): Promise<number> {
    requireUuid(conversationId, 'conversationId');
    const query = eventFilterToQuery(filter, 'filter');
    return this.transport.request({
      method: 'GET',
      path: encodePath('api', 'conversations', { conversationId }, 'events', 'count'),
      query,
      ...options,
      decode: decodeCount,
    });
  }

  /**
   * Sends a message to the conversation (`POST …/events`). With `run: true` the agent loop starts if it is not
   * running. Not retried: a repeated POST would send the message twice.
   */
  async send(conversationId: string, message: MessageInput, options: RequestOptions = {}): Promise<void> {
    requireUuid(conversationId, 'conversationId');
    const json = toWireMessage(message);
    await this.transport.request({
      method: 'POST',
      path: encodePath('api', 'conversations', { conversationId }, 'events'),
      json: { run: false, ...json },
      ...options,
      decode: decodeSuccess,
    });
  }

  /**
   * Accepts or rejects the actions waiting for confirmation (`POST …/events/respond_to_confirmation`).
   * Accepting runs them; rejecting answers each with a UserRejectObservation.
   */
  async respondToConfirmation(
    conversationId: string,
    response: ConfirmationResponse,
    options: RequestOptions = {},
  ): Promise<void> {
    requireUuid(conversationId, 'conversationId');
    if (typeof response !== 'object' || response === null || typeof response.accept !== 'boolean') {
      throw invalid('response.accept', `must be a boolean, got ${describe(response?.accept)}`);
    }
    if (response.reason !== undefined && typeof response.reason !== 'string') {
      throw invalid('response.reason', `must be a string, got ${describe(response.reason)}`);
    }
    await this.transport.request({
      method: 'POST',
      path: encodePath('api', 'conversations', { conversationId }, 'events', 'respond_to_confirmation'),
      json:
        response.reason === undefined
          ? { accept: response.accept }
          : { accept: response.accept, reason: response.reason },
      ...options,
      decode: decodeSuccess,
    });
  }

  /**
   * Follows the conversation live over `/sockets/session/{id}` (servers ≥ 1.45.0) or `/sockets/events/{id}`
   * (see `Subscription`): every event exactly once
   * and in order across reconnects, or a typed error saying why not. Returns at once; the connection opens in
   * the background (`await subscription.ready` for the first state snapshot).
   */
  subscribe(conversationId: string, options: SubscribeOptions = {}): Subscription {
    requireUuid(conversationId, 'conversationId');
    options = optionsObject(options);
    return new Subscription(
      {
        ...this.#socketAccess(),
        conversationId,
        backfill: (since, signal, maxBytes, pageLimit) => {
          const decode = catchUpPageDecoder(maxBytes !== Number.POSITIVE_INFINITY);
          return new PagedIterable<Positioned>(
            (pageId) =>
              this.transport.request({
                method: 'GET',
                path: encodePath('api', 'conversations', conversationId, 'events', 'search'),
                query: {
                  timestamp__gte: since,
                  sort_order: 'TIMESTAMP',
                  limit: pageLimit?.() ?? 100,
                  page_id: pageId,
                },
                signal,
                decode,
              }),
            { idOf: (item) => item.id },
          ).pages();
        },
        newestTimestamp: async (signal) => {
          const page = await this.transport.request({
            method: 'GET',
            path: encodePath('api', 'conversations', conversationId, 'events', 'search'),
            query: { sort_order: 'TIMESTAMP_DESC', limit: 1 },
            signal,
            decode: catchUpPageDecoder(false),
          });
          return page.items[0]?.timestamp;
        },
        probe: async (signal) => {
          try {
            await this.transport.request({
              method: 'GET',
              path: encodePath('api', 'conversations', { conversationId }),
              signal,
              retry: false,
              responseType: 'none',
            });
          } catch (error) {
            // The subscription knows a 404 as fatal and anything else as worth retrying: until it knows this
            // error too, it gets the 404 (fatal) rather than retrying a base URL that will never work.
            throw isNotAnAgentServerError(error) ? error.cause : error;
          }
        },
        readState: async (signal) => {
          const body = await this.transport.request<unknown>({
            method: 'GET',
            path: encodePath('api', 'conversations', { conversationId }),
            signal,
            retry: false,
          });
          return typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
        },
      },
      options,
    );
  }

  /**
   * `bash.live()`: follows `/sockets/bash-events` with this client's address and credentials, catching up over
   * the bash search route (`BASH_SEARCH_PATH`). `BashApi.live()` is the public face of it.
   * @internal
   */
  followBash(options: BashLiveOptions = {}): BashLiveStream {
    options = optionsObject(options);
    const search = <T>(query: Record<string, QueryValue>, signal: AbortSignal, decode: Decoder<T>) =>
      this.transport.request({ method: 'GET', path: BASH_SEARCH_PATH, query, signal, retry: false, decode });
    return new Subscription(
      {
        ...this.#socketAccess(),
        socket: 'bash-events',
        conversationId: 'bash-events',
        backfill: (since, signal, maxBytes, pageLimit) => {
          const decode = bashCatchUpPageDecoder(maxBytes !== Number.POSITIVE_INFINITY);
          return bashCatchUpPages(
            (pageId) =>
              search(
                {
                  timestamp__gte: since,
                  sort_order: 'TIMESTAMP',
                  limit: pageLimit?.() ?? 100,
                  page_id: pageId,
                },
                signal,
                decode,
              ),
            maxBytes,
          );
        },
        newestTimestamp: async (signal) => {
          const page = await search(
            { sort_order: 'TIMESTAMP_DESC', limit: 1 },
            signal,
            bashCatchUpPageDecoder(false),
          );
          return page.items[0]?.timestamp;
        },
        probe: async (signal) => {
          try {
            await search({ limit: 1 }, signal, bashCatchUpPageDecoder(false));
          } catch (error) {
            throw isNotAnAgentServerError(error) ? error.cause : error;
          }
        },
        // The bash socket has no conversation state: the stream is ready once its socket is open.
        readState: async () => ({}),
      },
      options,
    ) as unknown as BashLiveStream;
  }

  /** What every live stream of this client shares: the address, the credentials and the server's version. */
  #socketAccess(): Pick<
    SubscriptionContext,
    'baseUrl' | 'logger' | 'secrets' | 'serverVersion' | 'sessionApiKey'
  > {
    return {
      baseUrl: this.baseUrl,
      logger: this.transport.logger,
      secrets: this.#secrets.list,
      serverVersion: async (signal, refresh) => {
        try {
          return (await this.serverInfo({ signal, refresh })).version;
        } catch (error) {
          // An answer that is not server info (a proxy's 404, …) means "version unknown": use what every
          // version accepts. No answer at all means the server is down: the attempt fails and is retried.
          if (isAPIError(error) || isResponseValidationError(error)) return undefined;
          throw error;
        }
      },
      sessionApiKey: async () => {
        const key = await resolveCredential(this.#sessionApiKey);
        this.#secrets.add(key);
        return key || undefined;
      },
    };
  }

  /** `GET /server_info`, fetched once per client and cached; `refresh: true` fetches again. */
  serverInfo(options: { signal?: AbortSignal; refresh?: boolean } = {}): Promise<ServerInfo> {
    options = optionsObject(options);
    return this.#serverInfo.get(options);
  }

  /**
   * Throws `AgentServerVersionError` (code `AGENT_SERVER_VERSION_TOO_OLD`) unless the server's version is at
   * least the feature's minimum; an unparseable or missing version counts as too old.
   */
  async requireFeature(feature: AgentServerFeature, options: { signal?: AbortSignal } = {}): Promise<void> {
    const info = await this.serverInfo(options);
    assertFeatureSupported(info.version, feature);
  }

  #search(
    conversationId: string,
    query: Record<string, QueryValue>,
    options: RequestOptions,
  ): PagedIterable<Event> {
    return new PagedIterable<Event>(
      (pageId) =>
        this.transport.request({
          method: 'GET',
          path: encodePath('api', 'conversations', { conversationId }, 'events', 'search'),
          query: { ...query, page_id: pageId },
          ...options,
          decode: decodeEventPage,
        }),
      { idOf: (event) => (typeof event.id === 'string' ? event.id : undefined) },
    );
  }
}
