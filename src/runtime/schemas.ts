import * as z from 'zod/mini';
import type { Decoder } from '../core/transport.js';
// The answers' types, written out from the schemas below by scripts/write-public-types.ts (keeps zod out of
// the package declarations).
import type {
  AdminChallenge,
  ApiKey,
  WarmRuntimeConfig,
  WarmRuntimeConfigSource,
} from './types.generated.js';

export type { AdminChallenge, ApiKey, WarmRuntimeConfig, WarmRuntimeConfigSource };

/**
 * Shapes of the runtime API (as the real service answers: test/fixtures). Answers are
 * parsed loosely: unknown fields are kept (a `template` copies them into the next `save`), known fields are
 * checked.
 *
 * The schemas are built on first use, so that bundles which never use the runtime client drop them.
 */
function build() {
  /** `GET /api/admin/challenge` → 200. `salt` is ASCII hex text, used as text. */
  const AdminChallenge = z.looseObject({
    challenge: z.string().check(z.minLength(1)),
    salt: z.string(),
    iterations: z.int().check(z.positive()),
  });

  /** `POST /api/admin/login` → 200 `{token}` (a JWT valid 24 hours). */
  const AdminLoginResponse = z.looseObject({ token: z.string().check(z.minLength(1)) });

  /** One entry of `GET /api/admin/api-keys` (a top-level array); `id` is a string or an integer in the wild. */
  const ApiKey = z.looseObject({
    id: z.union([z.string(), z.number()]),
    name: z.string(),
    key_value: z.string(),
  });

  /** `file` = installer-managed, `db` = saved through the API. */
  const Source = z.enum(['file', 'db']);
  const optionalInt = z.nullish(z.int());

  /** The writable fields as they come back from the service. */
  const configFields = {
    image: z.string(),
    working_dir: z.optional(z.string()),
    command: z.optional(z.array(z.string())),
    environment: z.optional(z.record(z.string(), z.string())),
    count: optionalInt,
    run_as_user: optionalInt,
    run_as_group: optionalInt,
    fs_group: optionalInt,
    fuse_s3_mount: z.nullish(z.boolean()),
  };

  /**
   * One configuration of the effective set (`GET /api/warm-runtime-configs`): installer entries merged with
   * same-named API entries, the API entry overriding. `source` is absent only from pre-release servers.
   */
  const WarmRuntimeConfig = z.looseObject({ name: z.string(), source: z.optional(Source), ...configFields });

  return {
    AdminChallenge,
    AdminLoginResponse,
    ApiKey,
    ApiKeyList: z.array(ApiKey),
    Source,
    WarmRuntimeConfig,
    WarmRuntimeConfigList: z.looseObject({ configs: z.array(WarmRuntimeConfig) }),
    /** `PUT …/{name}` → 200: the saved configuration (with `name`, usually). */
    SavedWarmRuntimeConfig: z.looseObject({
      name: z.optional(z.string()),
      source: z.optional(Source),
      ...configFields,
    }),
    /** `DELETE …/{name}` → 200 `{message}`; 204 or an empty body are accepted too. */
    DeleteResponse: z.nullable(z.optional(z.looseObject({ message: z.optional(z.string()) }))),
  };
}

type Schemas = ReturnType<typeof build>;
let built: Schemas | undefined;

/** The runtime API's zod schemas, built once on first use. */
export function runtimeSchemas(): Schemas {
  built ??= build();
  return built;
}

/**
 * The body of `PUT /api/admin/warm-runtime-configs/{name}`: identity is the URL path, so there is
 * no `name`, and `source` is response-only. Unknown fields are sent as given.
 */
export interface WarmRuntimeConfigBody {
  /** Full image reference; the application uses it as the sandbox spec id. */
  image: string;
  /** Working directory in the sandbox; copy it from the default configuration. */
  working_dir: string;
  /** Agent-server start command; copy it from the default configuration. */
  command: string[];
  /** Environment the sandbox boots with; copy it from the default configuration. */
  environment: Record<string, string>;
  /** Warm pods kept ready; falls back to the installer-wide Warm Runtime Count. */
  count?: number | null;
  run_as_user?: number | null;
  run_as_group?: number | null;
  fs_group?: number | null;
  /** S3-backed workspace instead of a persistent volume claim. */
  fuse_s3_mount?: boolean | null;
  [field: string]: unknown;
}

/**
 * Checks an answer against `schema` and returns the answer itself (the schemas have no defaults or
 * transforms), so fields keep the service's order: `list` and `template` print them as the service sent them.
 */
export function decoder<S extends z.ZodMiniType>(schema: S): Decoder<z.output<S>> {
  return (input) => {
    const result = schema.safeParse(input);
    return result.success
      ? { success: true, data: input as z.output<S> }
      : (result as ReturnType<Decoder<z.output<S>>>);
  };
}
