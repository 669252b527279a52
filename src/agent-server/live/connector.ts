import {
  APIConnectionError,
  APIUserAbortError,
  isAPIConnectionError,
  isRequestValidationError,
} from '../../core/errors.js';
import { redactText, redactUrl } from '../../core/redact.js';
import type { ConversationStateMirror } from '../../models/index.js';
import { isAgentServerVersionError, SubscriptionError, SubscriptionFrameTooLargeError } from '../errors.js';
import { parseAgentServerVersion } from '../version-gate.js';
import {
  type CloseDecision,
  classifyClose,
  classifyProbeFailure,
  frameTooLargeText,
  gaveUp,
  RefusalCounter,
  type Retry,
} from './close-classifier.js';
import { type Connection, dropConnection, newConnection } from './connection.js';
import { ConnectionFlow } from './connection-flow.js';
import { connectionProtocol, connectionUrl } from './connection-url.js';
import type { SubscriptionContext } from './context.js';
import { deadline } from './deadline.js';
import type { DeliveryCore } from './delivery-core.js';
import { ReadyWaiters } from './ready-waiters.js';
import { ReconnectPolicy } from './reconnect-policy.js';
import { RepeatedFailure, repeatedFailureError } from './repeated-failure.js';
import type { SafeEmitter } from './safe-emitter.js';
import { authFrame, resolveAuth } from './socket-auth.js';
import { openSocket } from './socket-opener.js';
import { startPoint } from './start-point.js';
import type { LiveSettings } from './subscribe-options.js';
import type { CloseInfo, SubscribeOptions, SubscriptionPhase } from './types.js';
import {
  type CloseEventLike,
  frameText,
  isWsPackage,
  type MessageEventLike,
  type WebSocketConstructor,
  type WebSocketLike,
  WS_OPEN,
  webSocketSendsHeaders,
} from './web-socket.js';

/**
 * The connection loop of one subscription: picks the socket and auth, opens connections one at a time, turns
 * their frames into positioned items (through the protocol's `FrameReader`), catches up over REST when a
 * connection needs it, hands everything to the delivery core in order, and on a close asks the reconnect
 * policy what next. Only one connection is current; callbacks of an older one are ignored.
 */
export class Connector {
  readonly #ctx: SubscriptionContext;
  readonly #options: SubscribeOptions;
  readonly #settings: LiveSettings;
  readonly #core: DeliveryCore;
  readonly #emitter: SafeEmitter;
  readonly #policy: ReconnectPolicy;
  readonly #WebSocket: () => WebSocketConstructor | undefined;
  readonly #closeHandled = new WeakSet<Connection>();
  readonly #flow: ConnectionFlow;
  /** Aborted when the subscription ends: the REST probes outlive their connection. */
  readonly #lifetime = new AbortController();
  phase: SubscriptionPhase = 'connecting';
  #conn: Connection | undefined;
  #connections = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #resync = false;
  /** The last "no answer at all" the host gave (refused, DNS, TLS), to name when the budget runs out. */
  #lastUnreachable: unknown;
  readonly #refusals = new RefusalCounter();
  /** The same abnormal close at the same position, connection after connection (repeated-failure.ts). */
  readonly #sameFailures = new RepeatedFailure();
  /** What a connection's WebSocket said when it refused a frame as too large (close-classifier.ts). */
  readonly #refusedFrame = new WeakMap<Connection, string>();
  #endError: Error | undefined;
  readonly #readyWaiters = new ReadyWaiters();
  readonly ready: Promise<ConversationStateMirror>;
  #resolveReady!: (state: ConversationStateMirror) => void;
  #rejectReady!: (error: unknown) => void;
  /** Runs once when the subscription ends (the `close` event, the loops' end). */
  onEnd: (reason: CloseInfo['reason'], error: Error | undefined) => void = () => undefined;

