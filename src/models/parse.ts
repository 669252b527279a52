/**
 * Parsing entry points. `parseEvent` throws ResponseValidationError and nothing else; `safeParseEvent` never
 * throws. Both accept a JSON string or an already-parsed value.
 *
 * - `strict`: the published schema exactly. Unknown keys on closed types, unknown kinds and `null` where the
 *   schema has no `null` are errors.
 * - `lenient` (default): unknown keys are kept, a known field holding `null` counts as absent (defaults apply),
 *   and an object with a string `kind` is never rejected: an unknown kind, or a known kind whose fields do not
 *   match, becomes a branded UnknownEvent (and likewise for nested actions, observations, tool definitions).
 */
import * as z from 'zod/mini';
import { ResponseValidationError, type ValidationIssue } from '../core/errors.js';
import { identityChecks } from './compiled/checks.js';
import { type ConversationState, ConversationStateSchema } from './conversation-state.js';
import { EVENT_KIND_SET } from './events.js';
import { PARSE_PARAMS } from './messages.js';
import { eventSchemas } from './mode-schemas.js';
import { type Plan, planFor, stripKnownNulls } from './nulls.js';
import { redactEventJson, safeEventJson } from './redact.js';
import type { ParseMode } from './schema-kit.js';
import type { Action, Event, Observation } from './schemas.js';
import {
  isKinded,
  makeUnknown,
  toValidationIssues,
  type UnknownAction,
  type UnknownObservation,
} from './unknown.js';

export interface ParseOptions {
  /** Default `lenient`. */
  mode?: ParseMode;
}

export type SafeParseResult<T> =
  | { success: true; data: T }
  | { success: false; error: ResponseValidationError };

type Compile = <T extends z.ZodMiniType>(schema: T) => T;
let compile: Compile | undefined;

/**
 * Compiles, with zod's run-time compiler (`import { compile } from 'zod/mini'`), the parsers that run when the
 * predicates compiled at build time do not accept a value: your own schemas passed to `safeParseModel`, values
 * you pass in (which are copied), and events that need a default filled in or a key dropped. Events as real
 * servers send them never need it (see docs/performance.md), so most apps do not call this. Results are
 * identical either way; it needs `new Function` (not under a strict Content-Security-Policy).
 */
export function enableCompiledParsers(compiler: Compile): void {
  compile = compiler;
  cache.clear();
  lenientEvent = undefined;
}

/** Parsers and null plans, built on first use. */
const cache = new Map<z.ZodMiniType, z.ZodMiniType>();
const plans = new Map<z.ZodMiniType, Plan | undefined>();

/** A predicate compiled at build time (src/models/compiled/checks.ts). */
type Check = (value: unknown) => boolean;

/**
 * Whether a value the SDK decoded itself can be returned as it is: the predicate compiled at build time says it
 * is already exactly what the schema outputs (the common case: servers send every field), so the copy the parser
 * would make is skipped, and so is building the schemas (mode-schemas.ts). Values a caller passes in are always
 * copied (`parseEvent(object)` never returns its argument).
 */
function exact(check: Check | undefined, value: unknown, owned: boolean): boolean {
  return owned && check?.(value) === true;
}

/** The schema's parser: zod's, or the one `enableCompiledParsers` compiled from it. */
function compiled<T extends z.ZodMiniType>(schema: T): T {
  let parser = cache.get(schema);
  if (!parser) {
    parser = compile && !z.config().jitless ? compile(schema) : schema;
    cache.set(schema, parser);
  }
  return parser as T;
}

/** The lenient Event parser: `compiled(eventSchemas('lenient').Event)`, kept at hand (it runs for every streamed event). */
let lenientEvent: z.ZodMiniType | undefined;

function lenientEventParser(): z.ZodMiniType {
  if (lenientEvent === undefined) lenientEvent = compiled(eventSchemas('lenient').Event);
  return lenientEvent;
}

function planOf(schema: z.ZodMiniType): Plan | undefined {
  if (!plans.has(schema)) plans.set(schema, planFor(schema));
  return plans.get(schema);
}

function failure(
  what: string,
  issues: ValidationIssue[],
  input: unknown,
): { success: false; error: ResponseValidationError } {
  const rawBody = typeof input === 'string' ? redactEventJson(input) : safeEventJson(input);
  return { success: false, error: new ResponseValidationError(`Invalid ${what}`, { issues, rawBody }) };
}

type Decoded = { ok: true; value: unknown } | { ok: false; issues: ValidationIssue[] };

function decode(input: unknown): Decoded {
  if (typeof input !== 'string') return { ok: true, value: input };
  try {
    return { ok: true, value: JSON.parse(input) };
  } catch (error) {
    return { ok: false, issues: invalidJson(error) };
  }
}

function invalidJson(error: unknown): ValidationIssue[] {
  // V8's message can quote part of the text; keep only the position.
  const position = /at position (\d+)/.exec(String((error as Error).message))?.[1];
  const message =
    position === undefined ? 'not valid JSON' : `not valid JSON (error at position ${position})`;
  return [{ path: [], message, code: 'invalid_json' }];
}

function unexpected(error: unknown): ValidationIssue[] {
  return [{ path: [], message: `could not be validated (${String(error)})`, code: 'unexpected' }];
}

/** Parses one event. Lenient by default; see the module comment for what each mode accepts. */
export function safeParseEvent(input: unknown, options?: ParseOptions): SafeParseResult<Event> {
  return parseEventFrom(input, options, typeof input === 'string');
}

/**
 * `safeParseEvent` for a value the SDK decoded itself (a frame's or a page's JSON), which nothing else holds:
 * the result may be the value itself. Internal (not exported by the package).
 */
