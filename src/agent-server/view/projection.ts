import {
  type ActionEvent,
  type Event,
  isActionEvent,
  isAgentErrorEvent,
  isConversationStateUpdateEvent,
  isMessageEvent,
  isObservationEvent,
  isUserRejectObservation,
  type MessageEvent,
} from '../../models/index.js';
import { eventKey } from './event-keys.js';
import type { ConversationItem, ConversationItemType } from './types.js';

/**
 * Persisted events → conversation items, incrementally (docs/conversation-view.md, "Items"). The one place that
 * knows how a result joins its tool call and which events an item shows; the view and the terminal `follow`
 * both call it.
 *
 * Events come in server order at either end: `append` for newer ones (the live stream), `prepend` for an older
 * page (`loadOlder()`). An event id seen before is dropped, so overlapping pages and replays are harmless.
 * Items are never changed: an item that gains an event is replaced by a new object, every other item stays the
 * same object, so a UI re-renders only what changed.
 *
 * A result (ObservationEvent, UserRejectObservation: by `action_id`; AgentErrorEvent: by `tool_call_id`) whose
 * action is not loaded yet stands alone (a `tool-call` item, or an `error` item for an AgentErrorEvent) until
 * its action arrives in an older page; then it moves into the action's item. ConversationStateUpdateEvents make
 * no item (the view reflects them in `status` and `state`).
 */
export class Projection {
  #items: readonly ConversationItem[] = Object.freeze([]);
  readonly #seen = new Set<string>();
  /** Tool calls without a result yet, by the ActionEvent's id, and by `tool_call_id` (for AgentErrorEvents). */
  readonly #open = new Map<string, ConversationItem>();
  readonly #openByToolCall = new Map<string, ConversationItem>();
  /** Results standing alone, by the action they name: `action_id`, or `tool:<tool_call_id>` for AgentErrorEvents. */
  readonly #orphans = new Map<string, ConversationItem>();
  #version = 0;

  /** The items, oldest first. A new array after each change; the same array while nothing changed. */
  get items(): readonly ConversationItem[] {
    return this.#items;
  }

  /** Counts the changes: a snapshot built at one version is still current while the version is the same. */
  get version(): number {
    return this.#version;
  }

  /** Whether an event with this id was projected (state updates included). */
  has(id: string): boolean {
    return this.#seen.has(id);
  }

  /** Whether this event was projected (by its id, or its content for an event without one). */
  hasEvent(event: Event): boolean {
    return this.#seen.has(eventKey(event));
  }

