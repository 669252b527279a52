// Public surface of the gateway area (docs/gateway-and-attribution.md).
export { GatewayAdminClient, type ProbeOptions, type SpendLogQuery } from './admin-client.js';
export type { GatewayApiKey } from './api-key.js';
export {
  SESSION_ID_HEADER as GATEWAY_SESSION_ID_HEADER,
  SPEND_LOGS_METADATA_HEADER as GATEWAY_SPEND_LOGS_METADATA_HEADER,
} from './attribution-headers.js';
export type { GatewayConfigNote, NoteSink } from './config-note.js';
export {
  type ForwardingOptions,
  forwardedClientHeaders,
  isForwardedClientHeader,
} from './forwarded-headers.js';
export {
  diagnoseGatewayError,
  type GatewayDiagnosis,
  type GatewayErrorBody,
  type GatewayFailure,
  readGatewayError,
} from './gateway-error.js';
export { COMPAT_PREFIX, type GatewayKind, SAME_KIND_PREFIX } from './kinds.js';
export { lintGatewayModelEntry } from './lint-entry.js';
export {
  explainGatewayModelEntry,
  type GatewayModelEntry,
  type GatewayModelEntryInput,
  type GatewayModelEntryOptions,
  gatewayModelEntry,
} from './model-entry.js';
export type { GatewayModelUpdate } from './model-update.js';
export type { GatewayAdminClientOptions } from './options.js';
export { explainPatternA, type PatternAInput, patternAEntries } from './pattern-a.js';
export {
  attributionNotes,
  type ProfileHeadersInput,
  type ProfileHeadersResult,
  profileExtraHeaders,
} from './profile-headers.js';
export {
  buildProxyConfig,
  type ProxyConfigDocument,
  type ProxyConfigInput,
  type ProxyConfigResult,
  proxyConfigYaml,
} from './proxy-config.js';
export type { AddedGatewayModel, GatewayModel, GatewayModelInfo, SpendLogRow } from './schemas.js';
export { parseSpendLogsMetadataHeader, spendLogsMetadataHeader } from './spend-metadata.js';
export { staticAuthHeadersOption } from './static-headers.js';
export { type PerTeamEntriesInput, perTeamModelEntries } from './team-entries.js';
export {
  explainWildcardEntry,
  PATTERN_B_WARNINGS,
  type WildcardEntryInput,
  wildcardGatewayEntry,
} from './wildcard-entry.js';
