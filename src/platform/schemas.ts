import * as z from 'zod';
// The answers' types, written out from the schemas below by scripts/write-public-types.ts (keeps zod out of
// the package declarations).
import type { AppConversation, LlmProfileSaved } from './types.generated.js';

export type { AppConversation, LlmProfileSaved };

/** notes §3.2: 201 `{name, message}` (spec: not shown, so both are optional). */
export const profileSavedSchema = z
  .object({ name: z.string().optional(), message: z.string().optional() })
  .loose()
  .nullish()
  .transform((value) => ({ name: value?.name, message: value?.message }));

const headersSchema = z.record(z.string(), z.string());

/** notes §3.2: `{name, config: <LLM settings, api_key null>, api_key_set}`. The key never leaves the server. */
export const profileReadSchema = z.object({
  name: z.string(),
  config: z
    .object({
      model: z
        .string()
        .nullish()
        .transform((v) => v ?? null),
      base_url: z
        .string()
        .nullish()
        .transform((v) => v ?? null),
      extra_headers: headersSchema.nullish().transform((v) => v ?? null),
    })
    .loose()
    .transform(({ api_key: _key, ...rest }) => rest),
  api_key_set: z.boolean().default(false),
});

/** The agent server's conversation record (notes §3.3); only `tags` is read. */
export const conversationTagsReadSchema = z
  .object({ tags: headersSchema.nullish() })
  .loose()
  .transform((value) => value.tags ?? {});

/** notes §3.3: `{success: true}`; an unknown conversation answers 200 `{success: false}`. */
export const tagsUpdatedSchema = z.unknown();

/** A platform conversation (notes §3.4), with the fields reconciliation and tagging need. */
export const appConversationSchema = z.object({
  id: z.string(),
  title: z.string().nullish(),
  created_by_user_id: z.string().nullish(),
  llm_model: z.string().nullish(),
  tags: headersSchema.nullish().transform((v) => v ?? {}),
  created_at: z.string(),
  updated_at: z.string(),
  conversation_url: z.string().nullish(),
  /** The conversation's own key for its `conversation_url` (a secret: never log it). */
  session_api_key: z.string().nullish(),
  execution_status: z.string().nullish(),
  sandbox_status: z.string().nullish(),
});

export const appConversationPageSchema = z.object({
  items: z.array(appConversationSchema),
  next_page_id: z.string().nullish(),
});
