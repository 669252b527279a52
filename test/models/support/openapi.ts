/**
 * Reading the agent server's published OpenAPI document (test/fixtures/openapi/1.58.2.json, the newest server of the matrix) and generating
 * instances from its JSON Schemas: deterministic ones (minimal, full, with nulls) and fast-check arbitraries.
 * Nothing here lists kinds or fields by hand; everything is read from the document.
 */
import { readFileSync } from 'node:fs';
import * as fc from 'fast-check';

export type JsonSchema = { [key: string]: unknown };

const DOC_URL = new URL('../../fixtures/openapi/1.58.2.json', import.meta.url);

export const openapi = JSON.parse(readFileSync(DOC_URL, 'utf8')) as {
  components: { schemas: Record<string, JsonSchema> };
};
const components = openapi.components.schemas;

/** The four unions the event model covers. */
export const UNIONS = ['Event', 'Action', 'Observation', 'ToolDefinition'] as const;
export type UnionName = (typeof UNIONS)[number];

export function component(name: string): JsonSchema {
  const schema = components[name];
  if (!schema) throw new Error(`no component ${name}`);
  return schema;
}

export function deref(schema: JsonSchema): JsonSchema {
  let current = schema;
  for (let i = 0; i < 20 && typeof current.$ref === 'string'; i++) {
    current = component(current.$ref.replace('#/components/schemas/', ''));
  }
  return current;
}

export const asSchemas = (value: unknown): JsonSchema[] =>
  Array.isArray(value) ? (value as JsonSchema[]) : [];
export const asSchema = (value: unknown): JsonSchema | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonSchema) : undefined;
export const properties = (schema: JsonSchema): Record<string, JsonSchema> =>
  (asSchema(schema.properties) as Record<string, JsonSchema> | undefined) ?? {};
export const required = (schema: JsonSchema): string[] =>
  Array.isArray(schema.required) ? schema.required : [];

export interface UnionMember {
  /** Component name, e.g. `ActionEvent`. */
  name: string;
  /** The `kind` const of the member. */
  kind: string;
  schema: JsonSchema;
}

/** The members of a union component (`oneOf` of `$ref`s), with the `kind` const each declares. */
export function unionMembers(union: UnionName): UnionMember[] {
  return asSchemas(component(union).oneOf).map((ref) => {
    const name = String(ref.$ref).replace('#/components/schemas/', '');
    const schema = component(name);
    const kind = asSchema(properties(schema).kind)?.const;
    if (typeof kind !== 'string') throw new Error(`${name} has no kind const`);
    return { name, kind, schema };
  });
}

/** The discriminator mapping of a union: mapping key → member component name. */
export function discriminatorMapping(union: UnionName): Record<string, string> {
  const mapping = asSchema(asSchema(component(union).discriminator)?.mapping) ?? {};
  return Object.fromEntries(
    Object.entries(mapping).map(([key, ref]) => [key, String(ref).replace('#/components/schemas/', '')]),
  );
}

// ---- Deterministic instances ----

export type Strategy = 'minimal' | 'full' | 'nulls';

/**
 * Constraints the platform adds on top of the OpenAPI document (a browser `tab_id` is a string of 4
 * characters). Generated values must honour them; the cross-check test asserts nothing else differs.
 */
export function specString(path: string[]): string | undefined {
  return path.at(-1) === 'tab_id' ? 'ab12' : undefined;
}

/** The non-null branches of an `anyOf`, and whether `null` is allowed. */
export function splitNullable(schema: JsonSchema): { branches: JsonSchema[]; nullable: boolean } {
  const anyOf = asSchemas(schema.anyOf ?? schema.oneOf);
  if (anyOf.length === 0) return { branches: [schema], nullable: schema.type === 'null' };
  const branches = anyOf.filter((b) => b.type !== 'null');
  return { branches, nullable: branches.length < anyOf.length };
}

