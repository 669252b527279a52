import type { Event } from '../../models/index.js';
import type { StreamDelta } from '../live/types.js';
import type { ConversationItem } from './types.js';

/**
 * The LLM response being streamed, as one `agent-message` item with `streaming: true` (docs/conversation-view.md,
 * "Streamed text"). Shows the newest attempt of the newest streamed item: a new `item_started` or a higher
 * `attempt` starts over, `item_aborted` removes it, and so does the persisted agent event that carries the final
 * text (a MessageEvent or ActionEvent from the agent), a status that is not `running`, or a new connection
 * (streamed output is never replayed, so what a lost connection showed would stay forever).
 */
export class StreamedText {
  #itemId: string | undefined;
  #attempt = 0;
  #text = '';
  #reasoning = '';
  #item: ConversationItem | undefined;

  /** The item to show, or `undefined` when nothing is being streamed. */
  get item(): ConversationItem | undefined {
    return this.#item;
  }

  /** Applies a delta; returns true when the item changed. */
  apply(delta: StreamDelta): boolean {
    if (delta.type === 'item_started') {
      this.#start(delta.itemId, delta.attempt);
      return this.#commit();
    }
    if (delta.type === 'item_aborted') {
      if (delta.itemId !== this.#itemId || delta.attempt < this.#attempt) return false;
      return this.clear();
    }
    if (delta.itemId !== this.#itemId || delta.attempt > this.#attempt) {
      // A delta of an item not announced (the events socket never announces) or a newer attempt.
      if (delta.itemId === this.#itemId && delta.attempt < this.#attempt) return false;
      this.#start(delta.itemId, delta.attempt);
    } else if (delta.attempt < this.#attempt) return false;
    if (delta.kind === 'text') this.#text += delta.content;
    else this.#reasoning += delta.content;
    return this.#commit();
  }

  /** A persisted event arrived live: the final text replaces the streamed one. Returns true when it changed. */
  persisted(event: Event): boolean {
    if (this.#item === undefined || event.source !== 'agent') return false;
    if (event.kind !== 'MessageEvent' && event.kind !== 'ActionEvent') return false;
    return this.clear();
  }

  /** Removes what was streamed. Returns true when something was shown. */
  clear(): boolean {
    this.#itemId = undefined;
    this.#attempt = 0;
    this.#text = '';
    this.#reasoning = '';
    if (this.#item === undefined) return false;
    this.#item = undefined;
    return true;
  }

  #start(itemId: string | undefined, attempt: number): void {
    this.#itemId = itemId;
    this.#attempt = attempt;
    this.#text = '';
    this.#reasoning = '';
  }

  #commit(): boolean {
    this.#item = Object.freeze({
      id: `streaming:${this.#itemId ?? 'response'}`,
      type: 'agent-message',
      events: Object.freeze([]) as readonly Event[],
      text: this.#text,
      reasoning: this.#reasoning,
      streaming: true,
    });
    return true;
  }
}
