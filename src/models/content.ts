/**
 * Nested types of events (shapes from the OpenAPI document): message content, thinking blocks,
 * reasoning items, tool calls, security risk, critic results, messages and the server's validation errors.
 */
import * as z from 'zod/mini';
import {
  closedObject,
  jsonObject,
  openObject,
  optionalNullable,
  type ParseMode,
  requiredNullable,
  withDefault,
} from './schema-kit.js';
// Written out from the schemas below by scripts/write-public-types.ts (keeps zod out of the declarations).
import type { SecurityRisk } from './types.generated.js';

export type { SecurityRisk };

export const SecurityRiskSchema = z.enum(['UNKNOWN', 'LOW', 'MEDIUM', 'HIGH']);

export function buildContentSchemas(mode: ParseMode) {
  /** `{cache_prompt=false, type="text", text}`; closed (`additionalProperties: false`). */
  const TextContent = closedObject(mode, {
    cache_prompt: withDefault(z.boolean(), false),
    type: withDefault(z.literal('text'), 'text'),
    text: z.string(),
  });

  /** `{cache_prompt=false, type="image", image_urls}`: http(s) or `data:` URLs. */
  const ImageContent = openObject({
    cache_prompt: withDefault(z.boolean(), false),
    type: withDefault(z.literal('image'), 'image'),
    image_urls: z.array(z.string()),
  });

  /** An item of a message's or observation's `content`. */
  const Content = z.union([TextContent, ImageContent]);

  const ThinkingBlock = openObject({
    type: withDefault(z.literal('thinking'), 'thinking'),
    thinking: z.string(),
    signature: optionalNullable(z.string()),
  });

  const RedactedThinkingBlock = openObject({
    type: withDefault(z.literal('redacted_thinking'), 'redacted_thinking'),
    data: z.string(),
  });

  const ThinkingBlockItem = z.union([ThinkingBlock, RedactedThinkingBlock]);

  /** No field is required. `encrypted_content` must never be logged or rendered. */
  const ReasoningItemModel = openObject({
    id: optionalNullable(z.string()),
    summary: withDefault(z.array(z.string()), []),
    content: optionalNullable(z.array(z.string())),
    encrypted_content: optionalNullable(z.string()),
    status: optionalNullable(z.string()),
  });

  /** `responses_item_id` (newer servers): the Responses API `function_call.id`, echoed verbatim on replay. */
  const MessageToolCall = openObject({
    id: z.string(),
    name: z.string(),
    arguments: z.string(),
    origin: z.enum(['completion', 'responses']),
    responses_item_id: optionalNullable(z.string()),
  });

  const CriticResult = openObject({
    score: z.number().check(z.gte(0), z.lte(1)),
    message: requiredNullable(mode, z.string()),
    metadata: optionalNullable(jsonObject()),
  });

  const Message = openObject({
    role: z.enum(['user', 'system', 'assistant', 'tool']),
    content: withDefault(z.array(Content), []),
    tool_calls: optionalNullable(z.array(MessageToolCall)),
    tool_call_id: optionalNullable(z.string()),
    name: optionalNullable(z.string()),
    reasoning_content: optionalNullable(z.string()),
    thinking_blocks: withDefault(z.array(ThinkingBlockItem), []),
    responses_reasoning_item: optionalNullable(ReasoningItemModel),
  });

  const ValidationError = openObject({
    loc: z.array(z.union([z.string(), z.int()])),
    msg: z.string(),
    type: z.string(),
  });

  const HTTPValidationError = openObject({
    detail: z.optional(z.array(ValidationError)),
  });

  return {
    TextContent,
    ImageContent,
    Content,
    ThinkingBlock,
    RedactedThinkingBlock,
    ThinkingBlockItem,
    ReasoningItemModel,
    MessageToolCall,
    CriticResult,
    Message,
    ValidationError,
    HTTPValidationError,
  };
}

export type ContentSchemas = ReturnType<typeof buildContentSchemas>;
