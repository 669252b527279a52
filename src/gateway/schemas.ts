import * as z from 'zod/mini';
// The answers' types, written out from the schemas below by scripts/write-public-types.ts (keeps zod out of
// the package declarations).
import type { AddedGatewayModel, GatewayModel, GatewayModelInfo, SpendLogRow } from './types.generated.js';

export type { AddedGatewayModel, GatewayModel, GatewayModelInfo, SpendLogRow };

/**
 * One entry of `GET /v1/models`. Only `id` (the `model_name`) is relied on: `created` is a
 * constant and `owned_by` historically always the same value, so both are dropped.
 */
export const gatewayModelSchema = z.object({
  id: z.string(),
  object: z.optional(z.string()),
  max_input_tokens: z.nullish(z.number()),
  max_output_tokens: z.nullish(z.number()),
});

export const modelListSchema = z.object({ data: z.array(gatewayModelSchema) });

/**
 * The answer of `POST /model/new` (The stored row, parameters encrypted).
 * Parameters are dropped; `id` is the row id that `deleteModel` takes.
 */
export const addedModelSchema = z.pipe(
  z.object({
    model_id: z.optional(z.string()),
    model_name: z.optional(z.string()),
    model_info: z.nullish(z.looseObject({ id: z.optional(z.string()) })),
  }),
  z.transform((row) => ({
    id: row.model_id ?? row.model_info?.id ?? undefined,
    model_name: row.model_name,
  })),
);

/** One entry of `GET /model/info`: parameters without secrets, and the model's id. */
export const modelInfoEntrySchema = z.object({
  model_name: z.string(),
  gateway_params: z.pipe(
    z.nullish(z.object({ model: z.optional(z.string()), api_base: z.nullish(z.string()) })),
    z.transform((params) => ({ model: params?.model, api_base: params?.api_base ?? undefined })),
  ),
  model_info: z.pipe(
    z.nullish(z.looseObject({ id: z.optional(z.string()), db_model: z.optional(z.boolean()) })),
    z.transform((info) => info ?? {}),
  ),
});

export const modelInfoListSchema = z.object({ data: z.array(modelInfoEntrySchema) });

export const deleteModelSchema = z.looseObject({ message: z.optional(z.string()) });

/** The few fields of a chat completion the probe reads (the OpenAI-compatible answer). */
export const probeAnswerSchema = z.looseObject({ model: z.optional(z.string()) });

const spend = z.union([
  z.number(),
  z.pipe(z.string().check(z.regex(/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/)), z.transform(Number)),
]);

/**
 * One spend-log row (columns of the gateway's spend table). Keys, prompts and responses are not
 * kept: rows are for attribution.
 */
export const spendLogRowSchema = z.object({
  request_id: z.string(),
  call_type: z.nullish(z.string()),
  spend: spend,
  total_tokens: z.nullish(z.number()),
  prompt_tokens: z.nullish(z.number()),
  completion_tokens: z.nullish(z.number()),
  startTime: z.string(),
  endTime: z.nullish(z.string()),
  model: z.nullish(z.string()),
  model_id: z.nullish(z.string()),
  model_group: z.nullish(z.string()),
  user: z.nullish(z.string()),
  end_user: z.nullish(z.string()),
  team_id: z.nullish(z.string()),
  session_id: z.nullish(z.string()),
  request_tags: z.optional(z.unknown()),
  metadata: z.optional(z.unknown()),
  status: z.nullish(z.string()),
});

export const spendLogPageSchema = z.object({
  data: z.array(spendLogRowSchema),
  page: z.optional(z.number()),
  total_pages: z.nullish(z.number()),
});
