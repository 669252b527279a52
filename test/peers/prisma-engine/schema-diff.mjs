#!/usr/bin/env node
// `prisma migrate diff --from-schema-datamodel FROM --to-schema-datamodel TO --script` without Prisma's native
// schema-engine binary (not downloadable here): the SQL that brings a PostgreSQL database from the schema FROM to
// the schema TO, written by Prisma's real schema engine compiled to WebAssembly (npm @prisma/schema-engine-wasm).
// Test infrastructure for the gateway's database runs (test/conformance/gateway/database.ts).
//
//   node schema-diff.mjs FROM.prisma TO.prisma     the script on stdout
//
// The engine reads nothing from a database for this diff, but it asks the server version when it starts: the
// driver adapter below answers that one query (PostgreSQL 15, the server the runs use) and refuses any other.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const [fromPath, toPath] = process.argv.slice(2);
if (!fromPath || !toPath) {
  console.error('usage: schema-diff.mjs FROM.prisma TO.prisma');
  process.exit(2);
}

async function loadEngine() {
  const require = createRequire(import.meta.url);
  // The package exports no package.json: its bindings file locates the folder.
  const dir = dirname(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg'));
  const bindings = await import(join(dir, 'schema_engine_bg.js'));
  const bytes = readFileSync(join(dir, 'schema_engine_bg.wasm'));
  const { instance } = await WebAssembly.instantiate(bytes, { './schema_engine_bg.js': bindings });
  bindings.__wbg_set_wasm(instance.exports);
  instance.exports.__wbindgen_start?.();
  return bindings;
}

// Schema engines from Prisma 7 on take the URL from their configuration, not the schema file: drop it.
const datamodel = (path) => ({
  path: 'schema.prisma',
  content: readFileSync(path, 'utf8').replace(/^\s*(url|directUrl|shadowDatabaseUrl)\s*=.*$/gm, ''),
});

// Column types of @prisma/driver-adapter-utils: Int32 0, Boolean 5, Text 7.
const VERSION_ROW = {
  columnNames: ['exists', 'version', 'numeric_version'],
  columnTypes: [5, 7, 0],
  rows: [[true, 'PostgreSQL 15', 150000]],
};
const refuse = async () => ({ ok: false, error: { kind: 'GenericJs', id: 0 } });
const connection = {
  provider: 'postgres',
  adapterName: 'schema-diff',
  queryRaw: async (query) => (/version\(\)/.test(query.sql) ? { ok: true, value: VERSION_ROW } : refuse()),
  executeRaw: refuse,
  executeScript: refuse,
  startTransaction: refuse,
  getConnectionInfo: () => ({ ok: true, value: { schemaName: 'public', supportsRelationJoins: true } }),
  dispose: async () => ({ ok: true, value: undefined }),
};
const adapter = {
  provider: 'postgres',
  adapterName: 'schema-diff',
  connect: async () => ({ ok: true, value: connection }),
  connectToShadowDb: async () => ({ ok: true, value: connection }),
};

const { SchemaEngine } = await loadEngine();
const to = datamodel(toPath);
const engine = await SchemaEngine.new({ datamodels: [[to.path, to.content]] }, () => {}, adapter);
const result = await engine.diff({
  from: { tag: 'schemaDatamodel', files: [datamodel(fromPath)] },
  to: { tag: 'schemaDatamodel', files: [to] },
  script: true,
  exitCode: null,
  filters: { externalTables: [], externalEnums: [] },
});
process.stdout.write(result.stdout ?? '');
