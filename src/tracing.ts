/**
 * `agent-platform-sdk/tracing`: trace export configuration, redirect recipes, Collector config,
 * OTLP JSON decoding and the conversation tree, and client-side spans from an event stream.
 * Free of zod and ky; `@opentelemetry/api` is not needed to load or type-check it (you pass the module in).
 *
 * Functions whose output holds secrets in clear: `traceRedirectEnv`, `targetSettings`, `formatOtlpHeaders`,
 * `kubectlSetEnvArgs`, `helmValues`, `dotenv`, `collectorConfig` (the header values given to it). A resolved
 * `TraceExportConfig` hides its header values from `JSON.stringify` and `util.inspect` (so `console.log`).
 */
export {
  type BundledBackend,
  type CollectorConfigOptions,
  type CollectorExporter,
  collectorConfig,
} from './tracing/collector-config.js';
export { OtlpDecodeError, TraceTargetError } from './tracing/errors.js';
export { formatOtlpHeaders, type ParsedHeaders, parseOtlpHeaders } from './tracing/headers.js';
export {
  type ConversationIdGenerator,
  conversationIdGenerator,
  type IdGenerator,
} from './tracing/id-generator.js';
export {
  type Attributes,
  type AttributeValue,
  type DecodedSpan,
  decodeOtlpTraces,
} from './tracing/otlp-json.js';
export {
  type TargetSettings,
  type TraceRedirect,
  type TraceTarget,
  targetSettings,
  traceRedirectEnv,
  validateTraceTarget,
} from './tracing/redirect.js';
export {
  dotenv,
  type HelmValuesOptions,
  helmValues,
  type KubectlOptions,
  kubectlSetEnvArgs,
} from './tracing/render-env.js';
export {
  type EnvLike,
  type OtlpProtocol,
  type ResolveOptions,
  resolveTraceExport,
  type TraceDestination,
  type TraceExportConfig,
} from './tracing/resolve-export.js';
export {
  createEventSpans,
  type EventSpans,
  type EventSpansOptions,
  type OtelApi,
  type OtelSpan,
  type OtelTracer,
  type PlainEvent,
} from './tracing/stream-spans.js';
export {
  buildTraceTree,
  type ConversationTrace,
  findConversationTrace,
  type LlmAttributes,
  llmAttributes,
  type SpanRole,
  type TraceNode,
} from './tracing/trace-tree.js';
