#!/usr/bin/env node
// A stand-in for Prisma's native query-engine binary, for the gateway's database runs (test infrastructure,
// docs/compatibility.md "Model gateway"). prisma-client-py runs whatever PRISMA_QUERY_ENGINE_BINARY names as
// `query-engine --version` and `query-engine -p PORT`, then speaks HTTP to it. The queries run in Prisma's real
// query engine, compiled to WebAssembly (npm @prisma/query-engine-wasm, the 5.17 engine), over the `pg` driver.
//
//   GET /status                       {"status":"ok"}
//   POST /                            one query or {"batch": [...], "transaction": true}; header X-transaction-id
//   POST /transaction/start           {"max_wait", "timeout", "isolation_level"} → {"id"}
//   POST /transaction/{id}/commit     and /rollback
//   GET /metrics                      empty metrics (the wasm engine keeps none)
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { driverAdapter } from './pg-adapter.mjs';
import { readSchema } from './schema.mjs';
import { fromJsonProtocol, toJsonProtocol } from './translate.mjs';

const ENGINE_COMMIT = '393aa359c9ad4a4bb28630fb5613f9c281cde053';
const args = process.argv.slice(2);
if (args.includes('--version') || args.includes('-V')) {
  console.log(`query-engine ${ENGINE_COMMIT}`);
  process.exit(0);
}
const port = Number(args[args.indexOf('-p') + 1] || args[args.indexOf('--port') + 1]);

async function loadEngine() {
  const require = createRequire(import.meta.url);
  const dir = dirname(require.resolve('@prisma/query-engine-wasm/package.json'));
  const bindings = await import(join(dir, 'postgresql/query_engine_bg.js'));
  const bytes = readFileSync(join(dir, 'postgresql/query_engine_bg.wasm'));
  const { instance } = await WebAssembly.instantiate(bytes, { './query_engine_bg.js': bindings });
  bindings.__wbg_set_wasm(instance.exports);
  return bindings;
}

function databaseUrl() {
  if (process.env.OVERWRITE_DATASOURCES) {
    const [first] = JSON.parse(process.env.OVERWRITE_DATASOURCES);
    if (first?.url) return first.url;
  }
  return process.env.DATABASE_URL;
}

const datamodel = readFileSync(process.env.PRISMA_DML_PATH, 'utf8');
const schema = readSchema(datamodel);
const { QueryEngine } = await loadEngine();
const { adapter } = driverAdapter(databaseUrl());
const logs = process.env.LOG_QUERIES ? (line) => process.stderr.write(`${line}\n`) : () => {};
const engine = new QueryEngine(
  { datamodel, logLevel: 'error', logQueries: false, env: process.env, ignoreEnvVarErrors: true },
  logs,
  adapter,
);
await engine.connect('{}');

async function runOne(body, txId) {
  const request = toJsonProtocol(body.query, schema);
  const answer = JSON.parse(await engine.query(JSON.stringify(request), '{}', txId));
  return fromJsonProtocol(answer, request);
}

async function runBatch(body, txId) {
  const requests = body.batch.map((item) => toJsonProtocol(item.query, schema));
  const payload = { batch: requests, ...(body.transaction ? { transaction: {} } : {}) };
  const answer = JSON.parse(await engine.query(JSON.stringify(payload), '{}', txId));
  if (!answer.batchResult) return answer;
  return { batchResult: answer.batchResult.map((item, i) => fromJsonProtocol(item, requests[i])) };
}

async function readJson(request) {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : {};
}

async function route(request) {
  const { pathname } = new URL(request.url, 'http://engine');
  if (request.method === 'GET' && pathname === '/status') return [200, { status: 'ok' }];
  if (request.method === 'GET' && pathname === '/metrics') {
    return [200, { counters: [], gauges: [], histograms: [] }];
  }
  const body = await readJson(request);
  if (request.method === 'POST' && pathname === '/') {
    const txId = request.headers['x-transaction-id'] || undefined;
    return [200, body.batch ? await runBatch(body, txId) : await runOne(body, txId)];
  }
  if (request.method === 'POST' && pathname === '/transaction/start') {
    const options = {
      max_wait: body.max_wait ?? 2000,
      timeout: body.timeout ?? 5000,
      ...(body.isolation_level ? { isolation_level: body.isolation_level } : {}),
    };
    const answer = JSON.parse(await engine.startTransaction(JSON.stringify(options), '{}'));
    return [answer.errors ? 400 : 200, answer];
  }
  const tx = /^\/transaction\/([^/]+)\/(commit|rollback)$/.exec(pathname);
  if (request.method === 'POST' && tx) {
    const call = tx[2] === 'commit' ? engine.commitTransaction : engine.rollbackTransaction;
    const answer = JSON.parse(await call.call(engine, tx[1], '{}'));
    return [answer.errors ? 400 : 200, answer];
  }
  return [404, { errors: [{ error: `no route ${request.method} ${pathname}` }] }];
}

const server = createServer(async (request, response) => {
  let status;
  let answer;
  try {
    [status, answer] = await route(request);
  } catch (error) {
    status = 500;
    answer = {
      errors: [
        {
          error: String(error?.stack ?? error),
          user_facing_error: { is_panic: false, message: String(error?.message ?? error) },
        },
      ],
    };
  }
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(answer));
});
// prisma-client-py calls http://localhost:PORT, which may resolve to either loopback address.
server.listen(port, '127.0.0.1');
const v6 = createServer(server.listeners('request')[0]);
v6.on('error', () => {});
v6.listen(port, '::1');
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(0));
