import { useCallback, useSyncExternalStore } from 'react';

/**
 * What `useConversationView` needs of a view: React's external-store contract (a `ConversationView` has it).
 * Generic over the snapshot, so that this entry's declarations name none of the SDK's types: the snapshot is
 * the root entry's `ConversationSnapshot` of the view passed in (one declaration, one brand of each type).
 */
export interface ViewStore<Snapshot = unknown> {
  getSnapshot(): Snapshot;
  subscribe(listener: () => void): () => void;
}

/** The shape of `CONNECTING_SNAPSHOT`: a `ConversationSnapshot` with no items, not connected yet. */
export interface ConnectingSnapshot {
  readonly items: readonly never[];
  readonly hasOlder: false;
  readonly loadingOlder: false;
  readonly ready: false;
  readonly status: undefined;
  readonly connection: 'connecting';
  readonly state: undefined;
}

/**
 * The snapshot shown before a view exists: on the server (effects do not run there, so no view is opened)
 * and in the first client render of `useConversation`. Frozen, and the same object every time, as
 * `useSyncExternalStore` requires. It is a `ConversationSnapshot` (test/react/ssr.test.ts holds it to that type).
 */
export const CONNECTING_SNAPSHOT: ConnectingSnapshot = Object.freeze({
  items: Object.freeze([]) as readonly never[],
  hasOlder: false,
  loadingOlder: false,
  ready: false,
  status: undefined,
  connection: 'connecting',
  state: undefined,
});

const noUnsubscribe = () => {};

/**
 * When React hears of a change: at the next animation frame in a browser (a `setTimeout` elsewhere). The view
 * notifies once per microtask, but a browser runs each websocket message as a task of its own, so a burst of
 * events over the socket was one notification, and one render, per event (bench/react-renders.ts: 50 renders for
 * 50 events). One render per frame is what a screen can show; a hidden tab renders when it is shown again.
 */
const nextFrame: (callback: () => void) => unknown =
  typeof requestAnimationFrame === 'function'
    ? (callback) => requestAnimationFrame(callback)
    : (callback) => setTimeout(callback, 0);

/** Subscribes to `view` with its notifications folded into one per frame. */
function subscribeByFrame(view: ViewStore<unknown>, listener: () => void): () => void {
  let scheduled = false;
  let subscribed = true;
  const unsubscribe = view.subscribe(() => {
    if (scheduled) return;
    scheduled = true;
    nextFrame(() => {
      scheduled = false;
      if (subscribed) listener();
    });
  });
  return () => {
    subscribed = false;
    unsubscribe();
  };
}

/**
 * The view's current snapshot; the component renders again after the view notified, at most once per
 * animation frame, so a burst of events is one render however the events arrived.
 * Server rendering reads `view.getSnapshot()` too (`getServerSnapshot`). Without a view (`undefined`, `null`)
 * it is `CONNECTING_SNAPSHOT`, typed as the view's snapshot type.
 */
export function useConversationView<Snapshot>(view: ViewStore<Snapshot> | undefined | null): Snapshot {
  // Stable per view: a new function each render would make React unsubscribe and subscribe again.
  const subscribe = useCallback(
    (listener: () => void) => (view ? subscribeByFrame(view, listener) : noUnsubscribe),
    [view],
  );
  const getSnapshot = useCallback(
    () => (view ? view.getSnapshot() : (CONNECTING_SNAPSHOT as Snapshot)),
    [view],
  );
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}
