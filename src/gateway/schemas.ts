import * as z from 'zod';
// The answers' types, written out from the schemas below by scripts/write-public-types.ts (keeps zod out of
// the package declarations).
import type { AddedGatewayModel, GatewayModel, GatewayModelInfo, SpendLogRow } from './types.generated.js';

export type { AddedGatewayModel, GatewayModel, GatewayModelInfo, SpendLogRow };

/**
 * One entry of `GET /v1/models` (notes §2.1). Only `id` (the `model_name`) is relied on: `created` is a
 * constant and `owned_by` historically always the same value, so both are dropped.
 */
export const gatewayModelSchema = z.object({
  id: z.string(),
  object: z.string().optional(),
  max_input_tokens: z.number().nullish(),
  max_output_tokens: z.number().nullish(),
});

export const modelListSchema = z.object({ data: z.array(gatewayModelSchema) });

/**
 * The answer of `POST /model/new` (spec: not shown; notes §2.1: the stored row, parameters encrypted).
 * Parameters are dropped; `id` is the row id that `deleteModel` takes.
 */
export const addedModelSchema = z
  .object({
    model_id: z.string().optional(),
    model_name: z.string().optional(),
    model_info: z.object({ id: z.string().optional() }).loose().nullish(),
  })
  .transform((row) => ({
    id: row.model_id ?? row.model_info?.id ?? undefined,
    model_name: row.model_name,
  }));

/** One entry of `GET /model/info` (notes §2.1): parameters without secrets, and the model's id. */
export const modelInfoEntrySchema = z.object({
  model_name: z.string(),
  gateway_params: z
    .object({ model: z.string().optional(), api_base: z.string().nullish() })
    .nullish()
    .transform((params) => ({ model: params?.model, api_base: params?.api_base ?? undefined })),
  model_info: z
    .object({ id: z.string().optional(), db_model: z.boolean().optional() })
    .loose()
    .nullish()
    .transform((info) => info ?? {}),
});

export const modelInfoListSchema = z.object({ data: z.array(modelInfoEntrySchema) });

export const deleteModelSchema = z.object({ message: z.string().optional() }).loose();

/** The few fields of a chat completion the probe reads (the OpenAI-compatible answer). */
export const probeAnswerSchema = z.object({ model: z.string().optional() }).loose();

const spend = z.union([
  z.number(),
  z
    .string()
    .regex(/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/)
    .transform(Number),
]);

/**
 * One spend-log row (notes §2.5, columns of the gateway's spend table). Keys, prompts and responses are not
 * kept: rows are for attribution.
 */
export const spendLogRowSchema = z.object({
  request_id: z.string(),
  call_type: z.string().nullish(),
  spend: spend,
  total_tokens: z.number().nullish(),
  prompt_tokens: z.number().nullish(),
  completion_tokens: z.number().nullish(),
  startTime: z.string(),
  endTime: z.string().nullish(),
  model: z.string().nullish(),
  model_id: z.string().nullish(),
  model_group: z.string().nullish(),
  user: z.string().nullish(),
  end_user: z.string().nullish(),
  team_id: z.string().nullish(),
  session_id: z.string().nullish(),
  request_tags: z.unknown().optional(),
  metadata: z.unknown().optional(),
  status: z.string().nullish(),
});

export const spendLogPageSchema = z.object({
  data: z.array(spendLogRowSchema),
  page: z.number().optional(),
  total_pages: z.number().nullish(),
});
