import {
  isAPIConnectionError,
  isAuthenticationError,
  isNotFoundError,
  isPermissionDeniedError,
} from '../../core/errors.js';
import {
  SubscriptionAuthenticationError,
  SubscriptionConnectionError,
  SubscriptionCredentialBindingError,
  SubscriptionEndpointNotFoundError,
  SubscriptionFrameTooLargeError,
  SubscriptionNotFoundError,
} from '../errors.js';
import type { ReconnectInfo } from './types.js';

export const AUTH_FAILED = 4001;
export const NOT_FOUND = 4004;
export const TRY_AGAIN_LATER = 1013;
export const MESSAGE_TOO_BIG = 1009;
/** 1013 reason: the conversation's credential binding must be activated first (server ≥ 1.37.1). */
const CREDENTIAL_BINDING_REASON = 'credential_binding_activation_required';
/** 1013 reason of `/sockets/session`'s byte budget for one frame (4 MiB). */
const FRAME_TOO_LARGE_REASON = 'frame_too_large';
/** 1013 reason of `/sockets/session`'s byte budget for what waits to be sent (16 MiB): we read too slowly. */
const SLOW_CONSUMER_REASON = 'slow_consumer';

export type Retry = Omit<ReconnectInfo, 'attempt' | 'delay'>;

/**
 * How WebSockets name a frame they refused as too large in their `error` event, which the close after it does
 * not say (a plain 1006, or Deno's 0; workerd sends no `close` at all), measured (docs/runtimes.md,
 * "Bounds"): `ws` "Max payload size exceeded" (its `maxPayload`), Node 22's own "Max decompressed message size
 * exceeded", Bun's "Message too big", Deno's "Frame too large", workerd's "… statusCode = 1009 … Message is too
 * large". Node 24's own and Chromium's say nothing (repeated-failure.ts).
 */
const FRAME_TOO_LARGE_ERROR =
  /max payload size|max decompressed message size|message too big|message is too large|frame too large/i;

/** The runtime's own words when an `error` event says a frame was too large, else `undefined`. */
export function frameTooLargeText(event: { message?: unknown; error?: { message?: unknown } } | undefined) {
  const text = String(event?.message ?? event?.error?.message ?? '');
  return FRAME_TOO_LARGE_ERROR.test(text) ? text : undefined;
}

/**
 * What a close means: `fail` (the subscription ends with a typed error), `retry` (`unreachable`: the host never
 * answered, see ReconnectPolicy), or `probe`: the handshake was refused or the conversation reported missing,
 * which only a REST read of the conversation can tell apart (see `classifyByProbe`).
 */
export type CloseDecision =
  | { type: 'fail'; error: Error }
  | { type: 'retry'; info: Retry; unreachable: boolean }
  | { type: 'probe' };

export function classifyClose(
  code: number,
  reason: string,
  opened: boolean,
  maxFrameBytes: number,
  /** The WebSocket's own `error` text when it refused a frame as too large (see frameTooLargeText). */
  refusedFrame?: string,
): CloseDecision {
  const init = { closeCode: code, closeReason: reason };
  if (refusedFrame !== undefined)
    return {
      type: 'fail',
      error: new SubscriptionFrameTooLargeError(
        `A frame was larger than allowed: the WebSocket refused it ("${refusedFrame}"; maxFrameBytes ${maxFrameBytes}) before reading it whole: read the event over REST, or raise maxFrameBytes`,
        init,
      ),
    };
  if (code === AUTH_FAILED)
    return {
      type: 'fail',
      error: new SubscriptionAuthenticationError(
        `The server closed the socket: ${code} ${reason || 'Authentication failed'}`,
        init,
      ),
    };
  if (code === NOT_FOUND) return { type: 'probe' };
  if (code === MESSAGE_TOO_BIG || (code === TRY_AGAIN_LATER && reason === FRAME_TOO_LARGE_REASON))
    return {
      type: 'fail',
      error: new SubscriptionFrameTooLargeError(
        `A frame was larger than allowed (close ${code}${reason ? ` ${reason}` : ''}; maxFrameBytes ${maxFrameBytes}): the event cannot be streamed; read it over REST`,
        init,
      ),
    };
  if (code === TRY_AGAIN_LATER && reason === CREDENTIAL_BINDING_REASON)
    return {
      type: 'fail',
      error: new SubscriptionCredentialBindingError(
        `The server closed the socket: ${code} ${reason}. The conversation's credential binding must be activated before its events can be streamed: activate it (agent server credential-binding API, or the platform that started the conversation), then subscribe again.`,
        init,
      ),
    };
  if (code === TRY_AGAIN_LATER && reason === SLOW_CONSUMER_REASON)
    return { type: 'retry', info: { reason: 'slow-consumer', ...init }, unreachable: false };
  if (!opened) return { type: 'probe' };
  return {
    type: 'retry',
    info: { reason: code === TRY_AGAIN_LATER ? 'overloaded' : 'closed', ...init },
    unreachable: false,
  };
}

