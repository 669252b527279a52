// Public surface of the platform area (docs/gateway-and-attribution.md: profiles, tags, recipe 5).
export {
  type AppSecret,
  type AppSecretUpdate,
  type AppSecretWrite,
  type AppSettings,
  type AppSettingsUpdate,
  type LlmProfileActivated,
  type LlmProfileChanged,
  type LlmProfileList,
  type LlmProfileSummary,
  SECRET_NAME_PATTERN,
} from './app-settings.js';
export type { PlatformClientOptions } from './options.js';
export {
  type ConversationCallOptions,
  type ConversationSearch,
  PlatformClient,
} from './platform-client.js';
export { type LlmProfile, type LlmProfileWrite, PROFILE_NAME_PATTERN } from './profile.js';
export {
  type PlacedSpendRow,
  type ReconcileConversation,
  type ReconcileOptions,
  type ReconcileSpendRow,
  reconcileSpend,
  type SpendMatch,
  type SpendReconciliation,
  type UnplacedSpendReason,
  type UnplacedSpendRow,
} from './reconcile.js';
export type { AppConversation, LlmProfileSaved } from './schemas.js';
export {
  applyTagsPatch,
  type ConversationTags,
  type ConversationTagsPatch,
  MAX_TAG_VALUE_LENGTH,
  TAG_KEY_PATTERN,
  validateConversationTags,
  validateConversationTagsPatch,
} from './tags.js';
