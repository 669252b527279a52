import { useEffect, useRef, useState } from 'react';
import type {
  ConversationSnapshot,
  ConversationViewApi,
  ConversationViewOptions,
} from '../agent-server/view/types.js';
import { useConversationView } from './use-conversation-view.js';
import { sameKey, ViewLease } from './view-lease.js';

/** A conversation handle (`client.conversation(id)`): what `useConversation` needs of it. */
export interface ConversationViewSource {
  readonly id: string;
  view(options?: ConversationViewOptions): ConversationViewApi;
}

/** An `AgentServerClient`: what `useConversation` needs of it. */
export interface ConversationViewClient {
  conversation(conversationId: string): { view(options?: ConversationViewOptions): ConversationViewApi };
}

export interface UseConversationResult {
  /** The open view (for `send`, `retry`, `loadOlder`, `whenIdle`); `undefined` on the server and in the first render. */
  view: ConversationViewApi | undefined;
  snapshot: ConversationSnapshot;
}

/**
 * Opens a view of one conversation for as long as the component is mounted, and closes it on unmount or when
 * the conversation changes (another `client` or id; for a handle, another `handle.id`). `options` are read
 * when the view opens: changing them alone does not reopen it. The view opens in an effect, so server
 * rendering opens nothing and shows `CONNECTING_SNAPSHOT`; StrictMode's second mount in development keeps
 * the view the first one opened (src/react/view-lease.ts).
 */
export function useConversation(
  client: ConversationViewClient,
  conversationId: string,
  options?: ConversationViewOptions,
): UseConversationResult;
export function useConversation(
  handle: ConversationViewSource,
  options?: ConversationViewOptions,
): UseConversationResult;
export function useConversation(
  source: ConversationViewClient | ConversationViewSource,
  idOrOptions?: string | ConversationViewOptions,
  maybeOptions?: ConversationViewOptions,
): UseConversationResult {
  const fromClient = typeof idOrOptions === 'string';
  const options = fromClient ? maybeOptions : idOrOptions;
  // A handle is keyed by its id: `client.conversation(id)` makes a new handle on every render.
  const key: [unknown, unknown] = fromClient
    ? [source, idOrOptions]
    : [(source as ConversationViewSource).id, undefined];
  const [first, second] = key;
  const lease = useRef<ViewLease<ConversationViewApi>>(null);
  lease.current ??= new ViewLease();
  const latest = useRef({ source, idOrOptions, options });
  latest.current = { source, idOrOptions, options };
  const [opened, setOpened] = useState<{ key: readonly unknown[]; view: ConversationViewApi }>();

  // biome-ignore lint/correctness/useExhaustiveDependencies: the key names the conversation; options are read at open
  useEffect(() => {
    const held = lease.current!;
    const opened = held.acquire(key, () => {
      const { source, idOrOptions, options } = latest.current;
      const next =
        typeof idOrOptions === 'string'
          ? (source as ConversationViewClient).conversation(idOrOptions).view(options)
          : (source as ConversationViewSource).view(options);
      // A failed open shows in the snapshot (`connection: 'closed'`, `error`); nobody else awaits `ready`.
      next.ready.catch(() => {});
      return next;
    });
    setOpened({ key, view: opened });
    return () => held.release(opened);
  }, [first, second]);

  // Right after the conversation changed, until the effect opened the new view: not the old one's items.
  const view = opened && sameKey(opened.key, key) ? opened.view : undefined;
  const snapshot = useConversationView(view);
  return { view, snapshot };
}
