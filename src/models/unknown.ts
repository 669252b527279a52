/**
 * Typed unknown values: what lenient parsing returns for an object whose `kind` this SDK does not know (a newer
 * server's `HookExecutionEvent`, a new tool's action, …) or whose `kind` is known but whose fields do not match
 * (a newer server changed a field). The value keeps its `kind` and every field untouched; a non-enumerable brand
 * (invisible to `JSON.stringify`) records why it is unknown and the validation issues, if any.
 */
import type * as z from 'zod/mini';
import type { ValidationIssue } from '../core/errors.js';

const UNKNOWN_BRAND = Symbol.for('agent-platform-sdk.models.unknown');

declare const unknownKindBrand: unique symbol;
/**
 * The `kind` of an unknown value. At run time it is the server's kind string, untouched; its type is opaque,
 * not `string`, because TypeScript stops narrowing a union on `kind` when any member's `kind` is a (branded)
 * string: with this type, `if (event.kind === 'ActionEvent')` and `switch (event.kind)` narrow the known kinds,
 * and `default` is left with the unknown ones. Read it as text with `String(event.kind)`.
 */
export type UnknownKind = { readonly [unknownKindBrand]: 'unknown-kind' };

/** Why a value was parsed as unknown: its kind is not known, or its kind is known but its fields are invalid. */
export interface UnknownInfo {
  readonly reason: 'unknown-kind' | 'invalid';
  /** For `invalid`: what did not match the known kind's schema. */
  readonly issues: readonly ValidationIssue[];
}

/** An object with a `kind` and any other fields, none of them checked. */
export interface UnknownKinded {
  readonly kind: UnknownKind;
  readonly [field: string]: unknown;
}

/** An event of a kind this SDK does not know (or an invalid known one, lenient mode only). */
export interface UnknownEvent extends UnknownKinded {
  readonly id?: unknown;
  readonly timestamp?: unknown;
  readonly source?: unknown;
}
/** An action of a kind this SDK does not know (or an invalid known one, lenient mode only). */
export type UnknownAction = UnknownKinded;
/** An observation of a kind this SDK does not know (or an invalid known one, lenient mode only). */
export type UnknownObservation = UnknownKinded;
/** A tool definition of a kind this SDK does not know (or an invalid known one, lenient mode only). */
export type UnknownToolDefinition = UnknownKinded;

/** The plain-object check every parser uses. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True for an object that carries a string `kind`. */
export function isKinded(value: unknown): value is { kind: string; [field: string]: unknown } {
  return isRecord(value) && typeof value.kind === 'string';
}

/** Copies `value` (shallowly) and brands the copy as unknown. */
export function makeUnknown(
  value: Record<string, unknown>,
  reason: UnknownInfo['reason'],
  issues: readonly ValidationIssue[] = [],
): UnknownKinded {
  return brandUnknown({ ...value }, reason, issues);
}

/** Why `value` was parsed as unknown, or `undefined` when it was not branded by this SDK's parsers. */
export function getUnknownInfo(value: unknown): UnknownInfo | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  return (value as { [UNKNOWN_BRAND]?: UnknownInfo })[UNKNOWN_BRAND];
}

/** True when `value` is branded unknown, or carries a `kind` outside `known`. */
export function isUnknownOf(value: unknown, known: ReadonlySet<string>): boolean {
  if (!isKinded(value)) return false;
  return getUnknownInfo(value) !== undefined || !known.has(value.kind);
}

/** Maps zod issues to the SDK's `ValidationIssue` (paths as strings and numbers). */
export function toValidationIssues(issues: readonly z.core.$ZodIssue[]): ValidationIssue[] {
  return issues.map((issue) => ({
    path: issue.path.map((p) => (typeof p === 'number' ? p : String(p))),
    message: issue.message,
    code: issue.code,
  }));
}

/** Brands `value` itself (a fresh object the caller owns) as unknown. */
export function brandUnknown(
  value: object,
  reason: UnknownInfo['reason'],
  issues: readonly ValidationIssue[],
): UnknownKinded {
  Object.defineProperty(value, UNKNOWN_BRAND, { value: { reason, issues }, enumerable: false });
  return value as UnknownKinded;
}
