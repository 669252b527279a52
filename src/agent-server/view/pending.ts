import { type Event, isMessageEvent } from '../../models/index.js';
import type { MessageInput } from '../message-input.js';
import { messageText } from './projection.js';
import type { ConversationItem } from './types.js';

/**
 * The optimistic side of `send()`: a `user-message` item with `pending` for each message not seen persisted
 * yet, shown after the persisted items. A persisted user MessageEvent with the same text takes the place of the
 * oldest such item (sending or failed: a message that timed out may still arrive), so a message is shown once.
 */
export class PendingMessages {
  #items: readonly ConversationItem[] = [];
  #next = 1;

  /** Oldest first; a new array after each change. */
  get items(): readonly ConversationItem[] {
    return this.#items;
  }

  /** A new `sending` item for `message`; returns its id. */
  add(message: MessageInput): string {
    const id = `pending:${this.#next++}`;
    this.#items = [...this.#items, pendingItem(id, message, undefined)];
    return id;
  }

  get(id: string): ConversationItem | undefined {
    return this.#items.find((item) => item.id === id);
  }

  /** Marks an item failed (no change when it is gone: its echo came). Returns true when it changed. */
  fail(id: string, error: Error, reason: 'request' | 'no-echo'): boolean {
    return this.#replace(id, (item) => pendingItem(id, item.pending?.message ?? '', { error, reason }));
  }

  /** A failed item back to `sending` (a retry). Returns true when it changed. */
  resend(id: string): boolean {
    return this.#replace(id, (item) => pendingItem(id, item.pending?.message ?? '', undefined));
  }

  /** Drops the item a persisted user message echoes, if any; returns its id. */
  echo(event: Event): string | undefined {
    if (this.#items.length === 0 || !isMessageEvent(event) || event.source !== 'user') return undefined;
    const text = messageText(event);
    const index = this.#items.findIndex((item) => item.text === text);
    if (index < 0) return undefined;
    const id = this.#items[index]?.id;
    this.#items = this.#items.filter((_, i) => i !== index);
    return id;
  }

  /** Whether a message is still being delivered. */
  get sending(): boolean {
    return this.#items.some((item) => item.pending?.state === 'sending');
  }

  #replace(id: string, change: (item: ConversationItem) => ConversationItem): boolean {
    const index = this.#items.findIndex((item) => item.id === id);
    if (index < 0) return false;
    const items = this.#items.slice();
    items[index] = change(items[index] as ConversationItem);
    this.#items = items;
    return true;
  }
}

/** The text a message shows: its text parts joined, as `messageText` reads the persisted one. */
export function inputText(message: MessageInput): string {
  if (typeof message === 'string') return message;
  if (typeof message.content === 'string') return message.content;
  let text = '';
  for (const part of message.content) if ('text' in part && typeof part.text === 'string') text += part.text;
  return text;
}

function pendingItem(
  id: string,
  message: MessageInput,
  failure: { error: Error; reason: 'request' | 'no-echo' } | undefined,
): ConversationItem {
  return Object.freeze({
    id,
    type: 'user-message',
    events: Object.freeze([]) as readonly Event[],
    text: inputText(message),
    pending: Object.freeze(
      failure === undefined ? { state: 'sending', message } : { state: 'failed', message, ...failure },
    ),
  });
}
