// The JavaScript driver adapter the wasm engine runs its SQL through: `pg` + `@prisma/adapter-pg`. The adapter
// refuses PostgreSQL catalog types LiteLLM's raw queries return (`name`, `"char"`, `regclass`, `name[]`), so they
// are read as text; Prisma-only URL parameters are removed before `pg` sees the URL.
import { PrismaPg } from '@prisma/adapter-pg';
import { bindAdapter } from '@prisma/driver-adapter-utils';
import pg from 'pg';

const TEXT = 25;
const TEXT_ARRAY = 1009;
const AS_TEXT = new Map([
  [18, TEXT], // "char"
  [19, TEXT], // name
  [2205, TEXT], // regclass
  [1002, TEXT_ARRAY], // "char"[]
  [1003, TEXT_ARRAY], // name[]
]);

function readAsText(result) {
  for (const field of result?.fields ?? []) {
    const mapped = AS_TEXT.get(field.dataTypeID);
    if (mapped === undefined) continue;
    if (mapped === TEXT_ARRAY) {
      const parse = pg.types.getTypeParser(TEXT_ARRAY);
      const index = result.fields.indexOf(field);
      for (const row of result.rows) {
        if (typeof row[index] === 'string') row[index] = parse(row[index]);
      }
    }
    field.dataTypeID = mapped;
  }
  return result;
}

const wrapped = new WeakSet();

function wrapQuery(target) {
  // Pooled clients come back: wrap each once.
  if (wrapped.has(target)) return target;
  wrapped.add(target);
  const query = target.query.bind(target);
  target.query = async (...args) => readAsText(await query(...args));
  return target;
}

export function cleanUrl(url) {
  const parsed = new URL(url);
  for (const name of ['connection_limit', 'pool_timeout', 'schema', 'pgbouncer', 'socket_timeout']) {
    parsed.searchParams.delete(name);
  }
  return parsed.toString();
}

export function driverAdapter(url) {
  const pool = wrapQuery(new pg.Pool({ connectionString: cleanUrl(url), max: 10 }));
  // Transactions take a client of their own; `pool.query` itself connects with a callback (left alone).
  const connect = pool.connect.bind(pool);
  pool.connect = (callback) => (callback ? connect(callback) : connect().then(wrapQuery));
  return { adapter: bindAdapter(new PrismaPg(pool)), pool };
}
