/**
 * Following `parent_id`. Servers since 1.31 stamp every new event with the id of the event it follows from
 * (1.31.2 to 1.36 strip it on the wire; older servers never send it). `parentOf` and `parentChain` walk that
 * link inside a set of events you already hold (REST pages, a subscription's history); they never fetch.
 */

/** The least an event needs for these helpers: its `id` and, when the server sent one, its `parent_id`. */
export interface HasParent {
  id: string;
  parent_id?: string | null | undefined;
}

/** Events indexed by id, or any lookup from id to event. */
export type EventLookup<E extends HasParent> =
  | ReadonlyMap<string, E>
  | Iterable<E>
  | ((id: string) => E | undefined);

function lookupOf<E extends HasParent>(events: EventLookup<E>): (id: string) => E | undefined {
  if (typeof events === 'function') return events;
  if (events instanceof Map) return (id) => events.get(id);
  const byId = new Map<string, E>();
  for (const event of events as Iterable<E>) byId.set(event.id, event);
  return (id) => byId.get(id);
}

/** The parent of `event` among `events`, or `undefined` (root event, no `parent_id`, or parent not held). */
export function parentOf<E extends HasParent>(event: HasParent, events: EventLookup<E>): E | undefined {
  const id = event.parent_id;
  return typeof id === 'string' ? lookupOf(events)(id) : undefined;
}

/**
 * The ancestors of `event`, nearest first: its parent, the parent's parent, and so on, up to a root event or the
 * first parent that is not among `events`. A cycle (which a well-behaved server never produces) ends the walk.
 */
export function parentChain<E extends HasParent>(event: HasParent, events: EventLookup<E>): E[] {
  const find = lookupOf(events);
  const chain: E[] = [];
  const seen = new Set<string>([event.id]);
  let id = event.parent_id;
  while (typeof id === 'string' && !seen.has(id)) {
    seen.add(id);
    const parent = find(id);
    if (!parent) break;
    chain.push(parent);
    id = parent.parent_id;
  }
  return chain;
}