/**
 * A refused handshake or close 4004, told apart by a REST read of the conversation: 401/403 is a refused key,
 * 404 a missing conversation, no answer at all an unreachable host (named: refused, DNS, TLS). `undefined`:
 * the REST API answered for the conversation (the caller decides: another auth method, a missing socket
 * path, a conversation lease).
 */
export function classifyProbeFailure(
  error: unknown,
  code: number,
  reason: string,
  notFoundClose: boolean,
  /** What was not found, for the message: `Conversation <id>`, or the bash-events stream. */
  subject: string,
): CloseDecision {
  const init = { closeCode: code, closeReason: reason, cause: error };
  if (!notFoundClose && (isAuthenticationError(error) || isPermissionDeniedError(error)))
    return {
      type: 'fail',
      error: new SubscriptionAuthenticationError(
        'The server refused the WebSocket handshake, and its REST API refuses the session key',
        init,
      ),
    };
  if (isNotFoundError(error))
    return {
      type: 'fail',
      error: new SubscriptionNotFoundError(
        notFoundClose
          ? `${subject} not found (the server closed the socket: ${code} ${reason || 'Conversation not found'})`
          : `${subject} not found (the server refused the WebSocket handshake, and its REST API answers 404)`,
        init,
      ),
    };
  return {
    type: 'retry',
    info: { reason: 'error', closeCode: code, closeReason: reason, error },
    unreachable: isAPIConnectionError(error),
  };
}

/** The typed error a subscription ends with when the reconnect policy gives up. */
export function gaveUp(why: string, info: Retry): SubscriptionConnectionError {
  const cause = info.error;
  const named = isAPIConnectionError(cause)
    ? `: ${describeUnreachable(cause as { reason?: string; code?: string; message: string })}`
    : `; last: ${info.reason}${info.closeCode ? ` ${info.closeCode}` : ''}`;
  return new SubscriptionConnectionError(`Gave up: ${why}${named}`, {
    closeCode: info.closeCode,
    closeReason: info.closeReason,
    cause,
  });
}

const REASONS: Record<string, string> = {
  refused: 'connection refused',
  dns: 'host not found (DNS)',
  tls: 'TLS failure',
  reset: 'connection reset',
  timeout: 'no answer in time',
};

/** "connection refused (ECONNREFUSED)" and the like, from an APIConnectionError. */
export function describeUnreachable(error: { reason?: string; code?: string; message: string }): string {
  const what = (error.reason && REASONS[error.reason]) || error.message;
  return error.code ? `${what} (${error.code})` : what;
}

/** Handshakes refused in a row while REST finds the conversation before the socket path counts as missing. */
const REFUSALS_BEFORE_ENDPOINT_MISSING = 3;

/**
 * The REST API answered for the conversation although the socket refused (or closed 4004). What next:
 * `next-auth` (an unknown server version: try the next auth method), a retry, or, after three refusals in a
 * row, a missing socket path.
 */
export class RefusalCounter {
  #refusals = 0;
  /** Auth methods refused while the server's version is unknown (see resolveAuth). */
  refusedForUnknownVersion = 0;

  opened(): void {
    this.#refusals = 0;
  }

  afterRestAnswered(
    code: number,
    reason: string,
    conn: { protocol: string; auth: string; versionKnown: boolean; autoAuth: boolean },
  ): CloseDecision {
    const init = { closeCode: code, closeReason: reason };
    // Right after a server restart the dead process's conversation lease makes the new one answer 4004
    // until it expires (up to 45 s) although the conversation exists.
    if (code === NOT_FOUND)
      return { type: 'retry', info: { reason: 'conversation-lease', ...init }, unreachable: false };
    if (conn.autoAuth && !conn.versionKnown && conn.auth !== 'query' && conn.auth !== 'none') {
      // The REST API takes the key but the socket refused this method: the next one may be what it wants.
      this.refusedForUnknownVersion += 1;
      return { type: 'retry', info: { reason: 'closed', ...init }, unreachable: false };
    }
    this.#refusals += 1;
    if (this.#refusals < REFUSALS_BEFORE_ENDPOINT_MISSING)
      return { type: 'retry', info: { reason: 'closed', ...init }, unreachable: false };
    const path = conn.protocol === 'session' ? '/sockets/session' : '/sockets/events';
    const other = conn.protocol === 'session' ? 'events' : 'session';
    return {
      type: 'fail',
      error: new SubscriptionEndpointNotFoundError(
        `The server refused the WebSocket handshake on ${path} ${this.#refusals} times in a row while its REST API answers for the conversation: this server probably has no ${path} (handshake 404). Pass protocol: '${other}' to use the other socket.`,
        init,
      ),
    };
  }
}
