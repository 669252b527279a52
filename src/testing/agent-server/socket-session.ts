import type { AgentRunner } from './agent-runner.js';
import { filterEvents, pageOf, sortByTimestamp } from './event-search.js';
import type { AgentServerStore, StoredEvent } from './store.js';
import { isUuid } from './store.js';
import { versionAtLeast } from './versions.js';

export interface SocketSimulationOptions {
  store: AgentServerStore;
  runner: AgentRunner;
  /** Keys the server accepts; none means the server is unsecured. */
  sessionApiKey?: string | undefined;
  /** The simulated server version: decides auth methods, resend modes and frame details. Default: the newest real version the conformance suite runs (`DEFAULT_AGENT_SERVER_VERSION`). */
  version?: string | undefined;
  /** Subscribers per conversation before close 1013. Default: no cap. */
  maxSubscribersPerConversation?: number | undefined;
  /** How long the server waits for the auth frame. Default 10 000 ms. */
  authTimeoutMs?: number | undefined;
}

/** One side of a socket: what a session needs from the `ws` package or msw. */
export interface SocketPeer {
  send(text: string): void;
  close(code: number, reason: string): void;
}

/** Whether a handshake is accepted; `refuse` is the anchor's close-before-accept, an HTTP 403 to the client. */
export function decideHandshake(
  url: URL,
  headerKey: string | undefined,
  options: SocketSimulationOptions,
): 'accept' | 'refuse' {
  if (options.sessionApiKey === undefined) return 'accept';
  const legacy = legacyKey(url, headerKey, options.version);
  if (legacy !== undefined) return legacy === options.sessionApiKey ? 'accept' : 'refuse';
  return atLeast(options.version, [1, 18, 1]) ? 'accept' : 'refuse';
}

/** True when `url` is the session socket, `/sockets/session/{id}` (servers ≥ 1.45.0). */
export function isSessionSocketPath(url: URL): boolean {
  return /^\/sockets\/session\/[^/]+$/.test(url.pathname);
}

/**
 * The server side of `/sockets/events/{conversation_id}` or `/sockets/session/{conversation_id}` after the
 * handshake, as the real agent server runs it (and its SDK's `sockets.py` expects): first-message auth when no key came with the handshake, 4004 for an
 * unknown conversation, 1013 above the subscriber cap, a `full_state` snapshot first, then the requested
 * resend page by page while live events interleave, and client frames turned into user messages that run
 * the agent.
 *
 * On `/sockets/session` (servers ≥ 1.45.0), as the newest real server does: the same auth and close codes, then
 * a `sync` envelope, the persisted events with `seq > after_seq` as `durable` envelopes (none when `after_seq`
 * is omitted; all for -1), a `transient` `full_state`, then live `durable` (with `seq`, the index in the log)
 * and `transient` envelopes; a bad client frame gets an `error` envelope.
 */
export class EventSocketSession {
  readonly #peer: SocketPeer;
  readonly #url: URL;
  readonly #options: SocketSimulationOptions;
  readonly #conversationId: string;
  #authenticated: boolean;
  #closed = false;
  #unsubscribe: (() => void) | undefined;
  #authTimer: ReturnType<typeof setTimeout> | undefined;
  #resendTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #session: boolean;

  constructor(peer: SocketPeer, url: URL, headerKey: string | undefined, options: SocketSimulationOptions) {
    this.#peer = peer;
    this.#url = url;
    this.#options = options;
    this.#conversationId = decodeURIComponent(url.pathname.split('/').pop() ?? '');
    this.#session = isSessionSocketPath(url);
    this.#authenticated =
      options.sessionApiKey === undefined ||
      legacyKey(url, headerKey, options.version) === options.sessionApiKey;
  }