  /** Adds events newer than every event so far, in server order. Returns true when the items changed. */
  append(events: Iterable<Event>): boolean {
    let items: ConversationItem[] | undefined;
    for (const event of events) {
      if (!this.#take(event)) continue;
      items ??= this.#items.slice();
      const target = this.#resultTarget(event);
      if (target) {
        items[items.lastIndexOf(target)] = this.#join(target, event);
        continue;
      }
      const item = this.#itemFor(event);
      if (item) items.push(item);
    }
    return this.#commit(items);
  }

  /** Adds events older than every event so far (an older page, in server order). Returns true when the items changed. */
  prepend(events: Iterable<Event>): boolean {
    const older: ConversationItem[] = [];
    const moved = new Set<ConversationItem>();
    for (const event of events) {
      if (!this.#take(event)) continue;
      const target = this.#resultTarget(event);
      const index = target ? older.lastIndexOf(target) : -1;
      if (target && index >= 0) {
        older[index] = this.#join(target, event);
        continue;
      }
      let item = this.#itemFor(event);
      if (item === undefined) continue;
      // A tool call whose result a newer page already showed alone: the result moves into it.
      const orphan = item.type === 'tool-call' ? this.#orphanOf(item) : undefined;
      if (orphan) {
        moved.add(orphan);
        item = this.#join(item, orphan.events[0] as Event);
      }
      older.push(item);
    }
    if (older.length === 0 && moved.size === 0) return false;
    const rest = moved.size === 0 ? this.#items : this.#items.filter((item) => !moved.has(item));
    return this.#commit(older.concat(rest));
  }

  /** True the first time an event id is seen; state updates are remembered but make no item. */
  #take(event: Event): boolean {
    const key = eventKey(event);
    if (this.#seen.has(key)) return false;
    this.#seen.add(key);
    return !isConversationStateUpdateEvent(event);
  }

  /** The open tool call a result answers, if it is loaded. */
  #resultTarget(event: Event): ConversationItem | undefined {
    if (isObservationEvent(event) || isUserRejectObservation(event)) return this.#open.get(event.action_id);
    if (isAgentErrorEvent(event)) return this.#openByToolCall.get(event.tool_call_id);
    return undefined;
  }

  /** The tool call item with its result; the call is no longer open. */
  #join(call: ConversationItem, result: Event): ConversationItem {
    const action = call.events[0] as ActionEvent;
    this.#open.delete(action.id);
    if (this.#openByToolCall.get(action.tool_call_id) === call)
      this.#openByToolCall.delete(action.tool_call_id);
    return freeze({ id: call.id, type: 'tool-call', events: Object.freeze([action, result]) });
  }

  /** The orphan result a newly loaded tool call answers (removed from the orphans). */
  #orphanOf(call: ConversationItem): ConversationItem | undefined {
    const action = call.events[0] as ActionEvent;
    const key = this.#orphans.has(action.id) ? action.id : `tool:${action.tool_call_id}`;
    const orphan = this.#orphans.get(key);
    if (orphan) this.#orphans.delete(key);
    return orphan;
  }

  /** The item an event starts (every event but a result of a loaded tool call and a state update). */
  #itemFor(event: Event): ConversationItem | undefined {
    const type = itemType(event);
    const text = isMessageEvent(event) ? messageText(event) : undefined;
    const item = freeze({
      id: eventKey(event),
      type,
      events: Object.freeze([event]),
      ...(text === undefined ? {} : { text }),
    });
    if (isActionEvent(event)) {
      this.#open.set(event.id, item);
      this.#openByToolCall.set(event.tool_call_id, item);
    } else if (isObservationEvent(event) || isUserRejectObservation(event)) {
      this.#orphans.set(event.action_id, item);
    } else if (isAgentErrorEvent(event)) {
      this.#orphans.set(`tool:${event.tool_call_id}`, item);
    }
    return item;
  }

  #commit(items: ConversationItem[] | undefined): boolean {
    if (items === undefined) return false;
    // Not frozen: freezing copies the array's elements (as long as the list) on every change, which made a
    // view's work per live event grow with its length; it is never changed once handed out (`readonly`).
    this.#items = items;
    this.#version++;
    return true;
  }
}

/** The items a list of persisted events (server order) shows: one `Projection`, appended once. */
export function projectEvents(events: Iterable<Event>): readonly ConversationItem[] {
  const projection = new Projection();
  projection.append(events);
  return projection.items;
}

/** The item type an event starts (see `ConversationItemType`). */
export function itemType(event: Event): ConversationItemType {
  if (isMessageEvent(event)) {
    return event.source === 'user' ? 'user-message' : event.source === 'agent' ? 'agent-message' : 'other';
  }
  switch (event.kind) {
    case 'ActionEvent':
    case 'ObservationEvent':
    case 'UserRejectObservation':
      return 'tool-call';
    case 'AgentErrorEvent':
    case 'ConversationErrorEvent':
      return 'error';
    default:
      return 'other';
  }
}

/** The text parts of a MessageEvent's message, joined (images and other parts are left out). */
export function messageText(event: MessageEvent): string {
  const content: unknown = event.llm_message?.content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content) {
    if (part && typeof part === 'object' && (part as { type?: unknown }).type === 'text') {
      const value = (part as { text?: unknown }).text;
      if (typeof value === 'string') text += value;
    }
  }
  return text;
}

function freeze(item: ConversationItem): ConversationItem {
  return Object.freeze(item);
}
