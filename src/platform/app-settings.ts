// The platform app's settings, LLM-profile and secrets routes (`/api/v1/settings…`, `/api/v1/secrets…`), as the
// real app (openhands-ai 1.11.0) answers them: docs/compatibility.md, "Platform app". Types are written out by
// hand so that zod stays out of the package declarations (docs/performance.md, "Type-checking").
import * as z from 'zod/mini';
import { RequestValidationError } from '../core/errors.js';

/** One row of `GET /api/v1/settings/profiles`: never the key, only whether one is stored. */
export interface LlmProfileSummary {
  name: string;
  model: string | null;
  base_url: string | null;
  api_key_set: boolean;
}

/** `GET /api/v1/settings/profiles`: every profile and the active one (`null` when none was activated). */
export interface LlmProfileList {
  profiles: LlmProfileSummary[];
  active_profile: string | null;
}

/** Answer of delete and rename: the profile's (new) name and a message. */
export interface LlmProfileChanged {
  name: string;
  message: string;
}

/** Answer of activate: also the model the user's settings now run. */
export interface LlmProfileActivated extends LlmProfileChanged {
  model: string | null;
}

/**
 * The user's stored settings (`GET /api/v1/settings`): keys never leave the app, `llm_api_key_set` and
 * `search_api_key_set` say whether they are stored. Other fields are passed through as the app sends them.
 */
export interface AppSettings extends Record<string, unknown> {
  agent_settings: Record<string, unknown>;
  llm_api_key_set: boolean;
  search_api_key_set: boolean;
}

/**
 * A partial settings update (`POST /api/v1/settings`): the app deep-merges `agent_settings_diff` and
 * `conversation_settings_diff` into the stored settings; the whole `agent_settings` / `conversation_settings`
 * objects are refused with 422.
 */
export interface AppSettingsUpdate extends Record<string, unknown> {
  agent_settings_diff?: Record<string, unknown>;
  conversation_settings_diff?: Record<string, unknown>;
}

/** A custom secret as listed: its name and description, never its value. */
export interface AppSecret {
  name: string;
  description: string | null;
}

/** A secret to create or overwrite (`POST /api/v1/secrets`). */
export interface AppSecretWrite {
  name: string;
  value: string;
  description?: string;
}

/** A rename and/or new description (`PUT /api/v1/secrets/{name}`); the value stays. */
export interface AppSecretUpdate {
  name: string;
  description?: string;
}

const nullableString = z.pipe(
  z.nullish(z.string()),
  z.transform((value) => value ?? null),
);

export const profileListSchema = z.object({
  profiles: z.array(
    z.object({
      name: z.string(),
      model: nullableString,
      base_url: nullableString,
      api_key_set: z._default(z.boolean(), false),
    }),
  ),
  active_profile: nullableString,
});

export const profileChangedSchema = z.object({ name: z.string(), message: z.string() });

export const profileActivatedSchema = z.object({
  name: z.string(),
  message: z.string(),
  model: nullableString,
});

export const appSettingsSchema = z.looseObject({
  agent_settings: z.record(z.string(), z.unknown()),
  llm_api_key_set: z._default(z.boolean(), false),
  search_api_key_set: z._default(z.boolean(), false),
});

/** `{message}` of settings and secret writes. */
export const messageSchema = z.object({ message: z.string() });

export const secretPageSchema = z.object({
  items: z.array(z.object({ name: z.string(), description: nullableString })),
  next_page_id: z.nullish(z.string()),
});

/** The app's rule for secret names (they become environment variables in the sandbox). */
export const SECRET_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function checkSecretName(name: unknown, field = 'name'): string {
  if (typeof name !== 'string' || !SECRET_NAME_PATTERN.test(name)) {
    throw new RequestValidationError(
      'must start with a letter or underscore and hold only letters, digits and underscores (an environment variable name)',
      field,
    );
  }
  return name;
}
