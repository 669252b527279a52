/**
 * What the build-time validators (validators.ts, written by scripts/compile-validators.ts) call besides zod:
 * the same two helpers zod's compiler hands to the code it generates at run time, with the same behaviour.
 */
import type * as z from 'zod/mini';

/** zod's answer for "not decided here: run the schema" (zod/v4/core `INVALID`, a registered symbol). */
export const INVALID: unique symbol = Symbol.for('zod.compile.invalid') as never;

/** Runs a schema with zod's runtime parser: its value, or INVALID when it fails (or would need async). */
export function runtimeRun(schema: z.ZodMiniType, value: unknown): unknown {
  const result = schema._zod.run({ value, issues: [] }, {});
  if (result instanceof Promise) return INVALID;
  return result.issues.length === 0 ? result.value : INVALID;
}

/** Shared `addIssue` of the payloads a transform receives: a transform that reports an issue has failed. */
function pushIssue(this: { issues: unknown[] }, issue: unknown): void {
  this.issues.push(issue);
}

/**
 * Wraps a schema's transform as zod's compiler does: the result, or INVALID when the transform reported an
 * issue or returned a promise. A throw propagates, as it does out of zod's runtime parser.
 */
export function transformHelper(
  transform: (value: unknown, payload: unknown) => unknown,
): (value: unknown) => unknown {
  return (value) => {
    const payload = { value, issues: [] as unknown[], addIssue: pushIssue };
    const result = transform(value, payload);
    if (result instanceof Promise) return INVALID;
    return payload.issues.length === 0 ? result : INVALID;
  };
}

/** A function built on its first call (a validator of the generated module, with its constants). */
export function lazy(make: () => (input: unknown) => unknown): (input: unknown) => unknown {
  let fn: ((input: unknown) => unknown) | undefined;
  return (input) => {
    fn ??= make();
    return fn(input);
  };
}
