import { useEffect, useRef, useState } from 'react';
import { useConversationView, type ViewStore } from './use-conversation-view.js';
import { sameKey, ViewLease } from './view-lease.js';

/** What `useConversation` needs of the view it opens (a `ConversationView` has it). */
export interface OpenedView<Snapshot = unknown> extends ViewStore<Snapshot> {
  readonly ready: Promise<unknown>;
  close(): void;
}

/** A conversation handle (`client.conversation(id)`): what `useConversation` needs of it. */
export interface ConversationViewSource<View extends OpenedView, Options> {
  readonly id: string;
  view(options?: Options): View;
}

/** An `AgentServerClient`: what `useConversation` needs of it. */
export interface ConversationViewClient<View extends OpenedView, Options> {
  conversation(conversationId: string): { view(options?: Options): View };
}

/** The snapshot type of a view. */
export type SnapshotOf<View> = View extends ViewStore<infer Snapshot> ? Snapshot : never;

export interface UseConversationResult<View extends OpenedView> {
  /** The open view (for `send`, `retry`, `loadOlder`, `whenIdle`); `undefined` on the server and in the first render. */
  view: View | undefined;
  /** Its snapshot; `CONNECTING_SNAPSHOT` while there is no view. */
  snapshot: SnapshotOf<View>;
}

/**
 * Opens a view of one conversation for as long as the component is mounted, and closes it on unmount or when
 * the conversation changes (another `client` or id; for a handle, another `handle.id`). `options` are read
 * when the view opens: changing them alone does not reopen it. The view opens in an effect, so server
 * rendering opens nothing and shows `CONNECTING_SNAPSHOT`; StrictMode's second mount in development keeps
 * the view the first one opened (src/react/view-lease.ts).
 */
export function useConversation<View extends OpenedView, Options>(
  client: ConversationViewClient<View, Options>,
  conversationId: string,
  options?: Options,
): UseConversationResult<View>;
export function useConversation<View extends OpenedView, Options>(
  handle: ConversationViewSource<View, Options>,
  options?: Options,
): UseConversationResult<View>;
export function useConversation<View extends OpenedView, Options>(
  source: ConversationViewClient<View, Options> | ConversationViewSource<View, Options>,
  idOrOptions?: string | Options,
  maybeOptions?: Options,
): UseConversationResult<View> {
  const fromClient = typeof idOrOptions === 'string';
  const options = fromClient ? maybeOptions : (idOrOptions as Options | undefined);
  // A handle is keyed by its id: `client.conversation(id)` makes a new handle on every render.
  const key: [unknown, unknown] = fromClient
    ? [source, idOrOptions]
    : [(source as ConversationViewSource<View, Options>).id, undefined];
  const [first, second] = key;
  const lease = useRef<ViewLease<View>>(null);
  lease.current ??= new ViewLease();
  const latest = useRef({ source, idOrOptions, options });
  latest.current = { source, idOrOptions, options };
  const [opened, setOpened] = useState<{ key: readonly unknown[]; view: View }>();

  // biome-ignore lint/correctness/useExhaustiveDependencies: the key names the conversation; options are read at open
  useEffect(() => {
    const held = lease.current!;
    const view = held.acquire(key, () => {
      const { source, idOrOptions, options } = latest.current;
      const next =
        typeof idOrOptions === 'string'
          ? (source as ConversationViewClient<View, Options>).conversation(idOrOptions).view(options)
          : (source as ConversationViewSource<View, Options>).view(options);
      // A failed open shows in the snapshot (`connection: 'closed'`, `error`); nobody else awaits `ready`.
      next.ready.catch(() => {});
      return next;
    });
    setOpened({ key, view });
    return () => held.release(view);
  }, [first, second]);

  // Right after the conversation changed, until the effect opened the new view: not the old one's items.
  const view = opened && sameKey(opened.key, key) ? opened.view : undefined;
  const snapshot = useConversationView<SnapshotOf<View>>(view as ViewStore<SnapshotOf<View>> | undefined);
  return { view, snapshot };
}
