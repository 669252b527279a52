/**
 * Building blocks shared by every schema file. Each schema family is built twice, once per parse mode:
 *
 * - `strict`: exactly the published schema. Types the OpenAPI document closes (`additionalProperties: false`:
 *   every event, action and observation, and TextContent) reject unknown keys; unknown kinds are errors.
 * - `lenient`: the same fields, but unknown keys are kept, a known field holding `null` counts as absent (done
 *   by `stripKnownNulls` before validation) and unknown kinds become typed unknown values (`unknown.ts`).
 *
 * Types the OpenAPI document leaves open (Message, MessageToolCall, ImageContent, thinking blocks, tool
 * definitions, …) keep unknown keys in both modes, as the server does.
 */
import * as z from 'zod/mini';
// Written out from the schemas below by scripts/write-public-types.ts (keeps zod out of the declarations).
import type { EventSource } from './types.generated.js';

export type { EventSource };

export type ParseMode = 'strict' | 'lenient';

/**
 * An object the OpenAPI document closes (`additionalProperties: false`): strict rejects unknown keys, lenient
 * keeps them. Typed as a plain object in both modes, so inferred types carry no index signature.
 */
export function closedObject<S extends z.core.$ZodLooseShape>(
  mode: ParseMode,
  shape: S,
): z.ZodMiniObject<S, z.core.$strict> {
  return (mode === 'strict' ? z.strictObject(shape) : z.looseObject(shape)) as unknown as z.ZodMiniObject<
    S,
    z.core.$strict
  >;
}

/** An object the OpenAPI document leaves open: unknown keys are kept in both modes. */
export function openObject<S extends z.core.$ZodLooseShape>(shape: S): z.ZodMiniObject<S, z.core.$strip> {
  return z.looseObject(shape) as unknown as z.ZodMiniObject<S, z.core.$strip>;
}

/**
 * A field that is required but may be `null` (CriticResult `message`, TerminalObservation `command`). In lenient
 * mode `null` counts as absent, so absence is accepted there and read back as `null`.
 */
export function requiredNullable<T extends z.ZodMiniType>(mode: ParseMode, schema: T): z.ZodMiniNullable<T> {
  const nullable = z.nullable(schema);
  return (mode === 'strict'
    ? nullable
    : z._default(nullable, null as never)) as unknown as z.ZodMiniNullable<T>;
}

/** An optional field that may also be `null` on the wire (`anyOf: [T, null]`, not required). */
export function optionalNullable<T extends z.ZodMiniType>(
  schema: T,
): z.ZodMiniOptional<z.ZodMiniNullable<T>> {
  return z.optional(z.nullable(schema));
}

/** A field with a default (pydantic `Field(default=…)`). */
export const withDefault = z._default;

/** An integer >= `min`. */
export const intAtLeast = (min: number): z.ZodMiniInt => z.int().check(z.gte(min));

/** Free-form JSON object (tool arguments, metadata, JSON Schema documents): never validated inside. */
export const jsonObject = (): z.ZodMiniRecord<z.ZodMiniString, z.ZodMiniUnknown> =>
  z.record(z.string(), z.unknown());

/** Event `source`; `hook` marks events a hook produced (HookExecutionEvent) on newer servers. */
export const EventSourceSchema = z.enum(['agent', 'user', 'environment', 'hook']);

/** A default that is produced by a function (pydantic `default_factory`); marked so JSON Schema output omits it. */
export const GENERATED_DEFAULT = Symbol.for('agent-platform-sdk.models.generated-default');

function randomUuid(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (c?.randomUUID) return c.randomUUID();
  const hex = (n: number) =>
    Array.from({ length: n }, () => Math.floor(Math.random() * 16).toString(16)).join('');
  const variant = ((Math.floor(Math.random() * 4) + 8) >>> 0).toString(16);
  return `${hex(8)}-${hex(4)}-4${hex(3)}-${variant}${hex(3)}-${hex(12)}`;
}

/** Python's `datetime.now().isoformat()`: naive local time with microseconds, the server's timestamp format. */
function naiveLocalNow(): string {
  const d = new Date();
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return (
    `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T` +
    `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds() * 1000, 6)}`
  );
}

function generatedDefault(make: () => string): z.ZodMiniDefault<z.ZodMiniString> {
  const schema = z._default(z.string(), make);
  (schema as unknown as Record<symbol, boolean>)[GENERATED_DEFAULT] = true;
  return schema;
}

/**
 * Fields common to every event. The server model gives `id` a uuid4 and `timestamp` the
 * current time when absent, so neither is required on input (as in the OpenAPI document); both are always
 * strings on output.
 */
export function commonEventFields() {
  return {
    id: generatedDefault(randomUuid),
    timestamp: generatedDefault(naiveLocalNow),
    /**
     * The event this one follows from (an observation's action, a state update's cause…); `null` or absent for a
     * root event and on servers that do not send it (before 1.31, and 1.31.2 to 1.36). See `parentChain`.
     */
    parent_id: optionalNullable(z.string()),
  };
}
