export type { DeleteResult } from '../core/delete-result.js';
export { ADMIN_TOKEN_LIFETIME_MS } from './admin-token.js';
export {
  deriveTemplate,
  IDENTITY_FIELDS,
  prepareWarmRuntimeConfigBody,
  type TemplateOverrides,
  validateWarmRuntimeConfigBody,
} from './body.js';
export {
  checkEphemeralStorage,
  configsUsingImage,
  DEFAULT_CONFIG_NAME,
  DEFAULT_WARM_POD_STORAGE,
  FALLBACK_POOL_SIZE,
  findSharedImages,
  type PoolStorage,
  parseQuantity,
  type SharedImage,
  type StorageCheck,
  type StorageCheckOptions,
  type UpgradeAction,
  type UpgradeChecklistOptions,
  type UpgradeStep,
  upgradeChecklist,
} from './checks.js';
export { RuntimeAdminClient } from './client.js';
export {
  type ComputeAdminLoginHashOptions,
  computeAdminLoginHash,
  DEFAULT_MAX_PBKDF2_ITERATIONS,
  hasWebCryptoPbkdf2,
  type Pbkdf2Engine,
} from './compute-admin-login-hash.js';
export {
  ADMIN_DISABLED_MESSAGE,
  AdminDisabledError,
  AdminLoginError,
  isAdminDisabledError,
  isAdminLoginError,
  isPbkdf2IterationsError,
  isRuntimePreconditionError,
  isWarmRuntimeConfigNotFoundError,
  Pbkdf2IterationsError,
  type RuntimePreconditionCode,
  RuntimePreconditionError,
  WarmRuntimeConfigNotFoundError,
} from './errors.js';
export type {
  PoolChecks,
  RuntimeAdminClientOptions,
  SavedWarmRuntimeConfig,
  SaveOptions,
} from './options.js';
export type {
  AdminChallenge,
  ApiKey,
  WarmRuntimeConfig,
  WarmRuntimeConfigBody,
  WarmRuntimeConfigSource,
} from './schemas.js';
export { shellQuote } from './shell-quote.js';