  constructor(
    ctx: SubscriptionContext,
    options: SubscribeOptions,
    settings: LiveSettings,
    core: DeliveryCore,
    emitter: SafeEmitter,
    WebSocket: () => WebSocketConstructor | undefined,
  ) {
    this.#ctx = ctx;
    this.#options = options;
    this.#settings = settings;
    this.#core = core;
    this.#emitter = emitter;
    this.#WebSocket = WebSocket;
    this.#policy = new ReconnectPolicy(settings.reconnect, settings.connectTimeout);
    this.#flow = new ConnectionFlow(this, ctx, settings, core, emitter, this.#policy);
    this.ready = new Promise<ConversationStateMirror>((resolve, reject) => {
      this.#resolveReady = resolve;
      this.#rejectReady = reject;
    });
    // Nobody has to await `ready`; its rejection must not be reported as unhandled.
    this.ready.catch(() => undefined);
  }

  get endError(): Error | undefined {
    return this.#endError;
  }

  start(): void {
    void this.#connect();
  }

  #ended(): boolean {
    return this.phase === 'closed';
  }

  /** True when `conn` is no longer the current connection (closed, replaced, or the subscription ended). */
  isStale(conn: Connection): boolean {
    return this.phase === 'closed' || this.#conn !== conn;
  }

  // ---- connecting -------------------------------------------------------------------------------------

  async #connect(): Promise<void> {
    if (this.phase === 'closed') return;
    this.phase = 'connecting';
    const number = ++this.#connections;
    const wanted = this.#options.protocol ?? 'auto';
    let version: string | undefined;
    let key: string | undefined;
    // Before any connection worked, a host that does not answer must not hold the first error back.
    const budget = this.#policy.connectBudgetLeft();
    const attempt = new AbortController();
    // A refusal that arrived before the budget ran out names the cause, however late it is read (deadline.ts).
    const cancelBudget =
      budget === Number.POSITIVE_INFINITY ? undefined : deadline(Math.max(1, budget), () => attempt.abort());
    const signal = AbortSignal.any([this.#lifetime.signal, attempt.signal]);
    try {
      // After a failed attempt the cached version may be stale (a server rolled back or upgraded picks
      // another auth method and socket): read it again.
      version = await this.#ctx.serverVersion(signal, this.#policy.attempt > 0);
      this.#policy.answered();
      key = await this.#ctx.sessionApiKey();
    } catch (caught) {
      if (this.#ended()) return;
      // The first-connection budget ran out mid-request: the cause is the last one the host gave, if any.
      const error = attempt.signal.aborted
        ? (this.#lastUnreachable ??
          new APIConnectionError('The server did not answer in time', { reason: 'timeout', cause: caught }))
        : caught;
      if (isAPIConnectionError(error)) this.#lastUnreachable = error;
      if (isAgentServerVersionError(error) || isRequestValidationError(error))
        this.#finish('error', error as Error);
      else this.#retryAfter({ reason: 'error', error }, true);
      return;
    } finally {
      cancelBudget?.();
    }
    if (this.#ended()) return;
    const protocol = connectionProtocol(this.#ctx.socket, wanted, version);
    const start = startPoint(protocol, this.#options, {
      connections: number - 1,
      resume: this.#settings.resume,
      ledger: this.#core.ledger,
      lastSeq: this.#core.lastSeq,
      resync: this.#resync,
    });
    this.#resync = false;
    const conn = newConnection(number, protocol, start, this.#core.delivered);
    conn.version = version;
    this.#conn = conn;
    this.#core.ledger.setFloor(conn.floor);
    if (conn.afterSeq !== undefined) {
      conn.order.next = conn.afterSeq + 1;
      // `seq` says exactly what was delivered; the timestamp floor only serves an `after` without one.
      if (conn.afterSeq >= 0) this.#core.ledger.setFloor(undefined);
    }
    try {
      conn.auth = resolveAuth(
        this.#options.auth ?? 'auto',
        version,
        key !== undefined,
        webSocketSendsHeaders(this.#WebSocket()),
        this.#refusals.refusedForUnknownVersion,
      );
    } catch (error) {
      this.#finish('error', error as Error);
      return;
    }
    if (key === undefined && !this.#policy.worked) void this.#checkKeyless(conn);
    this.#open(conn, connectionUrl(conn, this.#ctx.baseUrl, this.#ctx.conversationId, key), key);
  }

  /**
   * No session key is configured: a secured server would wait up to 10 s for an auth frame and then close
   * 4001. A REST read of the conversation answers 401 at once, so a missing key is reported within a round
   * trip (docs/events-and-streaming.md, "Failing fast").
   */
  async #checkKeyless(conn: Connection): Promise<void> {
    try {
      await this.#ctx.probe(conn.abort.signal);
    } catch (error) {
      if (this.isStale(conn)) return;
      const decision = classifyProbeFailure(error, 0, '', false, this.#subject());
      if (decision.type === 'fail' && decision.error.name === 'SubscriptionAuthenticationError')
        this.#finish('error', decision.error);
    }
  }

  #open(conn: Connection, url: string, key: string | undefined): void {
    const WebSocketImpl = this.#WebSocket();
    if (!WebSocketImpl) {
      this.#finish(
        'error',
        new SubscriptionError('This runtime has no WebSocket (pass the WebSocket option)'),
      );
      return;
    }
    this.#ctx.logger.debug(`subscribing: ${redactUrl(url, this.#ctx.secrets())} (auth: ${conn.auth})`);
    let socket: WebSocketLike;
    try {
      socket = openSocket(
        WebSocketImpl,
        url,
        {
          auth: conn.auth,
          key,
          maxFrameBytes: this.#settings.maxFrameBytes,
        },
        this.#ctx.secrets,
      );
    } catch (error) {
      this.#finish('error', error as Error);
      return;
    }
    conn.socket = socket;
    // A handshake the server never answers must not wait forever: it counts against `readyTimeout`.
    conn.handshakeTimer = setTimeout(
      () => {
        conn.handshakeTimer = undefined;
        if (!this.isStale(conn) && !conn.opened) this.abandon(conn, { reason: 'ready-timeout' });
      },
      Math.min(this.#settings.readyTimeout, Math.max(1, this.#policy.connectBudgetLeft())),
    );
    socket.addEventListener('open', () => this.#onOpen(conn, key));
    socket.addEventListener('message', (event: MessageEventLike) => this.#onMessage(conn, event.data));
    socket.addEventListener('close', (event: CloseEventLike) =>
      this.#onClose(conn, event.code, event.reason),
    );
    // A failure is followed by `close`, which decides; the listener keeps `ws` from throwing. `ws` reports a
    // frame over its `maxPayload` only here (the close that follows is a plain 1006), and so do Bun, Deno and
    // Node 22 for their own limits. Node 22's built-in WebSocket never sends `close` after a failed handshake
    // (refused, 404) and stays CONNECTING: a failed handshake is a close 1006 when no `close` came by the next
    // turn (docs/runtimes.md).
    socket.addEventListener('error', (event: { message?: unknown; error?: { message?: unknown } }) => {
      const refused = frameTooLargeText(event);
      if (refused !== undefined) {
        conn.frameTooLarge = true;
        this.#refusedFrame.set(conn, refused);
        // At once: during its closing handshake `ws` would go on reading (and dropping) the rest of the frame,
        // +70 MiB of garbage for a 96 MiB one sent whole (bench/hostile-frames.ts).
        (socket as { terminate?: () => void }).terminate?.();
        this.#onClose(conn, 1006, '');
        return;
      }
      if (conn.opened) return;
      setTimeout(() => {
        // Not when the connection was dropped meanwhile (a close came, or it was abandoned and retried).
        if (!conn.abort.signal.aborted) this.#onClose(conn, 1006, '');
      }, 0);
    });
  }

  #onOpen(conn: Connection, key: string | undefined): void {
    if (this.isStale(conn)) return;
    conn.opened = true;
    clearTimeout(conn.handshakeTimer);
    conn.handshakeTimer = undefined;
    this.#refusals.opened();
    if (conn.auth === 'first-message' && key !== undefined) conn.socket?.send(authFrame(key));
    // The bash socket sends no state: an open socket is a ready one (a refused key closes it 4001 instead).
    if (conn.protocol === 'bash') {
      this.#flow.becomeReady(conn, undefined);
      return;
    }
    conn.readyTimer = setTimeout(() => {
      conn.readyTimer = undefined;
      if (!this.isStale(conn) && !conn.ready) this.abandon(conn, { reason: 'ready-timeout' });
    }, this.#settings.readyTimeout);
    conn.fallbackTimer = setTimeout(() => {
      conn.fallbackTimer = undefined;
      if (!this.isStale(conn) && !conn.ready) void this.#readStateOverRest(conn);
    }, this.#settings.readyFallback);
  }

  /** No state came over the socket in time: read the conversation over REST and count that as the first state. */
  async #readStateOverRest(conn: Connection): Promise<void> {
    let state: Record<string, unknown>;
    try {
      state = await this.#ctx.readState(conn.abort.signal);
    } catch (error) {
      // The ready timeout still bounds the wait; a failing read is only logged.
      if (!this.isStale(conn))
        this.#ctx.logger.info(`reading the conversation state failed: ${String(error)}`);
      return;
    }
    if (this.isStale(conn) || conn.ready) return;
    this.#ctx.logger.debug('no state over the socket in time: using the state read over REST');
    this.#core.replaceState(state);
    this.#flow.becomeReady(conn, undefined);
  }

  #onMessage(conn: Connection, data: unknown): void {
    if (this.isStale(conn)) return;
    const text = frameText(data);
    if (text !== undefined && text.length > this.#settings.maxFrameBytes) {
      this.#finish(
        'error',
        new SubscriptionFrameTooLargeError(
          `A frame of ${text.length} characters arrived (maxFrameBytes ${this.#settings.maxFrameBytes}): the event cannot be streamed; read it over REST`,
        ),
      );
      return;
    }
    this.#flow.frame(conn, text);
  }

  resyncNext(conn: Connection): void {
    this.#resync = true;
    this.abandon(conn, { reason: 'resync' });
  }

  connectionReady(): void {
    this.#resolveReady(this.#core.state ?? {});
    this.#readyWaiters.release();
  }

  fail(error: Error): void {
    this.#finish('error', error);
  }

  // ---- closing and reconnecting -------------------------------------------------------------------------

  #onClose(conn: Connection, code: number, rawReason: string): void {
    // Once per connection: a failed handshake may be reported by the error listener and by a late `close`.
    if (this.isStale(conn) || this.#closeHandled.has(conn)) return;
    this.#closeHandled.add(conn);
    // A close reason is server text, shown in errors and reports: it may echo a credential.
    const reason = redactText(rawReason, this.#ctx.secrets());
    this.#flow.connectionEnded();
    dropConnection(conn);
    const delivered = this.#core.delivered;
    // A connection that fell behind (waited for a slow loop, or dropped held frames a REST read delivers) may
    // have delivered nothing new because of the consumer, not a frame (a server that drops a slow reader,
    // issue 34 item 3): its close does not count as the same failure.
    if (conn.fellBehind) this.#sameFailures.reset();
    else if (
      !conn.frameTooLarge &&
      this.#sameFailures.closed({
        code,
        opened: conn.opened,
        deliveredAtStart: conn.deliveredAtStart,
        delivered,
      })
    ) {
      const passed = this.#options.WebSocket !== undefined && !isWsPackage(this.#options.WebSocket);
      this.#finish('error', repeatedFailureError(code, this.#settings.maxFrameBytes, delivered, passed));
      return;
    }
    const decision = classifyClose(
      code,
      reason,
      conn.opened,
      this.#settings.maxFrameBytes,
      this.#refusedFrame.get(conn),
    );
    if (decision.type === 'probe') void this.#probe(conn, code, reason);
    else this.#decide(conn, decision);
  }

  #decide(conn: Connection, decision: CloseDecision): void {
    if (decision.type === 'fail') this.#finish('error', decision.error);
    else if (decision.type === 'retry') this.#retry(conn, decision.info, decision.unreachable);
  }

  /** What a "not found" names: the conversation, or the server's bash-events stream. */
  #subject(): string {
    return this.#ctx.socket === 'bash-events'
      ? 'The bash-events stream'
      : `Conversation ${this.#ctx.conversationId}`;
  }

  /** A refused handshake or close 4004: a REST read of the conversation tells why. */
  async #probe(conn: Connection, code: number, reason: string): Promise<void> {
    const notFoundClose = code === 4004;
    try {
      await this.#ctx.probe(this.#lifetime.signal);
    } catch (error) {
      if (!this.isStale(conn))
        this.#decide(conn, classifyProbeFailure(error, code, reason, notFoundClose, this.#subject()));
      return;
    }
    if (this.isStale(conn)) return;
    this.#decide(
      conn,
      this.#refusals.afterRestAnswered(code, reason, {
        protocol: conn.protocol,
        auth: conn.auth,
        versionKnown: parseAgentServerVersion(conn.version) !== undefined,
        autoAuth: (this.#options.auth ?? 'auto') === 'auto',
      }),
    );
  }

  /** Drops a connection on purpose (the server did not close it) and tries again. */
  abandon(conn: Connection, info: Retry): void {
    if (this.isStale(conn)) return;
    this.#sameFailures.reset();
    this.#flow.connectionEnded();
    dropConnection(conn);
    this.#retry(conn, info, false);
  }

  #retry(conn: Connection, info: Retry, unreachable: boolean): void {
    if (this.isStale(conn)) return;
    this.#retryAfter(info, unreachable);
  }

  #retryAfter(info: Retry, unreachable: boolean): void {
    this.#conn = undefined;
    const decision = this.#policy.failed(info.reason, unreachable);
    if ('giveUp' in decision) {
      this.#finish('error', gaveUp(decision.giveUp, info));
      return;
    }
    const { delay } = decision;
    const attempt = this.#policy.attempt;
    this.phase = 'waiting';
    // At warn, the default level: a subscription never waits in silence.
    const cause =
      info.error === undefined
        ? ''
        : `: ${redactText(String((info.error as Error)?.message ?? info.error), this.#ctx.secrets())}`;
    this.#ctx.logger.warn(
      `subscription to ${this.#ctx.conversationId}: ${info.reason}${info.closeCode ? ` (${info.closeCode})` : ''}${cause}; reconnecting in ${delay} ms (attempt ${attempt})`,
    );
    this.#emitter.emit('reconnecting', { ...info, attempt, delay });
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#connect();
    }, delay);
  }

  /** Ends the subscription: closes the socket, cancels every timer and request, ends the loops. */
  finish(reason: CloseInfo['reason'], error: Error | undefined): void {
    this.#finish(reason, error);
  }

  #finish(reason: CloseInfo['reason'], error: Error | undefined): void {
    if (this.phase === 'closed') return;
    this.phase = 'closed';
    this.#endError = error;
    this.#lifetime.abort();
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const conn = this.#conn;
    this.#conn = undefined;
    if (conn) dropConnection(conn);
    const ended = error ?? new SubscriptionError('The subscription was closed');
    this.#rejectReady(ended);
    this.#readyWaiters.fail(ended);
    this.onEnd(reason, error);
  }

  /** The socket of a ready connection, waiting for one. */
  async readySocket(signal: AbortSignal | undefined): Promise<WebSocketLike> {
    for (;;) {
      if (signal?.aborted) throw new APIUserAbortError('send() was aborted');
      if (this.phase === 'closed')
        throw this.#endError ?? new SubscriptionError('The subscription is closed');
      const conn = this.#conn;
      if (conn?.ready && conn.socket?.readyState === WS_OPEN) return conn.socket;
      await this.#readyWaiters.wait(signal);
    }
  }
}
