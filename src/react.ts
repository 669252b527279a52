/**
 * `agent-platform-sdk/react`: React bindings of the conversation view (docs/react.md). `react` (18 or newer)
 * is an optional peer dependency: only this entry imports it. Its types are generic over the view passed in,
 * so the snapshot and item types are the root entry's (`ConversationSnapshot`, `ConversationItem`).
 */
export {
  type ConversationViewClient,
  type ConversationViewSource,
  type OpenedView,
  type SnapshotOf,
  type UseConversationResult,
  useConversation,
} from './react/use-conversation.js';
export {
  CONNECTING_SNAPSHOT,
  type ConnectingSnapshot,
  useConversationView,
  type ViewStore,
} from './react/use-conversation-view.js';
