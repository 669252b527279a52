import { useCallback, useSyncExternalStore } from 'react';
import type { ConversationSnapshot, ConversationViewApi } from '../agent-server/view/types.js';

/** What `useConversationView` needs of a view: React's external-store contract (a `ConversationView` has it). */
export type ViewStore = Pick<ConversationViewApi, 'getSnapshot' | 'subscribe'>;

/**
 * The snapshot shown before a view exists: on the server (effects do not run there, so no view is opened)
 * and in the first client render of `useConversation`. Frozen, and the same object every time, as
 * `useSyncExternalStore` requires.
 */
export const CONNECTING_SNAPSHOT: ConversationSnapshot = Object.freeze({
  items: Object.freeze([]),
  hasOlder: false,
  loadingOlder: false,
  ready: false,
  status: undefined,
  connection: 'connecting',
  state: undefined,
});

const noUnsubscribe = () => {};

/**
 * The view's current snapshot; the component renders again when the view notifies. The view notifies at
 * most once per microtask, and React batches the updates of one task, so a burst of events is one render.
 * Server rendering reads `view.getSnapshot()` too (`getServerSnapshot`), or `CONNECTING_SNAPSHOT` without a
 * view. Pass `undefined` while there is no view yet.
 */
export function useConversationView(view: ViewStore | undefined | null): ConversationSnapshot {
  // Stable per view: a new function each render would make React unsubscribe and subscribe again.
  const subscribe = useCallback(
    (listener: () => void) => (view ? view.subscribe(listener) : noUnsubscribe),
    [view],
  );
  const getSnapshot = useCallback(() => (view ? view.getSnapshot() : CONNECTING_SNAPSHOT), [view]);
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}
