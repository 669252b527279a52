// Subpath `agent-platform-sdk/models`: the event model alone, without the HTTP clients.
// The base class of the errors this entry throws (its declarations name it; `instanceof` works with it).
export { AgentPlatformError } from './core/error-base.js';
export * from './models/index.js';
// The schemas of the event model (both modes are built when this subpath is loaded; the parsers of the root entry
// build them on first use).
export {
  ActionSchema,
  ActionVariantSchemas,
  ContentSchema,
  CriticResultSchema,
  ErrorClassificationSchema,
  EventSchema,
  EventVariantSchemas,
  HTTPValidationErrorSchema,
  ImageContentSchema,
  LenientEventSchema,
  MessageSchema,
  MessageToolCallSchema,
  ObservationSchema,
  ObservationVariantSchemas,
  ReasoningItemModelSchema,
  RedactedThinkingBlockSchema,
  TextContentSchema,
  ThinkingBlockSchema,
  ToolDefinitionSchema,
  ToolDefinitionVariantSchemas,
  ValidationErrorSchema,
} from './models/schemas.js';
