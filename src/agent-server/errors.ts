import { AgentPlatformError, brandErrorClass, errorGuard } from '../core/errors.js';
import type { AgentErrorEvent, ConversationErrorEvent, ErrorClassification } from '../models/index.js';

/** The code the platform's own clients use for a feature the backend is too old for. */
export const AGENT_SERVER_VERSION_TOO_OLD = 'AGENT_SERVER_VERSION_TOO_OLD';

export interface AgentServerVersionErrorInit {
  feature: string;
  displayName: string;
  requiredVersion: string;
  actualVersion: string;
}

/**
 * A feature with a declared minimum agent-server version was used against an older (or
 * unparseable) version. Thrown before the feature's request is sent. Same fields and message as the
 * platform's TypeScript client, so code written for one recognises the other.
 */
export class AgentServerVersionError extends AgentPlatformError {
  override readonly code = AGENT_SERVER_VERSION_TOO_OLD;
  readonly feature: string;
  readonly displayName: string;
  readonly requiredVersion: string;
  readonly actualVersion: string;
  constructor(init: AgentServerVersionErrorInit) {
    super(
      `${init.displayName} requires agent-server ${init.requiredVersion} or newer; this backend is running ${init.actualVersion}. Please upgrade your agent-server backend.`,
    );
    this.feature = init.feature;
    this.displayName = init.displayName;
    this.requiredVersion = init.requiredVersion;
    this.actualVersion = init.actualVersion;
  }
}
brandErrorClass(AgentServerVersionError, 'AgentServerVersionError');

const isBrandedVersionError = errorGuard<AgentServerVersionError>('AgentServerVersionError');

/**
 * True for an `AgentServerVersionError` from any copy of this package, and (parity with the
 * platform's clients) for any object whose `code` is `AGENT_SERVER_VERSION_TOO_OLD`.
 */
export function isAgentServerVersionError(value: unknown): value is AgentServerVersionError {
  if (isBrandedVersionError(value)) return true;
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { code?: unknown }).code === AGENT_SERVER_VERSION_TOO_OLD
  );
}

export interface SubscriptionErrorInit {
  /** The websocket close code, when the server closed the socket. */
  closeCode?: number | undefined;
  /** The websocket close reason, when the server gave one. */
  closeReason?: string | undefined;
  cause?: unknown;
}

/** A subscription ended for a reason other than `close()`, `break` or an abort. */
export class SubscriptionError extends AgentPlatformError {
  readonly closeCode: number | undefined;
  readonly closeReason: string | undefined;
  constructor(message: string, init: SubscriptionErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.closeCode = init.closeCode;
    this.closeReason = init.closeReason;
  }
}
brandErrorClass(SubscriptionError, 'SubscriptionError');

/**
 * The server refused the session key, by close code 4001 (first-message auth) or by refusing
 * the handshake (HTTP 403 before accept; browsers only see close 1006, so the SDK asks the REST API, which
 * answers 401 for the same key). Fatal: the subscription does not reconnect.
 */
export class SubscriptionAuthenticationError extends SubscriptionError {
  override readonly code = 'SUBSCRIPTION_AUTHENTICATION_FAILED';
}
brandErrorClass(SubscriptionAuthenticationError, 'SubscriptionAuthenticationError');

/** Close code 4004, the conversation does not exist (or the REST API says 404). Fatal. */
export class SubscriptionNotFoundError extends SubscriptionError {
  override readonly code = 'SUBSCRIPTION_CONVERSATION_NOT_FOUND';
}
brandErrorClass(SubscriptionNotFoundError, 'SubscriptionNotFoundError');

/** The iterator's buffer reached `maxBufferedEvents` with `onOverflow: 'error'`. */
export class SubscriptionOverflowError extends SubscriptionError {
  override readonly code = 'SUBSCRIPTION_BUFFER_OVERFLOW';
}
brandErrorClass(SubscriptionOverflowError, 'SubscriptionOverflowError');

/**
 * The server could not be reached (or kept refusing) for `reconnect.giveUpAfter` milliseconds, or
 * `reconnect.maxAttempts` consecutive attempts failed; `cause` is the last failure.
 */
export class SubscriptionConnectionError extends SubscriptionError {
  override readonly code = 'SUBSCRIPTION_CONNECTION_FAILED';
}
brandErrorClass(SubscriptionConnectionError, 'SubscriptionConnectionError');

