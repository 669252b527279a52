/**
 * Cross-check with the real server's published schema: the test walks test/fixtures/agent-server-openapi.json
 * (no hand-copied list of kinds or fields). The document lists the classes the server had imported when it
 * first served it; the complete list of kinds comes from the packages (kinds-coverage.test.ts). For every event, action, observation and tool definition schema:
 * instances generated from its JSON Schema parse in strict mode, and our JSON Schema (z.toJSONSchema) agrees on
 * kinds, properties, required fields, enums, consts, bounds, defaults, nullability and closed objects.
 */
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ACTION_KIND_MODULE_PATHS,
  ACTION_KINDS,
  EVENT_KIND_MODULE_PATHS,
  EVENT_KINDS,
  OBSERVATION_KIND_MODULE_PATHS,
  OBSERVATION_KINDS,
  parseEvent,
  safeParseEvent,
  safeParseModel,
  TOOL_DEFINITION_KIND_MODULE_PATHS,
  TOOL_DEFINITION_KINDS,
} from '../../src/models/index.js';
import { eventModelJsonSchema } from '../../src/models/json-schema.js';
import { ActionSchema, ObservationSchema, ToolDefinitionSchema } from '../../src/models.js';
import {
  arbitrary,
  asSchema,
  asSchemas,
  deref,
  discriminatorMapping,
  instance,
  type JsonSchema,
  properties,
  required,
  type Strategy,
  splitNullable,
  UNIONS,
  type UnionName,
  unionMembers,
} from './support/openapi.js';

const OURS = eventModelJsonSchema() as { $defs: Record<string, JsonSchema> };
const ourDef = (name: string): JsonSchema => {
  const def = OURS.$defs[name];
  if (!def) throw new Error(`our JSON Schema has no $defs.${name}`);
  return def;
};
const ourDeref = (schema: JsonSchema): JsonSchema => {
  let current = schema;
  while (typeof current.$ref === 'string') current = ourDef(current.$ref.replace('#/$defs/', ''));
  return current;
};

const OUR_KINDS: Record<UnionName, readonly string[]> = {
  Event: EVENT_KINDS,
  Action: ACTION_KINDS,
  Observation: OBSERVATION_KINDS,
  ToolDefinition: TOOL_DEFINITION_KINDS,
};
const OUR_MODULE_PATHS: Record<UnionName, Record<string, string>> = {
  Event: EVENT_KIND_MODULE_PATHS,
  Action: ACTION_KIND_MODULE_PATHS,
  Observation: OBSERVATION_KIND_MODULE_PATHS,
  ToolDefinition: TOOL_DEFINITION_KIND_MODULE_PATHS,
};

/** Parses one member instance in strict mode with the schema of its union. */
function parseStrict(union: UnionName, value: unknown): { success: boolean; message?: string } {
  if (union === 'Event') {
    const result = safeParseEvent(value, { mode: 'strict' });
    return result.success ? { success: true } : { success: false, message: result.error.message };
  }
  const schema =
    union === 'Action' ? ActionSchema : union === 'Observation' ? ObservationSchema : ToolDefinitionSchema;
  const result = safeParseModel(schema, value, { mode: 'strict' });
  return result.success ? { success: true } : { success: false, message: result.error.message };
}

// ---- Structural comparison of the OpenAPI schema with ours ----

function nullableOf(schema: JsonSchema): { inner: JsonSchema; nullable: boolean } {
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((t) => t !== 'null');
    return {
      inner: { ...schema, type: types.length === 1 ? types[0] : types },
      nullable: types.length < schema.type.length,
    };
  }
  const { branches, nullable } = splitNullable(schema);
  if (nullable && branches.length === 1 && branches[0]) return { inner: branches[0], nullable };
  return { inner: schema, nullable: schema.type === 'null' };
}

