import type { ConversationStateMirror, Event, ExecutionStatus } from '../../models/index.js';
import type { ReconnectOptions } from '../live/reconnect-options.js';
import type { WebSocketAuthMode } from '../live/socket-auth.js';
import type { WebSocketConstructor } from '../live/web-socket.js';
import type { MessageInput } from '../message-input.js';

/**
 * What an item shows (docs/conversation-view.md, "Items"):
 * - `user-message`: a user `MessageEvent`, or a message `send()` is still delivering (`pending`);
 * - `agent-message`: an agent `MessageEvent`, or the text of the LLM response being streamed (`streaming`);
 * - `tool-call`: an `ActionEvent` followed by the `ObservationEvent`, `UserRejectObservation` or `AgentErrorEvent`
 *   answering it (a result whose action is not loaded yet stands alone until `loadOlder()` brings it);
 * - `error`: a `ConversationErrorEvent`, or an `AgentErrorEvent` that answers no loaded action;
 * - `other`: every other persisted event (system prompt, condensation, hooks, …), one item each.
 */
export type ConversationItemType = 'user-message' | 'agent-message' | 'tool-call' | 'error' | 'other';

/** The delivery of a message `send()` shows before the server has persisted it. */
export interface PendingMessage {
  /** `sending` until the persisted message arrives; `failed` when the request failed or no echo came in time. */
  readonly state: 'sending' | 'failed';
  /** The message as passed to `send()`. */
  readonly message: MessageInput;
  /**
   * Why it failed (`state: 'failed'`): `request`, the request failed (`error` is its error); `no-echo`, the server
   * accepted it but the persisted message did not arrive within `echoTimeout` (`error` is a `ViewEchoTimeoutError`,
   * code `VIEW_ECHO_TIMEOUT`).
   */
  readonly reason?: 'request' | 'no-echo';
  readonly error?: Error;
}

/** One thing a conversation screen shows. Plain immutable data: never changed, replaced when it changes. */
export interface ConversationItem {
  /**
   * Stable across snapshots: the id of the item's first persisted event; `pending:<n>` for a message not
   * persisted yet, `streaming:<item id>` for streamed text.
   */
  readonly id: string;
  readonly type: ConversationItemType;
  /** The persisted events the item shows, in server order (empty for pending and streamed items). */
  readonly events: readonly Event[];
  /**
   * The text of a message item: the text parts of a `MessageEvent`, the text of a pending message, or what was
   * streamed so far. `undefined` for other item types.
   */
  readonly text?: string;
  /** Streamed reasoning of the response being streamed (only on a `streaming` item). */
  readonly reasoning?: string;
  /** True on the item showing the LLM response being streamed: it gives way to the persisted message. */
  readonly streaming?: boolean;
  /** Set on a user message that `send()` has not seen persisted yet. */
  readonly pending?: PendingMessage;
}

/** `connecting` until the first connection is ready; `reconnecting` while a lost one is replaced. */
export type ViewConnection = 'connecting' | 'live' | 'reconnecting' | 'closed';

/** What the view shows at one moment. The same object until something changed (`useSyncExternalStore`). */
export interface ConversationSnapshot {
  /** Oldest first. */
  readonly items: readonly ConversationItem[];
  /** True while older events may exist before the first item (`loadOlder()` reads them). */
  readonly hasOlder: boolean;
  /** True while a `loadOlder()` is reading. */
  readonly loadingOlder: boolean;
  /** True once the newest page is shown and the live stream is connected (`ready` resolved). */
  readonly ready: boolean;
  /** The conversation's `execution_status` (from `state`), `undefined` before the first state arrived. */
  readonly status: ExecutionStatus | undefined;
  readonly connection: ViewConnection;
  /** Why the view closed, when an error closed it (`connection: 'closed'`). */
  readonly error?: Error;
  /** The conversation state mirror (`Subscription.state`): the connect-time state and every update since. */
  readonly state: ConversationStateMirror | undefined;
}

export interface ConversationViewOptions {
  /** Events per REST page, for the first page and each `loadOlder()` (1..100, default 50). */
  pageSize?: number;
  /** Closes the view (as `close()`). */
  signal?: AbortSignal;
  /** The `WebSocket` constructor for the live stream (see `SubscribeOptions.WebSocket`). */
  WebSocket?: WebSocketConstructor;
  /** Which socket to follow (see `SubscribeOptions.protocol`). */
  protocol?: 'auto' | 'session' | 'events';
  /** How the socket authenticates (see `SubscribeOptions.auth`). */
  auth?: WebSocketAuthMode;
  /** Reconnect policy of the live stream (see `SubscribeOptions.reconnect`). */
  reconnect?: ReconnectOptions;
  /**
   * Milliseconds `send()` waits for the persisted message after the server accepted it before the pending
   * item turns `failed` (with a `ViewEchoTimeoutError`). Default 30 000.
   */
  echoTimeout?: number;
  /**
   * Milliseconds without a new persisted event after a terminal status before `whenIdle()` resolves when the
   * server sent no `stats` update after it (older servers). Default 1 000.
   */
  idleQuiet?: number;
}

export interface ViewSendOptions {
  /** Start the agent loop (default true). */
  run?: boolean;
  signal?: AbortSignal;
}

export interface LoadOlderOptions {
  signal?: AbortSignal;
}

export interface WhenIdleOptions {
  signal?: AbortSignal;
}

/** The view's public face (`client.conversation(id).view(options)`). */
export interface ConversationViewApi {
  readonly conversationId: string;
  /** Resolves once the newest page is shown and the live stream is connected; rejects if the view closes first. */
  readonly ready: Promise<void>;
  getSnapshot(): ConversationSnapshot;
  /** Calls `listener` (at most once per microtask) after the snapshot changed; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  loadOlder(options?: LoadOlderOptions): Promise<boolean>;
  send(message: MessageInput, options?: ViewSendOptions): Promise<void>;
  retry(itemId: string, options?: ViewSendOptions): Promise<void>;
  whenIdle(options?: WhenIdleOptions): Promise<ConversationSnapshot>;
  close(): void;
}