/**
 * The server reported an error without closing the socket: an `error` envelope on `/sockets/session` (a frame
 * it could not handle) or a `ServerErrorEvent` frame on `/sockets/events`. Reported on the subscription's
 * `error` channel; the subscription goes on.
 */
export class SubscriptionServerError extends SubscriptionError {
  override readonly code = 'SUBSCRIPTION_SERVER_ERROR';
  /** The server's error code (e.g. a validation error type). */
  readonly serverCode: string;
  readonly detail: string;
  /** From the error's classification, when the server gave one: whether trying again may succeed. */
  readonly retryable: boolean | undefined;
  readonly classification: ErrorClassification | undefined;
  constructor(serverCode: string, detail: string, classification?: ErrorClassification | null) {
    super(`The server reported an error: ${serverCode}: ${detail}`);
    this.serverCode = serverCode;
    this.detail = detail;
    this.classification = classification ?? undefined;
    this.retryable = classification?.retryable;
  }
}
brandErrorClass(SubscriptionServerError, 'SubscriptionServerError');

/**
 * An error the conversation recorded as an event (ConversationErrorEvent: the run failed; AgentErrorEvent: a
 * tool call failed and the agent goes on), as a throwable error: `retryable` comes from the event's
 * `classification` (servers since 1.40), `undefined` when the server sent none. Build one with
 * `conversationEventError(event)`.
 */
export class ConversationEventError extends AgentPlatformError {
  override readonly code = 'CONVERSATION_ERROR_EVENT';
  readonly eventId: string;
  readonly eventKind: 'ConversationErrorEvent' | 'AgentErrorEvent';
  readonly classification: ErrorClassification | undefined;
  readonly retryable: boolean | undefined;
  constructor(event: ConversationErrorEvent | AgentErrorEvent) {
    super(
      event.kind === 'ConversationErrorEvent'
        ? `The conversation failed: ${event.code}: ${event.detail}`
        : `The tool call ${event.tool_name} failed: ${event.error}`,
    );
    this.eventId = event.id;
    this.eventKind = event.kind;
    this.classification = event.classification ?? undefined;
    this.retryable = this.classification?.retryable;
  }
}
brandErrorClass(ConversationEventError, 'ConversationEventError');

/** A ConversationEventError for a ConversationErrorEvent or AgentErrorEvent. */
export function conversationEventError(
  event: ConversationErrorEvent | AgentErrorEvent,
): ConversationEventError {
  return new ConversationEventError(event);
}

/**
 * Close 1013 `credential_binding_activation_required`: the conversation's credential binding must be activated
 * before the server streams its events. Fatal: activate the binding (the credential-binding API of the agent
 * server, or the platform that started the conversation) and subscribe again.
 */
export class SubscriptionCredentialBindingError extends SubscriptionError {
  override readonly code = 'SUBSCRIPTION_CREDENTIAL_BINDING_ACTIVATION_REQUIRED';
}
brandErrorClass(SubscriptionCredentialBindingError, 'SubscriptionCredentialBindingError');

/**
 * The socket path does not exist on this server: the handshake was refused again and again while the REST API
 * answers for the conversation (what a handshake answered 404 looks like through the WebSocket API). Fatal;
 * the `protocol` subscribe option chooses the other socket.
 */
export class SubscriptionEndpointNotFoundError extends SubscriptionError {
  override readonly code = 'SUBSCRIPTION_ENDPOINT_NOT_FOUND';
}
brandErrorClass(SubscriptionEndpointNotFoundError, 'SubscriptionEndpointNotFoundError');

/**
 * `subscribe()` cannot work as configured, thrown by `subscribe()` itself before anything is sent: this runtime
 * has no built-in `WebSocket` (Node 20) and none was passed as the `WebSocket` option (e.g. the `ws` package).
 */
export class SubscriptionConfigurationError extends SubscriptionError {
  override readonly code = 'SUBSCRIPTION_CONFIGURATION';
}
brandErrorClass(SubscriptionConfigurationError, 'SubscriptionConfigurationError');

/**
 * The server sent a position the subscription cannot trust (a log reset, a `seq` that is not an integer or out
 * of range, a snapshot of another conversation, an event id reused with new content). Reported on the `error`
 * channel and logged; the subscription resyncs (a REST catch-up by ids) and goes on.
 */