  /** Call once the socket is open. */
  start(): void {
    if (this.#authenticated) {
      this.#subscribe();
      return;
    }
    this.#authTimer = setTimeout(
      () => this.#close(4001, 'Authentication failed'),
      this.#options.authTimeoutMs ?? 10_000,
    );
  }

  onMessage(text: string): void {
    if (this.#closed) return;
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
    if (!this.#authenticated) {
      const frame = data as { type?: unknown; session_api_key?: unknown } | undefined;
      clearTimeout(this.#authTimer);
      if (frame?.type === 'auth' && frame.session_api_key === this.#options.sessionApiKey) {
        this.#authenticated = true;
        this.#subscribe();
      } else {
        this.#close(4001, 'Authentication failed');
      }
      return;
    }
    const record = data as { type?: unknown; role?: unknown; content?: unknown } | undefined;
    if (record?.type === 'auth' && atLeast(this.#options.version, [1, 22, 1])) return;
    if (typeof record?.role !== 'string' || !Array.isArray(record.content)) {
      if (this.#session) {
        this.#sendRaw({ type: 'error', code: 'ValidationError', detail: 'Invalid message frame' });
        return;
      }
      // Bad frames get a ServerErrorEvent; before, they were only logged.
      if (atLeast(this.#options.version, [1, 16, 0])) {
        this.#send({
          id: crypto.randomUUID(),
          timestamp: this.#options.store.timestamp(),
          source: 'environment',
          kind: 'ServerErrorEvent',
          code: 'ValidationError',
          detail: 'Invalid message frame',
        });
      }
      return;
    }
    const content = record.content as { text?: unknown }[];
    const body = content.map((item) => (typeof item?.text === 'string' ? item.text : '')).join(' ');
    const store = this.#options.store;
    store.publish(
      this.#conversationId,
      store.message(body, record.role === 'user' ? 'user' : 'agent', record.role),
    );
    // A message over the socket always runs the agent.
    this.#options.runner.run(this.#conversationId);
  }

  onClose(): void {
    this.#closed = true;
    clearTimeout(this.#authTimer);
    clearTimeout(this.#resendTimer);
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }

  #subscribe(): void {
    const { store } = this.#options;
    const conversation = isUuid(this.#conversationId)
      ? store.getConversation(this.#conversationId)
      : undefined;
    if (!conversation) {
      this.#close(4004, 'Conversation not found');
      return;
    }
    const cap = this.#options.maxSubscribersPerConversation;
    if (
      cap !== undefined &&
      atLeast(this.#options.version, [1, 22, 1]) &&
      store.subscriberCount(conversation.id) >= cap
    ) {
      this.#close(1013, 'Too many connections for this conversation');
      return;
    }
    if (this.#session) {
      this.#subscribeSession(conversation.id);
      return;
    }
    this.#unsubscribe = store.subscribe(conversation.id, (event) => this.#send(event));
    this.#send(store.fullState(conversation.id));
    const since = this.#resendSince();
    if (since !== undefined) this.#resendPage(conversation.id, since === 'all' ? undefined : since, null);
  }

  /** The session protocol: sync, the replay after `after_seq`, a transient snapshot, then live envelopes. */
  #subscribeSession(conversationId: string): void {
    const { store } = this.#options;
    const conversation = store.getConversation(conversationId);
    if (!conversation) return;
    const raw = this.#url.searchParams.get('after_seq');
    const afterSeq = raw === null || !/^-?\d+$/.test(raw) ? undefined : Number(raw);
    // The replay runs synchronously here, so no live event can interleave with it.
    this.#unsubscribe = store.subscribe(conversationId, (event, persisted) => {
      if (persisted)
        this.#sendRaw({ type: 'durable', seq: conversation.events.length - 1, event: this.#dump(event) });
      else this.#sendRaw({ type: 'transient', event: this.#dump(event) });
    });
    const last = conversation.events.length - 1;
    if (afterSeq === undefined) {
      this.#sendRaw({ type: 'sync', through_seq: last });
    } else {
      this.#sendRaw({ type: 'sync', from_seq: afterSeq, through_seq: last });
      for (let seq = Math.max(0, afterSeq + 1); seq <= last; seq += 1) {
        this.#sendRaw({ type: 'durable', seq, event: this.#dump(conversation.events[seq] as StoredEvent) });
      }
    }
    this.#sendRaw({ type: 'transient', event: this.#dump(store.fullState(conversationId)) });
  }

  #dump(event: StoredEvent): unknown {
    return atLeast(this.#options.version, [1, 31, 2]) ? withoutNulls(event) : event;
  }

  #sendRaw(value: unknown): void {
    if (this.#closed) return;
    try {
      this.#peer.send(JSON.stringify(value));
    } catch {
      this.onClose();
    }
  }

  /** `resend_mode=all|since` from 1.15.0; `resend_all=true` on every version. */
  #resendSince(): 'all' | string | undefined {
    const params = this.#url.searchParams;
    const mode = atLeast(this.#options.version, [1, 15, 0]) ? params.get('resend_mode') : null;
    if (mode === 'all') return 'all';
    if (mode === 'since') return params.get('after_timestamp') ?? undefined;
    return params.get('resend_all') === 'true' ? 'all' : undefined;
  }

  /** One page of the resend, then the next on a later turn, so live events interleave. */
  #resendPage(conversationId: string, since: string | undefined, pageId: string | null): void {
    if (this.#closed) return;
    const conversation = this.#options.store.getConversation(conversationId);
    if (!conversation) return;
    const events = sortByTimestamp(filterEvents(conversation.events, { timestampGte: since }), false);
    const page = pageOf(events, (event) => event.id, pageId, 100);
    for (const event of page.items) this.#send(event);
    if (page.next_page_id === null) return;
    const next = page.next_page_id;
    this.#resendTimer = setTimeout(() => this.#resendPage(conversationId, since, next), 0);
  }

  #send(event: StoredEvent): void {
    if (this.#closed) return;
    // Frames are dumped with exclude_none.
    const value = atLeast(this.#options.version, [1, 31, 2]) ? withoutNulls(event) : event;
    try {
      this.#peer.send(JSON.stringify(value));
    } catch {
      this.onClose();
    }
  }

  #close(code: number, reason: string): void {
    if (this.#closed) return;
    this.onClose();
    try {
      this.#peer.close(code, reason);
    } catch {
      // Already closed.
    }
  }
}

/** The query key (every version), else the header (from 1.12.0). */
export function legacyKey(
  url: URL,
  headerKey: string | undefined,
  version: string | undefined,
): string | undefined {
  const query = url.searchParams.get('session_api_key');
  if (query !== null) return query;
  return atLeast(version, [1, 12, 0]) ? headerKey : undefined;
}

const atLeast = versionAtLeast;

function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, item]) => item !== null)
      .map(([key, item]) => [key, withoutNulls(item)]),
  );
}
