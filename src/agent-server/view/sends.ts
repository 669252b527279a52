import type { EventsClient } from '../events-client.js';
import type { MessageInput } from '../message-input.js';
import { ViewEchoTimeoutError } from './errors.js';
import type { PendingMessages } from './pending.js';
import type { ViewSendOptions } from './types.js';

/**
 * The requests of `send()` and `retry()` and the wait for each message's echo: the pending item turns `failed`
 * when the request fails, or when the persisted message does not come within `echoTimeout` ms of the answer.
 */
export class MessageSends {
  readonly #events: EventsClient;
  readonly #conversationId: string;
  readonly #pending: PendingMessages;
  readonly #echoTimeout: number;
  readonly #changed: () => void;
  /** Sends in flight or waiting for their echo, with the echo timer. */
  readonly #sends = new Map<string, { timer: ReturnType<typeof setTimeout> | undefined }>();
  readonly #aborter = new AbortController();

  constructor(
    events: EventsClient,
    conversationId: string,
    pending: PendingMessages,
    echoTimeout: number,
    changed: () => void,
  ) {
    this.#events = events;
    this.#conversationId = conversationId;
    this.#pending = pending;
    this.#echoTimeout = echoTimeout;
    this.#changed = changed;
  }

  /** Sends the message of pending item `id`; rejects with the request's error (the item turned `failed`). */
  async deliver(id: string, message: MessageInput, options: ViewSendOptions): Promise<void> {
    const run = options.run ?? true;
    const entry = { timer: undefined as ReturnType<typeof setTimeout> | undefined };
    this.#sends.set(id, entry);
    const text = typeof message === 'string' ? { content: message, run } : { ...message, run };
    const abort = options.signal
      ? AbortSignal.any([options.signal, this.#aborter.signal])
      : this.#aborter.signal;
    try {
      await this.#events.send(this.#conversationId, text, { signal: abort });
    } catch (error) {
      this.#sends.delete(id);
      const failure = error instanceof Error ? error : new Error(String(error));
      if (this.#pending.fail(id, failure, 'request')) this.#changed();
      throw failure;
    }
    // The echo may have come before the answer did.
    if (this.#pending.get(id) === undefined || this.#aborter.signal.aborted) return;
    entry.timer = setTimeout(() => {
      this.#sends.delete(id);
      if (this.#pending.fail(id, new ViewEchoTimeoutError(this.#echoTimeout), 'no-echo')) this.#changed();
    }, this.#echoTimeout);
  }

  /** The persisted message of pending item `id` arrived: its wait ends. */
  echoed(id: string): void {
    const send = this.#sends.get(id);
    this.#sends.delete(id);
    if (send?.timer !== undefined) clearTimeout(send.timer);
  }

  /** Cancels every request and echo timer (the view closed). */
  close(): void {
    for (const send of this.#sends.values()) if (send.timer !== undefined) clearTimeout(send.timer);
    this.#sends.clear();
    this.#aborter.abort();
  }
}