export function safeParseOwnedEvent(value: unknown, options?: ParseOptions): SafeParseResult<Event> {
  return parseEventFrom(value, options, true);
}

function parseEventFrom(
  input: unknown,
  options: ParseOptions | undefined,
  owned: boolean,
): SafeParseResult<Event> {
  try {
    // `decode` inlined: this runs for every streamed event, and its result object is garbage at once.
    let value: unknown = input;
    if (typeof input === 'string') {
      try {
        value = JSON.parse(input);
      } catch (error) {
        return failure('event', invalidJson(error), input);
      }
    }
    if (options?.mode === 'strict') {
      if (exact(identityChecks.strictEvent, value, owned)) return { success: true, data: value as Event };
      const result = compiled(eventSchemas('strict').Event).safeParse(value, PARSE_PARAMS);
      if (result.success) return { success: true, data: result.data as Event };
      return failure('event', toValidationIssues(result.error.issues), input);
    }
    // The predicate first: it accepts known kinds only, so an event it accepts needs neither the shape check
    // nor the kind lookup below (as decode-event.ts does; this is parseEvent's path for text).
    if (exact(identityChecks.lenientEvent, value, owned)) return { success: true, data: value as Event };
    if (!isKinded(value)) {
      const result = lenientEventParser().safeParse(value, PARSE_PARAMS);
      return failure('event', result.success ? [] : toValidationIssues(result.error.issues), input);
    }
    if (!EVENT_KIND_SET.has(value.kind))
      return { success: true, data: makeUnknown(value, 'unknown-kind') as Event };
    const parser = lenientEventParser();
    let result = parser.safeParse(value, PARSE_PARAMS);
    if (result.success) return { success: true, data: result.data as Event };
    const plan = planOf(eventSchemas('lenient').Event);
    const cleaned = plan ? stripKnownNulls(value, plan) : value;
    if (cleaned !== value) {
      result = parser.safeParse(cleaned, PARSE_PARAMS);
      if (result.success) return { success: true, data: result.data as Event };
    }
    return {
      success: true,
      data: makeUnknown(value, 'invalid', toValidationIssues(result.error.issues)) as Event,
    };
  } catch (error) {
    return failure('event', unexpected(error), input);
  }
}

/** Parses one event or throws ResponseValidationError (invalid JSON text included). */
export function parseEvent(input: unknown, options?: ParseOptions): Event {
  const result = safeParseEvent(input, options);
  if (!result.success) throw result.error;
  return result.data;
}

/**
 * Parses any model value with a schema of this module: a JSON string or a value. In lenient mode known `null`
 * fields are dropped first. Unlike events, an invalid value is an error in both modes.
 */
export function safeParseModel<T extends z.ZodMiniType>(
  schema: T,
  input: unknown,
  options?: ParseOptions & { what?: string },
): SafeParseResult<z.output<T>> {
  return parseModelWith(schema, undefined, input, options);
}

/** `safeParseModel` with the schema's predicate compiled at build time, if it has one. */
function parseModelWith<T extends z.ZodMiniType>(
  schema: T,
  check: Check | undefined,
  input: unknown,
  options?: ParseOptions & { what?: string },
): SafeParseResult<z.output<T>> {
  const what = options?.what ?? 'value';
  try {
    const decoded = decode(input);
    if (!decoded.ok) return failure(what, decoded.issues, input);
    const value = decoded.value;
    if (exact(check, value, typeof input === 'string')) return { success: true, data: value as z.output<T> };
    const parser = compiled(schema);
    let result = parser.safeParse(value, PARSE_PARAMS);
    if (result.success) return { success: true, data: result.data };
    if (options?.mode !== 'strict') {
      const plan = planOf(schema);
      const cleaned = plan ? stripKnownNulls(value, plan) : value;
      if (cleaned !== value) {
        result = parser.safeParse(cleaned, PARSE_PARAMS);
        if (result.success) return { success: true, data: result.data };
      }
    }
    return failure(what, toValidationIssues(result.error.issues), input);
  } catch (error) {
    return failure(what, unexpected(error), input);
  }
}

/** Parses a ConversationState (the value of a `full_state` update). Throws ResponseValidationError. */
export function parseConversationState(input: unknown, options?: ParseOptions): ConversationState {
  const result = parseModelWith(ConversationStateSchema, identityChecks.conversationState, input, {
    ...options,
    what: 'conversation state',
  });
  if (!result.success) throw result.error;
  return result.data;
}

/**
 * Parses one Action (e.g. an `action` taken out of an event). In lenient mode an unknown kind, or a known kind
 * with invalid fields, gives an UnknownAction; strict mode rejects both. Throws ResponseValidationError.
 */
export function parseAction(input: unknown, options?: ParseOptions): Action | UnknownAction {
  const strict = options?.mode === 'strict';
  const schema = eventSchemas(strict ? 'strict' : 'lenient').Action;
  const check = strict ? identityChecks.strictAction : identityChecks.lenientAction;
  const result = parseModelWith(schema, check, input, { ...options, what: 'action' });
  if (!result.success) throw result.error;
  return result.data;
}

/** Parses one Observation, like `parseAction`. Throws ResponseValidationError. */
export function parseObservation(input: unknown, options?: ParseOptions): Observation | UnknownObservation {
  const strict = options?.mode === 'strict';
  const schema = eventSchemas(strict ? 'strict' : 'lenient').Observation;
  const check = strict ? identityChecks.strictObservation : identityChecks.lenientObservation;
  const result = parseModelWith(schema, check, input, { ...options, what: 'observation' });
  if (!result.success) throw result.error;
  return result.data;
}
