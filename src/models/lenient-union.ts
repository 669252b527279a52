/**
 * Lenient mode's stand-in for a discriminated union on `kind` (Action, Observation, ToolDefinition inside events),
 * used by the event schemas.
 */
import * as z from 'zod/mini';
import { PARSE_PARAMS } from './messages.js';
import { type Plan, planFor, registerKindUnion, stripKnownNulls } from './nulls.js';
import { brandUnknown, toValidationIssues } from './unknown.js';

/**
 * Known kinds are validated by `known`; any other object with a string `kind` becomes a branded unknown value
 * keeping every field: an unknown kind, or a known kind whose fields stay invalid once its known `null` fields are
 * dropped. Other values (not an object, no string `kind`) fail.
 *
 * A plain two-way union, so the known branch stays on zod's compiled fast path; nulls and issues are worked out
 * only on the fallback branch (rare: servers write `null` only where the schema allows it).
 */
export function lenientKindUnion<T extends z.ZodMiniType>(known: T, kinds: ReadonlySet<string>): T {
  let plan: Plan | undefined | null = null;
  const fallback = z.pipe(
    z.looseObject({ kind: z.string() }),
    z.transform((value: { kind: string }) => {
      if (!kinds.has(value.kind)) return brandUnknown(value, 'unknown-kind', []);
      if (plan === null) plan = planFor(known);
      const cleaned = plan ? stripKnownNulls(value, plan) : value;
      if (cleaned !== value) {
        const retry = known.safeParse(cleaned, PARSE_PARAMS);
        if (retry.success) return retry.data;
      }
      const result = known.safeParse(value, PARSE_PARAMS);
      return brandUnknown(value, 'invalid', result.success ? [] : toValidationIssues(result.error.issues));
    }),
  );
  const schema = z.union([known, fallback]);
  registerKindUnion(schema, known);
  return schema as unknown as T;
}
