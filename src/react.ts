/**
 * `agent-platform-sdk/react`: React bindings of the conversation view (docs/react.md). `react` (18 or newer)
 * is an optional peer dependency: only this entry imports it.
 */

export type {
  ConversationItem,
  ConversationItemType,
  ConversationSnapshot,
  ConversationViewApi,
  ConversationViewOptions,
  PendingMessage,
  ViewConnection,
} from './agent-server/view/types.js';
export {
  type ConversationViewClient,
  type ConversationViewSource,
  type UseConversationResult,
  useConversation,
} from './react/use-conversation.js';
export { CONNECTING_SNAPSHOT, useConversationView, type ViewStore } from './react/use-conversation-view.js';