/** Differences between their schema and ours at `path` (empty when they agree). */
function compare(theirsIn: JsonSchema, oursIn: JsonSchema, path: string, diffs: string[], depth = 0): void {
  if (depth > 12) return;
  const t0 = deref(theirsIn);
  const o0 = ourDeref(oursIn);
  const t = nullableOf(t0);
  const o = nullableOf(o0);
  if (t.nullable !== o.nullable) diffs.push(`${path}: nullable ${t.nullable} vs ours ${o.nullable}`);
  const theirs = deref(t.inner);
  const ours = ourDeref(o.inner);

  if ('default' in theirsIn || 'default' in theirs) {
    const expected = 'default' in theirsIn ? theirsIn.default : theirs.default;
    const actual = 'default' in o0 ? o0.default : ours.default;
    if (JSON.stringify(expected) !== JSON.stringify(actual)) {
      diffs.push(`${path}: default ${JSON.stringify(expected)} vs ours ${JSON.stringify(actual)}`);
    }
  }
  if ('const' in theirs && theirs.const !== ours.const)
    diffs.push(`${path}: const ${theirs.const} vs ${ours.const}`);
  if (Array.isArray(theirs.enum)) {
    const a = [...theirs.enum].sort().join(',');
    const b = Array.isArray(ours.enum) ? [...ours.enum].sort().join(',') : String(ours.const ?? '(none)');
    if (a !== b) diffs.push(`${path}: enum [${a}] vs ours [${b}]`);
  }
  for (const bound of [
    'minimum',
    'maximum',
    'exclusiveMinimum',
    'exclusiveMaximum',
    'minItems',
    'maxItems',
  ] as const) {
    if (bound in theirs && theirs[bound] !== ours[bound]) {
      diffs.push(`${path}: ${bound} ${theirs[bound]} vs ours ${ours[bound]}`);
    }
  }
  if (typeof theirs.format === 'string' && theirs.format !== ours.format) {
    diffs.push(`${path}: format ${theirs.format} vs ours ${ours.format}`);
  }
  if (typeof theirs.type === 'string' && theirs.type !== 'null' && ours.type !== theirs.type) {
    diffs.push(`${path}: type ${theirs.type} vs ours ${JSON.stringify(ours.type)}`);
  }

  // Unions of kinded members (Action inside ActionEvent, …): match members by their kind const.
  const theirMembers = asSchemas(theirs.oneOf ?? theirs.anyOf).map(deref);
  if (theirMembers.length > 1) {
    const ourMembers = asSchemas(ours.oneOf ?? ours.anyOf).map(ourDeref);
    const key = (m: JsonSchema, i: number) => {
      const kind = asSchema(properties(m).kind)?.const;
      return typeof kind === 'string' ? kind : String(i);
    };
    const ourByKey = new Map(ourMembers.map((m, i) => [key(m, i), m]));
    theirMembers.forEach((member, i) => {
      const mine = ourByKey.get(key(member, i));
      if (!mine) diffs.push(`${path}: member ${key(member, i)} missing in ours`);
      else compare(member, mine, `${path}|${key(member, i)}`, diffs, depth + 1);
    });
    // Ours may have more members: kinds the served document leaves out (see 'lists only our kinds').
    return;
  }

  if (theirs.type === 'object' || theirs.properties) {
    const tp = properties(theirs);
    const op = properties(ours);
    // Ours may have more optional properties: fields older servers send (test/fixtures/kinds/ lists them).
    const ourRequired = new Set(required(ours));
    const tKeys = Object.keys(tp).sort().join(',');
    const oKeys = Object.keys(op)
      .filter((key) => key in tp || ourRequired.has(key))
      .sort()
      .join(',');
    if (Object.keys(tp).length > 0 && tKeys !== oKeys)
      diffs.push(`${path}: properties [${tKeys}] vs ours [${oKeys}]`);
    const tReq = [...required(theirs)].sort().join(',');
    const oReq = [...required(ours)].sort().join(',');
    if (tReq !== oReq) diffs.push(`${path}: required [${tReq}] vs ours [${oReq}]`);
    const tClosed = theirs.additionalProperties === false;
    const oClosed = ours.additionalProperties === false;
    if (tClosed !== oClosed) diffs.push(`${path}: closed ${tClosed} vs ours ${oClosed}`);
    for (const [key, prop] of Object.entries(tp)) {
      const mine = op[key];
      if (mine) compare(prop, mine, `${path}.${key}`, diffs, depth + 1);
    }
  }
  if (theirs.type === 'array') {
    const tPrefix = asSchemas(theirs.prefixItems);
    const oPrefix = asSchemas(ours.prefixItems);
    if (tPrefix.length !== oPrefix.length)
      diffs.push(`${path}: ${tPrefix.length} prefixItems vs ours ${oPrefix.length}`);
    tPrefix.forEach((item, i) => {
      const mine = oPrefix[i];
      if (mine) compare(item, mine, `${path}[${i}]`, diffs, depth + 1);
    });
    const tItems = asSchema(theirs.items);
    const oItems = asSchema(ours.items);
    if (tItems && oItems) compare(tItems, oItems, `${path}[]`, diffs, depth + 1);
    else if (tItems && !oItems) diffs.push(`${path}: items missing in ours`);
  }
}

