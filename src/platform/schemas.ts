import * as z from 'zod/mini';
// The answers' types, written out from the schemas below by scripts/write-public-types.ts (keeps zod out of
// the package declarations).
import type { AppConversation, LlmProfileSaved } from './types.generated.js';

export type { AppConversation, LlmProfileSaved };

/** 201 `{name, message}` (both optional). */
export const profileSavedSchema = z.pipe(
  z.nullish(z.looseObject({ name: z.optional(z.string()), message: z.optional(z.string()) })),
  z.transform((value) => ({ name: value?.name, message: value?.message })),
);

const headersSchema = z.record(z.string(), z.string());

/** `schema`, with an absent or `null` value read as `null`. */
function orNull<T extends z.ZodMiniType>(schema: T) {
  return z.pipe(
    z.nullish(schema),
    z.transform((value) => value ?? null),
  );
}

/** `{name, config: <LLM settings, api_key null>, api_key_set}`. The key never leaves the server. */
export const profileReadSchema = z.object({
  name: z.string(),
  config: z.pipe(
    z.looseObject({
      model: orNull(z.string()),
      base_url: orNull(z.string()),
      extra_headers: orNull(headersSchema),
    }),
    z.transform(({ api_key: _key, ...rest }) => rest),
  ),
  api_key_set: z._default(z.boolean(), false),
});

/** The agent server's conversation record; only `tags` is read. */
export const conversationTagsReadSchema = z.pipe(
  z.looseObject({ tags: z.nullish(headersSchema) }),
  z.transform((value) => value.tags ?? {}),
);

/** `{success: true}`; an unknown conversation answers 200 `{success: false}`. */
export const tagsUpdatedSchema = z.unknown();

/** A platform conversation, with the fields reconciliation and tagging need. */
export const appConversationSchema = z.object({
  id: z.string(),
  title: z.nullish(z.string()),
  created_by_user_id: z.nullish(z.string()),
  llm_model: z.nullish(z.string()),
  tags: z.pipe(
    z.nullish(headersSchema),
    z.transform((v) => v ?? {}),
  ),
  created_at: z.string(),
  updated_at: z.string(),
  conversation_url: z.nullish(z.string()),
  /** The conversation's own key for its `conversation_url` (a secret: never log it). */
  session_api_key: z.nullish(z.string()),
  execution_status: z.nullish(z.string()),
  sandbox_status: z.nullish(z.string()),
});

export const appConversationPageSchema = z.object({
  items: z.array(appConversationSchema),
  next_page_id: z.nullish(z.string()),
});
