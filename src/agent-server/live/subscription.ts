import { EventEmitter } from 'eventemitter3';
import { APIUserAbortError } from '../../core/errors.js';
import type { ConversationStateMirror, Event } from '../../models/index.js';
import { SubscriptionConfigurationError } from '../errors.js';
import { type MessageInput, toWireMessage } from '../message-input.js';
import { Connector } from './connector.js';
import type { SubscriptionContext } from './context.js';
import { defaultWebSocket } from './default-web-socket.js';
import { DeliveryCore } from './delivery-core.js';
import type { ResumePosition } from './delivery-ledger.js';
import { EventQueue } from './event-queue.js';
import { SafeEmitter } from './safe-emitter.js';
import { liveSettings } from './subscribe-options.js';
import type { StreamDelta, SubscribeOptions, SubscriptionEventMap, SubscriptionPhase } from './types.js';

/**
 * A live event stream of one conversation (`EventsClient.subscribe`): an `AsyncIterable<Event>` (a `break`
 * closes it) and a typed emitter (`event`, one event per kind, `state`, `delta`, `open`, `reconnecting`,
 * `close`, `error`).
 *
 * Delivery contract (docs/events-and-streaming.md): every persisted event exactly once, in the server's
 * order, across reconnects, from the start point asked for; a live-only subscription delivers at least
 * everything persisted after `subscribe()` returned, on either socket. This class only wires the parts of
 * the live layer together: the connection loop (`Connector`, with its protocol adapters and reconnect
 * policy) feeds the delivery core (`DeliveryCore`), which feeds the loops and the emitter.
 */
export class Subscription extends EventEmitter<SubscriptionEventMap> implements AsyncIterable<Event> {
  /** Resolves with the state snapshot when the first connection is ready; rejects if the subscription ends first. */
  readonly ready: Promise<ConversationStateMirror>;

  readonly #core: DeliveryCore;
  readonly #connector: Connector;
  readonly #emitter: SafeEmitter;
  readonly #maxBuffered: number;
  readonly #signal: AbortSignal | undefined;
  readonly #onAbort = () =>
    this.#connector.finish('aborted', new APIUserAbortError('The subscription was aborted'));

  constructor(ctx: SubscriptionContext, options: SubscribeOptions = {}) {
    super();
    const settings = liveSettings(options);
    // Looked up again at each connect (test interceptors installed later apply), but checked now: without a
    // WebSocket nothing can work, and the app must learn it before it sends its first message. On Node the
    // default is the `ws` package, which bounds a frame before reading it (default-web-socket.ts).
    const WebSocket = () => options.WebSocket ?? defaultWebSocket();
    if (WebSocket() === undefined) {
      throw new SubscriptionConfigurationError(
        'This runtime has no built-in WebSocket (Node 22+ and browsers have one): pass one as the WebSocket option, e.g. the default export of the ws package: subscribe(id, { WebSocket })',
      );
    }
    this.#maxBuffered = settings.maxBuffered;
    this.#emitter = new SafeEmitter(this, ctx.logger, ctx.secrets);
    this.#core = new DeliveryCore(settings, this.#emitter, ctx.logger, ctx.conversationId);
    this.#connector = new Connector(ctx, options, settings, this.#core, this.#emitter, WebSocket);
    this.#connector.onEnd = (reason, error) => {
      this.#signal?.removeEventListener('abort', this.#onAbort);
      this.#core.end(error);
      if (reason === 'error' && error) this.#emitter.emit('error', error);
      this.#emitter.emit('close', error ? { reason, error } : { reason });
    };
    this.ready = this.#connector.ready;
    this.#signal = options.signal;
    if (this.#signal?.aborted) {
      queueMicrotask(this.#onAbort);
      return;
    }
    this.#signal?.addEventListener('abort', this.#onAbort, { once: true });
    this.#connector.start();
  }

  /** The live ConversationState mirror: the last `full_state` with the per-key updates delivered since. */
  get state(): ConversationStateMirror | undefined {
    return this.#core.state;
  }

  /** Where delivery stands; pass it as `after` to a later `subscribe` to continue exactly from here. */
  get position(): ResumePosition | undefined {
    return this.#core.position;
  }

  /** Events waiting in the fullest `for await` buffer (never more than `maxBufferedEvents`). */
  get buffered(): number {
    return this.#core.buffered;
  }

  /** Bytes (frame text length) waiting in the fullest `for await` buffer (bounded by `maxBufferedBytes`). */
  get bufferedBytes(): number {
    return this.#core.bufferedBytes;
  }

  get phase(): SubscriptionPhase {
    return this.#connector.phase;
  }

  get closed(): boolean {
    return this.#connector.phase === 'closed';
  }

  /**
   * Sends a message over the socket (the server always starts the agent loop for it). Waits for a
   * ready connection. Rejects when the subscription ends first; a message handed to a socket that then drops
   * is lost, so use `EventsClient.send` when it must arrive.
   */
  async send(message: MessageInput, options: { signal?: AbortSignal } = {}): Promise<void> {
    const { role, content } = toWireMessage(message);
    const socket = await this.#connector.readySocket(options.signal);
    socket.send(JSON.stringify({ role, content }));
  }

  /**
   * Streamed LLM output as an async iterator (the `delta` emitter event as a loop): yields every `StreamDelta`
   * from now on and ends when the subscription ends. A `break` stops only this loop. Deltas are not persisted
   * and not resent, so at most `maxBufferedEvents` wait for a slow loop; older ones are dropped.
   */
  deltas(): AsyncIterable<StreamDelta> {
    return {
      [Symbol.asyncIterator]: () => {
        const queue = new EventQueue<StreamDelta>();
        const onDelta = (delta: StreamDelta) => {
          if (queue.size < this.#maxBuffered) queue.push(delta);
        };
        const onClose = () => {
          this.off('delta', onDelta);
          queue.end();
        };
        if (this.closed) queue.end();
        else {
          this.on('delta', onDelta);
          this.once('close', onClose);
        }
        return {
          next: () => queue.next(),
          return: async () => {
            this.off('delta', onDelta);
            this.off('close', onClose);
            queue.clear();
            queue.end();
            return { value: undefined, done: true };
          },
        };
      },
    };
  }

  /** Ends the subscription: closes the socket and cancels every timer and request. */
  close(): void {
    this.#connector.finish('closed', undefined);
  }

  [Symbol.asyncIterator](): AsyncIterator<Event> {
    return this.#core.iterator(() => this.close());
  }
}
