// prisma-client-py's GraphQL-style requests → the JSON protocol the wasm query engine takes, and its answers back
// into the shapes prisma-client-py reads (the result under the alias `result`, scalars untagged, raw rows as
// `{column: {prisma__type, prisma__value}}`).
import { parseQuery } from './graphql.mjs';

const ACTIONS = [
  'findUnique',
  'findFirst',
  'findMany',
  'createOne',
  'createMany',
  'updateOne',
  'updateMany',
  'upsertOne',
  'deleteOne',
  'deleteMany',
  'aggregate',
  'groupBy',
];

function splitField(field) {
  if (field === 'executeRaw' || field === 'queryRaw') return { action: field };
  const orThrow = field.endsWith('OrThrow');
  const base = orThrow ? field.slice(0, -'OrThrow'.length) : field;
  const action = ACTIONS.find((name) => base.startsWith(name));
  if (!action) throw new Error(`unknown root field ${field}`);
  return { action: orThrow ? `${action}OrThrow` : action, modelName: base.slice(action.length) };
}

/**
 * Json fields are written as JSON text by prisma-client-py; the JSON protocol reads an untagged string as a JSON
 * string value (stored double-encoded), so the schema's Json fields are tagged `{"$type": "Json"}`.
 */
function tagJson(value, model, schema) {
  if (Array.isArray(value)) return value.map((item) => tagJson(item, model, schema));
  if (value === null || typeof value !== 'object') return value;
  const fields = schema.get(model);
  const out = {};
  for (const [key, item] of Object.entries(value)) {
    const field = fields?.get(key);
    if (field?.type === 'Json' && typeof item === 'string') out[key] = { $type: 'Json', value: item };
    else out[key] = tagJson(item, field?.relation ?? model, schema);
  }
  return out;
}

export function toJsonProtocol(text, schema) {
  const parsed = parseQuery(text);
  const { action, modelName } = splitField(parsed.field);
  const args = modelName ? tagJson(parsed.arguments, modelName, schema) : parsed.arguments;
  const query = { arguments: args, selection: parsed.selection };
  if (!modelName) return { action, query };
  // `{ $scalars: true }` when nothing was listed (counts of createMany and the like).
  if (Object.keys(query.selection).length === 0) query.selection = { $scalars: true };
  return { modelName, action, query };
}

function untag(value) {
  if (Array.isArray(value)) return value.map(untag);
  if (value === null || typeof value !== 'object') return value;
  if (typeof value.$type === 'string' && 'value' in value && Object.keys(value).length === 2)
    return value.value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, untag(item)]));
}

/** The typed raw result `{columns, types, rows}` → prisma-client-py's list of `{column: {prisma__type, prisma__value}}`. */
function rawRows(result) {
  if (!result || !Array.isArray(result.columns)) return result;
  return result.rows.map((row) =>
    Object.fromEntries(
      result.columns.map((column, index) => {
        const type = result.types[index];
        const value = row[index];
        // The native engine typed a NULL as "null" (prisma-client-py converts the value by its type).
        if (value === null) return [column, { prisma__type: 'null', prisma__value: null }];
        if (type.endsWith('-array') && Array.isArray(value)) {
          const inner = type.slice(0, -'-array'.length);
          return [
            column,
            {
              prisma__type: 'array',
              prisma__value: value.map((item) => ({
                prisma__type: item === null ? 'null' : inner,
                prisma__value: item,
              })),
            },
          ];
        }
        return [column, { prisma__type: type, prisma__value: value }];
      }),
    ),
  );
}

/** One answer of the engine (`{data: {<action><Model>: …}}` or `{errors}`) as the GraphQL protocol gave it. */
export function fromJsonProtocol(answer, request) {
  if (!answer.data) return answer;
  const [value] = Object.values(answer.data);
  return { data: { result: request.action === 'queryRaw' ? rawRows(value) : untag(value) } };
}
