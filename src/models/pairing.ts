/**
 * Pairing tool calls with their results, and grouping parallel tool calls.
 *
 * An ActionEvent's result is an ObservationEvent or a UserRejectObservation (both name the action's event id in
 * `action_id`), or an AgentErrorEvent (which names only the `tool_call_id`). Several ActionEvents from one LLM
 * response (parallel tool calls) share `llm_response_id`.
 */
import { isActionEvent, isAgentErrorEvent, isObservationEvent, isUserRejectObservation } from './guards.js';
import type {
  ActionEvent,
  AgentErrorEvent,
  Event,
  ObservationEvent,
  UserRejectObservation,
} from './schemas.js';

/** An event that answers an ActionEvent. */
export type ActionResultEvent = ObservationEvent | AgentErrorEvent | UserRejectObservation;

export function isActionResultEvent(event: unknown): event is ActionResultEvent {
  return isObservationEvent(event) || isAgentErrorEvent(event) || isUserRejectObservation(event);
}

/** An action and its result (`undefined` while the tool call is pending). */
export interface ActionPair {
  readonly action: ActionEvent;
  result: ActionResultEvent | undefined;
}

/** True when `result` answers `action`: by `action_id` when the result has one, else by `tool_call_id`. */
export function isResultOf(result: ActionResultEvent, action: ActionEvent): boolean {
  if ('action_id' in result) return result.action_id === action.id;
  return result.tool_call_id === action.tool_call_id;
}

/**
 * Incremental pairing for event streams (history then live events, possibly with duplicates and results that
 * arrive before their action). `add` returns the completed pair when an event completes one.
 */
export class ActionTracker {
  readonly #byId = new Map<string, ActionPair>();
  readonly #pendingByToolCall = new Map<string, ActionPair[]>();
  readonly #orphans: ActionResultEvent[] = [];
  readonly #seenResults = new Set<string>();

  /** Records an event; returns the pair it completes, if any. Other events are ignored. */
  add(event: Event): ActionPair | undefined {
    if (isActionEvent(event)) return this.#addAction(event);
    if (isActionResultEvent(event)) {
      if (this.#seenResults.has(event.id)) return undefined;
      this.#seenResults.add(event.id);
      const pair = this.#match(event);
      if (pair) return pair;
      this.#orphans.push(event);
    }
    return undefined;
  }

  /** The pair of an action, by the ActionEvent's id. */
  get(actionId: string): ActionPair | undefined {
    return this.#byId.get(actionId);
  }

  /** Actions without a result yet, in arrival order. */
  pending(): ActionEvent[] {
    return [...this.#byId.values()].filter((p) => p.result === undefined).map((p) => p.action);
  }

  /** Every pair, in the order the actions arrived. */
  pairs(): ActionPair[] {
    return [...this.#byId.values()];
  }

  /** Results whose action has not been seen. */
  unmatchedResults(): ActionResultEvent[] {
    return [...this.#orphans];
  }

  #addAction(action: ActionEvent): ActionPair | undefined {
    if (this.#byId.has(action.id)) return undefined;
    const pair: ActionPair = { action, result: undefined };
    this.#byId.set(action.id, pair);
    const index = this.#orphans.findIndex((r) => isResultOf(r, action));
    if (index >= 0) {
      pair.result = this.#orphans[index];
      this.#orphans.splice(index, 1);
      return pair;
    }
    const list = this.#pendingByToolCall.get(action.tool_call_id);
    if (list) list.push(pair);
    else this.#pendingByToolCall.set(action.tool_call_id, [pair]);
    return undefined;
  }

  #match(result: ActionResultEvent): ActionPair | undefined {
    const pair =
      'action_id' in result
        ? this.#byId.get(result.action_id)
        : this.#pendingByToolCall.get(result.tool_call_id)?.find((p) => p.result === undefined);
    if (!pair || pair.result !== undefined) return undefined;
    pair.result = result;
    const list = this.#pendingByToolCall.get(pair.action.tool_call_id);
    if (list) {
      const rest = list.filter((p) => p !== pair);
      if (rest.length > 0) this.#pendingByToolCall.set(pair.action.tool_call_id, rest);
      else this.#pendingByToolCall.delete(pair.action.tool_call_id);
    }
    return pair;
  }
}

/** Pairs every ActionEvent of `events` with its result. */
export function pairActions(events: Iterable<Event>): {
  pairs: ActionPair[];
  unmatchedResults: ActionResultEvent[];
} {
  const tracker = new ActionTracker();
  for (const event of events) tracker.add(event);
  return { pairs: tracker.pairs(), unmatchedResults: tracker.unmatchedResults() };
}

/** The ActionEvent `result` answers, among `events`. */
export function findActionFor(result: ActionResultEvent, events: Iterable<Event>): ActionEvent | undefined {
  let found: ActionEvent | undefined;
  for (const event of events) {
    if (isActionEvent(event) && isResultOf(result, event)) {
      found = event;
      if ('action_id' in result) break;
    }
  }
  return found;
}

/** The result of `action` among `events`. */
export function findResultFor(action: ActionEvent, events: Iterable<Event>): ActionResultEvent | undefined {
  for (const event of events) {
    if (isActionResultEvent(event) && isResultOf(event, action)) return event;
  }
  return undefined;
}

/** ActionEvents grouped by `llm_response_id` (one group per LLM response, parallel calls together), in order. */
export function groupByLlmResponse(events: Iterable<Event>): Map<string, ActionEvent[]> {
  const groups = new Map<string, ActionEvent[]>();
  for (const event of events) {
    if (!isActionEvent(event)) continue;
    const group = groups.get(event.llm_response_id);
    if (group) group.push(event);
    else groups.set(event.llm_response_id, [event]);
  }
  return groups;
}