describe.each(UNIONS)('OpenAPI %s union', (union) => {
  const members = unionMembers(union);

  // The served document lists only the classes the server had imported when it first built it, so it has fewer
  // kinds than the packages define (those are checked in kinds-coverage.test.ts): ours may have more.
  it('lists only our kinds, in our order', () => {
    expect(members.length).toBeGreaterThan(0);
    const listed = new Set(members.map((m) => m.kind));
    expect(members.map((m) => m.kind)).toEqual(OUR_KINDS[union].filter((kind) => listed.has(kind)));
  });

  it('discriminator mapping keys are our module paths (`__` → `.`, without the ref suffix)', () => {
    const mapping = discriminatorMapping(union);
    const fromDocument = Object.fromEntries(
      Object.entries(mapping).map(([key, member]) => {
        const kind = members.find((m) => m.name === member)?.kind ?? member;
        return [kind, key.replace(/-Output__\d+$/, '').replaceAll('__', '.')];
      }),
    );
    const ours = Object.fromEntries(
      Object.entries(OUR_MODULE_PATHS[union]).filter(([kind]) => kind in fromDocument),
    );
    expect(fromDocument).toEqual(ours);
  });

  it('agrees with our JSON Schema on every property, required field, enum, default and bound', () => {
    const diffs: string[] = [];
    compare(deref({ $ref: `#/components/schemas/${union}` }), ourDef(union), union, diffs);
    expect(diffs).toEqual([]);
  });

  describe.each(members.map((m) => [m.name, m] as const))('%s', (_name, member) => {
    it('has the same required fields as ours', () => {
      expect([...required(ourDef(member.kind))].sort()).toEqual([...required(member.schema)].sort());
    });

    it.each(['minimal', 'full', 'nulls'] as Strategy[])('a %s instance parses in strict mode', (strategy) => {
      const value = instance(member.schema, strategy);
      expect(parseStrict(union, value)).toEqual({ success: true });
    });

    it('instances generated from its JSON Schema parse in strict mode (fast-check)', () => {
      fc.assert(
        fc.property(arbitrary(member.schema), (value) => {
          const result = parseStrict(union, value);
          if (!result.success) throw new Error(`${result.message}\n${JSON.stringify(value)}`);
        }),
        { numRuns: 40 },
      );
    });
  });
});

describe('nested unions inside events', () => {
  it('every action kind parses inside an ActionEvent, and every observation kind inside an ObservationEvent', () => {
    const actionEvent = instance(deref({ $ref: '#/components/schemas/ActionEvent' }), 'minimal') as Record<
      string,
      unknown
    >;
    const observationEvent = instance(
      deref({ $ref: '#/components/schemas/ObservationEvent' }),
      'full',
    ) as Record<string, unknown>;
    for (const member of unionMembers('Action')) {
      const event = parseEvent(
        { ...actionEvent, action: instance(member.schema, 'full') },
        { mode: 'strict' },
      );
      expect(event.kind).toBe('ActionEvent');
      expect((event as { action?: { kind: string } }).action?.kind).toBe(member.kind);
    }
    for (const member of unionMembers('Observation')) {
      const event = parseEvent(
        { ...observationEvent, observation: instance(member.schema, 'minimal') },
        { mode: 'strict' },
      );
      expect((event as { observation?: { kind: string } }).observation?.kind).toBe(member.kind);
    }
  });

  it('every tool definition kind parses inside a SystemPromptEvent', () => {
    const base = instance(deref({ $ref: '#/components/schemas/SystemPromptEvent' }), 'minimal') as Record<
      string,
      unknown
    >;
    const tools = unionMembers('ToolDefinition').map((m) => instance(m.schema, 'full'));
    const event = parseEvent({ ...base, tools }, { mode: 'strict' }) as { tools: { kind: string }[] };
    expect(event.tools.map((t) => t.kind)).toEqual(
      TOOL_DEFINITION_KINDS.filter((kind) => tools.some((tool) => (tool as { kind: string }).kind === kind)),
    );
  });

  it('the mapping keys never appear as kinds: a mapping key is an unknown kind in strict mode', () => {
    const [key] = Object.keys(discriminatorMapping('Event'));
    expect(key).toBeDefined();
    expect(safeParseEvent({ kind: key }, { mode: 'strict' }).success).toBe(false);
  });
});