/** One instance of `schema`: required fields only (`minimal`), every field (`full`), or `null` wherever allowed. */
export function instance(schema: JsonSchema, strategy: Strategy, path: string[] = [], branch = 0): unknown {
  const resolved = deref(schema);
  if ('const' in resolved) return resolved.const;
  if (Array.isArray(resolved.enum)) return resolved.enum[branch % resolved.enum.length];
  const { branches, nullable } = splitNullable(resolved);
  if (branches.length > 1 || (branches[0] !== resolved && branches.length === 1)) {
    if (nullable && strategy === 'nulls') return null;
    const chosen = branches[branch % branches.length];
    return chosen ? instance(chosen, strategy, path, branch) : null;
  }
  switch (resolved.type) {
    case 'string':
      if (resolved.format === 'date-time') return '2026-02-05T11:24:45.292853';
      return specString(path) ?? `${path.at(-1) ?? 'value'}-text`;
    case 'integer':
      return typeof resolved.minimum === 'number' ? resolved.minimum + 1 : 3;
    case 'number': {
      const min = typeof resolved.minimum === 'number' ? resolved.minimum : 0;
      const max = typeof resolved.maximum === 'number' ? resolved.maximum : min + 10;
      return (min + max) / 2;
    }
    case 'boolean':
      return true;
    case 'array': {
      const prefix = asSchemas(resolved.prefixItems);
      if (prefix.length > 0) return prefix.map((item, i) => instance(item, strategy, [...path, String(i)]));
      const items = asSchema(resolved.items);
      return strategy === 'minimal' || !items ? [] : [instance(items, strategy, [...path, '0'], branch)];
    }
    case 'object':
    case undefined: {
      const props = properties(resolved);
      const valueSchema = asSchema(resolved.additionalProperties);
      if (Object.keys(props).length === 0 && valueSchema && Object.keys(valueSchema).length > 0) {
        return strategy === 'minimal'
          ? {}
          : { key: instance(valueSchema, strategy, [...path, 'key'], branch) };
      }
      if (Object.keys(props).length === 0) {
        return resolved.type === 'object' ? { note: 'free-form', n: 1 } : { any: ['json', 1, null] };
      }
      const out: Record<string, unknown> = {};
      const keys = strategy === 'minimal' ? required(resolved) : Object.keys(props);
      for (const key of keys) {
        const prop = props[key];
        if (prop) out[key] = instance(prop, strategy, [...path, key], branch);
      }
      return out;
    }
    default:
      return null;
  }
}

// ---- fast-check arbitraries ----

const keyArb = fc.string({ maxLength: 8 }).filter((k) => k !== '__proto__');
const jsonArb = fc.jsonValue({ maxDepth: 2 });

/**
 * A fast-check arbitrary of valid instances of `schema`. Objects the document leaves open
 * (no `additionalProperties: false`) also get extra keys, which strict mode must keep.
 */
export function arbitrary(schema: JsonSchema, path: string[] = [], depth = 0): fc.Arbitrary<unknown> {
  const resolved = deref(schema);
  if ('const' in resolved) return fc.constant(resolved.const);
  if (Array.isArray(resolved.enum)) return fc.constantFrom(...(resolved.enum as unknown[]));
  const { branches, nullable } = splitNullable(resolved);
  if (branches.length > 1 || (branches[0] !== resolved && branches.length === 1)) {
    const options = branches.map((b) => arbitrary(b, path, depth));
    if (nullable) options.push(fc.constant(null));
    return fc.oneof(...options);
  }
  switch (resolved.type) {
    case 'string': {
      if (resolved.format === 'date-time') {
        return fc
          .date({
            min: new Date('2000-01-01T00:00:00Z'),
            max: new Date('2099-12-31T00:00:00Z'),
            noInvalidDate: true,
          })
          .map((d) => d.toISOString());
      }
      const fixed = specString(path);
      if (fixed !== undefined) return fc.string({ minLength: 4, maxLength: 4 });
      const minLength = typeof resolved.minLength === 'number' ? resolved.minLength : 0;
      return fc.string({ minLength, maxLength: Math.max(12, minLength) });
    }
    case 'integer':
      return fc.integer({
        min: typeof resolved.minimum === 'number' ? resolved.minimum : -1_000_000,
        max: typeof resolved.maximum === 'number' ? resolved.maximum : 1_000_000,
      });
    case 'number':
      return fc.double({
        min: typeof resolved.minimum === 'number' ? resolved.minimum : -1e9,
        max: typeof resolved.maximum === 'number' ? resolved.maximum : 1e9,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const prefix = asSchemas(resolved.prefixItems);
      if (prefix.length > 0)
        return fc.tuple(...prefix.map((item, i) => arbitrary(item, [...path, String(i)], depth + 1)));
      const items = asSchema(resolved.items);
      if (!items) return fc.array(jsonArb, { maxLength: 2 });
      return fc.array(arbitrary(items, [...path, '0'], depth + 1), { maxLength: depth > 2 ? 1 : 3 });
    }
    case 'object':
    case undefined: {
      const props = properties(resolved);
      const valueSchema = asSchema(resolved.additionalProperties);
      if (Object.keys(props).length === 0 && valueSchema && Object.keys(valueSchema).length > 0) {
        return fc.dictionary(keyArb, arbitrary(valueSchema, [...path, 'key'], depth + 1), { maxKeys: 3 });
      }
      if (Object.keys(props).length === 0) {
        return resolved.type === 'object' ? fc.dictionary(keyArb, jsonArb, { maxKeys: 3 }) : jsonArb;
      }
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, prop] of Object.entries(props))
        model[key] = arbitrary(prop, [...path, key], depth + 1);
      const record = fc.record(model, { requiredKeys: required(resolved) });
      if (resolved.additionalProperties === false) return record;
      const extras = fc.dictionary(
        keyArb.filter((k) => !(k in props)),
        jsonArb,
        { maxKeys: 2 },
      );
      return fc.tuple(record, extras).map(([base, extra]) => ({ ...extra, ...base }));
    }
    default:
      return jsonArb;
  }
}
