/**
 * Lenient mode's "`null` counts as absent". Fields the schema types as nullable (`anyOf: [T, null]`) take `null`
 * as it is; a `null` in any other known field is dropped before validation, so the field's default applies or the
 * field stays absent (`security_risk: null` becomes `"UNKNOWN"`, `thinking_blocks: null` becomes `[]`). Unknown
 * fields and free-form values (tool arguments, metadata, JSON Schema documents, state-update values, unknown
 * kinds) are left untouched.
 *
 * Servers only write `null` into nullable fields, so the parser first validates the input as it is and walks it
 * only when that fails. The walk follows a plan derived once from the lenient zod schemas and copies an object
 * only when it has a `null` to drop.
 */
import type * as z from 'zod/mini';
import { isRecord } from './unknown.js';

/** Lenient kind unions, and the known union behind each (the plan follows the known union). */
const KIND_UNION_TARGETS = new WeakMap<object, z.ZodMiniType>();

export function registerKindUnion(schema: z.ZodMiniType, known: z.ZodMiniType): void {
  KIND_UNION_TARGETS.set(schema, known);
}

const OBJECT = 0;
const ARRAY = 1;
const KINDS = 2;

/** One node of the plan. A single shape for every node keeps the walk monomorphic (fast). */
export interface Plan {
  readonly type: typeof OBJECT | typeof ARRAY | typeof KINDS;
  /** OBJECT: the known keys that do not take `null` (a `null` there is dropped). */
  readonly keys: ReadonlySet<string>;
  /** OBJECT: plans of the known keys that hold model objects. */
  readonly children: ReadonlyMap<string, Plan>;
  /** ARRAY: plan of the items. */
  readonly element: Plan | null;
  /** KINDS: the discriminator key and the object plan of each of its values. */
  readonly discriminator: string;
  readonly byKind: ReadonlyMap<string, Plan>;
}

const NO_KEYS: ReadonlySet<string> = new Set();
const NO_PLANS: ReadonlyMap<string, Plan> = new Map();

function objectPlan(keys: ReadonlySet<string>, children: ReadonlyMap<string, Plan>): Plan {
  return { type: OBJECT, keys, children, element: null, discriminator: '', byKind: NO_PLANS };
}

interface Def {
  type: string;
  innerType?: z.ZodMiniType;
  shape?: Record<string, z.ZodMiniType>;
  element?: z.ZodMiniType;
  options?: z.ZodMiniType[];
  discriminator?: string;
  in?: z.ZodMiniType;
  out?: z.ZodMiniType;
}

const defOf = (schema: z.ZodMiniType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'nonoptional', 'catch']);

/** Builds the null-stripping plan of a schema; `undefined` where nothing inside is a known model object. */
export function planFor(schema: z.ZodMiniType): Plan | undefined {
  const target = KIND_UNION_TARGETS.get(schema);
  if (target) return planFor(target);
  const def = defOf(schema);
  if (WRAPPERS.has(def.type) && def.innerType) return planFor(def.innerType);
  switch (def.type) {
    case 'object': {
      const shape = def.shape ?? {};
      const children = new Map<string, Plan>();
      const keys = new Set<string>();
      for (const [key, field] of Object.entries(shape)) {
        if (!acceptsNull(field)) keys.add(key);
        const child = planFor(field);
        if (child) children.set(key, child);
      }
      return objectPlan(keys, children);
    }
    case 'array': {
      const element = def.element && planFor(def.element);
      return element
        ? { type: ARRAY, keys: NO_KEYS, children: NO_PLANS, element, discriminator: '', byKind: NO_PLANS }
        : undefined;
    }
    case 'union': {
      const options = def.options ?? [];
      if (def.discriminator) {
        const byKind = new Map<string, Plan>();
        for (const option of options) {
          const plan = planFor(option);
          const values = (option as unknown as { _zod: { propValues?: Record<string, Set<unknown>> } })._zod
            .propValues?.[def.discriminator];
          if (!plan || plan.type !== OBJECT || !values) continue;
          for (const value of values) if (typeof value === 'string') byKind.set(value, plan);
        }
        return {
          type: KINDS,
          keys: NO_KEYS,
          children: NO_PLANS,
          element: null,
          discriminator: def.discriminator,
          byKind,
        };
      }
      return mergeObjectPlans(options.map(planFor));
    }
    case 'pipe':
      return def.in ? planFor(def.in) : undefined;
    default:
      return undefined;
  }
}

/** True when the field's schema itself takes `null` (a nullable field, or free-form JSON). */
function acceptsNull(schema: z.ZodMiniType): boolean {
  const def = defOf(schema);
  if (def.type === 'nullable' || def.type === 'unknown' || def.type === 'any') return true;
  if (WRAPPERS.has(def.type) && def.innerType) return acceptsNull(def.innerType);
  return false;
}

/** A non-discriminated union of objects (content items, thinking blocks): the union of their known keys. */
function mergeObjectPlans(plans: (Plan | undefined)[]): Plan | undefined {
  const objects = plans.filter((p): p is Plan => p !== undefined && p.type === OBJECT);
  if (objects.length === 0) return undefined;
  const keys = new Set<string>();
  const children = new Map<string, Plan>();
  for (const plan of objects) {
    for (const key of plan.keys) keys.add(key);
    for (const [key, child] of plan.children) if (!children.has(key)) children.set(key, child);
  }
  return objectPlan(keys, children);
}

/** Returns `value` with known `null` fields removed, sharing every unchanged object and array. */
export function stripKnownNulls(value: unknown, plan: Plan): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (plan.type === ARRAY) {
    if (!Array.isArray(value) || plan.element === null) return value;
    const element = plan.element;
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      const stripped = stripKnownNulls(item, element);
      if (stripped !== item) {
        out ??= value.slice();
        out[i] = stripped;
      }
    }
    return out ?? value;
  }
  if (!isRecord(value)) return value;
  if (plan.type === KINDS) {
    const kind = value[plan.discriminator];
    const objectPlan = typeof kind === 'string' ? plan.byKind.get(kind) : undefined;
    return objectPlan ? stripObject(value, objectPlan) : value;
  }
  return stripObject(value, plan);
}

function stripObject(value: Record<string, unknown>, plan: Plan): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const key in value) {
    const field = value[key];
    if (field === null) {
      if (plan.keys.has(key)) out ??= copyUpTo(value, key);
      else if (out) setOwn(out, key, field);
      continue;
    }
    let next: unknown = field;
    if (typeof field === 'object') {
      const child = plan.children.get(key);
      if (child) next = stripKnownNulls(field, child);
    }
    if (out) setOwn(out, key, next);
    else if (next !== field) {
      out = copyUpTo(value, key);
      setOwn(out, key, next);
    }
  }
  return out ?? value;
}

/** A copy of `value` holding the keys before `stop` (in iteration order). */
function copyUpTo(value: Record<string, unknown>, stop: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in value) {
    if (key === stop) break;
    setOwn(out, key, value[key]);
  }
  return out;
}

/** Assignment that treats a `__proto__` key (possible in parsed JSON) as plain data. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else target[key] = value;
}