export class SubscriptionProtocolError extends SubscriptionError {
  override readonly code = 'SUBSCRIPTION_PROTOCOL_VIOLATION';
}
brandErrorClass(SubscriptionProtocolError, 'SubscriptionProtocolError');

/**
 * A single frame was larger than `maxFrameBytes` (compressed frames count by their decompressed size), or the
 * server refused to send one (close 1013 `frame_too_large`, 1009). Fatal: the event cannot be streamed.
 */
export class SubscriptionFrameTooLargeError extends SubscriptionError {
  override readonly code = 'SUBSCRIPTION_FRAME_TOO_LARGE';
}
brandErrorClass(SubscriptionFrameTooLargeError, 'SubscriptionFrameTooLargeError');

/** `waitUntil` ran out of time before the conversation reached one of the awaited statuses. */
export class WaitTimeoutError extends AgentPlatformError {
  override readonly code = 'WAIT_TIMEOUT';
  /** The last execution status seen, if any. */
  readonly lastStatus: string | undefined;
  constructor(message: string, lastStatus: string | undefined) {
    super(message);
    this.lastStatus = lastStatus;
  }
}
brandErrorClass(WaitTimeoutError, 'WaitTimeoutError');

export const isSubscriptionError = errorGuard<SubscriptionError>('SubscriptionError');
export const isSubscriptionAuthenticationError = errorGuard<SubscriptionAuthenticationError>(
  'SubscriptionAuthenticationError',
);
export const isSubscriptionNotFoundError = errorGuard<SubscriptionNotFoundError>('SubscriptionNotFoundError');
export const isSubscriptionOverflowError = errorGuard<SubscriptionOverflowError>('SubscriptionOverflowError');
export const isSubscriptionConnectionError = errorGuard<SubscriptionConnectionError>(
  'SubscriptionConnectionError',
);
export const isConversationEventError = errorGuard<ConversationEventError>('ConversationEventError');
export const isSubscriptionServerError = errorGuard<SubscriptionServerError>('SubscriptionServerError');
export const isSubscriptionCredentialBindingError = errorGuard<SubscriptionCredentialBindingError>(
  'SubscriptionCredentialBindingError',
);
export const isSubscriptionEndpointNotFoundError = errorGuard<SubscriptionEndpointNotFoundError>(
  'SubscriptionEndpointNotFoundError',
);
export const isWaitTimeoutError = errorGuard<WaitTimeoutError>('WaitTimeoutError');

/**
 * An agent-server route answered 404 and the base URL does not serve an agent server's `GET /server_info`
 * either: the base URL is wrong (an extra `/api`, another service's address), not the conversation or file
 * missing. Deliberately not a `NotFoundError`, so code that treats "not found" as "absent" does not hide it.
 * `baseUrl` is shown with credentials removed; `cause` is the original 404.
 */
export class NotAnAgentServerError extends AgentPlatformError {
  override readonly code = 'NOT_AN_AGENT_SERVER';
  /** The client's base URL, credentials redacted. */
  readonly baseUrl: string;
  /** What `GET /server_info` answered: a status, or `200` for an answer that is not an agent server's. */
  readonly serverInfoStatus: number;
  constructor(init: { baseUrl: string; serverInfoStatus: number; cause: unknown }) {
    const said =
      init.serverInfoStatus === 200
        ? 'answers, but not as an agent server'
        : `answers ${init.serverInfoStatus}`;
    super(
      `${init.baseUrl} does not look like an agent server (GET /server_info ${said}), so this 404 says nothing about the conversation: check baseUrl (the server's root, e.g. http://localhost:8000, without /api)`,
      { cause: init.cause },
    );
    this.baseUrl = init.baseUrl;
    this.serverInfoStatus = init.serverInfoStatus;
  }
}
brandErrorClass(NotAnAgentServerError, 'NotAnAgentServerError');

export const isNotAnAgentServerError = errorGuard<NotAnAgentServerError>('NotAnAgentServerError');

export const isSubscriptionConfigurationError = errorGuard<SubscriptionConfigurationError>(
  'SubscriptionConfigurationError',
);
export const isSubscriptionProtocolError = errorGuard<SubscriptionProtocolError>('SubscriptionProtocolError');
export const isSubscriptionFrameTooLargeError = errorGuard<SubscriptionFrameTooLargeError>(
  'SubscriptionFrameTooLargeError',
);
