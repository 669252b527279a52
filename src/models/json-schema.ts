/**
 * JSON Schema (draft 2020-12) of the strict event model, for users of other languages. Generated with
 * `z.toJSONSchema` from the same schemas the parser uses; `scripts/write-json-schema.ts` writes it to
 * `docs/event-model.schema.json`.
 */
import * as z from 'zod/mini';
import { ConversationStateSchema } from './conversation-state.js';
import { eventSchemas } from './mode-schemas.js';
import { GENERATED_DEFAULT } from './schema-kit.js';

/** Every named schema of the model, by the name it gets under `$defs`. */
export function namedModelSchemas(): Record<string, z.ZodMiniType> {
  const s = eventSchemas('strict');
  const named: Record<string, z.ZodMiniType> = {
    Event: s.Event,
    Action: s.Action,
    Observation: s.Observation,
    ToolDefinition: s.ToolDefinition,
    ...s.variants,
    ...s.actions.variants,
    ...s.observations.variants,
    ...s.tools.variants,
    TextContent: s.content.TextContent,
    ImageContent: s.content.ImageContent,
    ThinkingBlock: s.content.ThinkingBlock,
    RedactedThinkingBlock: s.content.RedactedThinkingBlock,
    ReasoningItemModel: s.content.ReasoningItemModel,
    MessageToolCall: s.content.MessageToolCall,
    CriticResult: s.content.CriticResult,
    Message: s.content.Message,
    ValidationError: s.content.ValidationError,
    HTTPValidationError: s.content.HTTPValidationError,
    ConversationState: ConversationStateSchema,
  };
  return named;
}

/**
 * The model as one JSON Schema document: the root is the Event union, every named type is under `$defs`.
 * `io: "input"` (default) describes what the server sends (fields with defaults are optional); `"output"`
 * describes parsed values (defaults filled in).
 */
export function eventModelJsonSchema(options: { io?: 'input' | 'output' } = {}): Record<string, unknown> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(namedModelSchemas())) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io: options.io ?? 'input',
    unrepresentable: 'any',
    uri: (id) => `#/$defs/${id}`,
    override: (ctx) => {
      // `id` and `timestamp` defaults are generated per value (uuid4, now): no fixed default to publish.
      if ((ctx.zodSchema as unknown as Record<symbol, unknown>)[GENERATED_DEFAULT])
        delete ctx.jsonSchema.default;
      // ISO date-times that may lack an offset (pydantic writes naive times) still are `date-time` fields.
      if ((ctx.zodSchema._zod.def as { format?: string }).format === 'datetime')
        ctx.jsonSchema.format = 'date-time';
    },
  });
  const defs: Record<string, unknown> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    const { $schema: _schema, $id: _id, ...rest } = schema as Record<string, unknown>;
    defs[id] = rest;
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://agent-platform-sdk/event-model.schema.json',
    title: 'Agent server event model',
    description:
      'An event of the agent server (union discriminated by `kind`). Every action, observation, tool definition, nested type and the ConversationState (value of `full_state` updates) is under $defs. Generated from the SDK zod schemas (strict mode); do not edit by hand.',
    $ref: '#/$defs/Event',
    $defs: defs,
  };
}
