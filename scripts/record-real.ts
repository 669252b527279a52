// Re-records the real data the offline tests use: for each agent-server version of test/peers/matrix.json that
// `npm run peers` provisioned, run every conformance scenario against the real server and write
//   test/fixtures/real/<version>/<scenario>.json   REST events + raw socket frames of both protocols
//   test/fixtures/real/<version>/exchanges.json    fixed REST requests and the answers (replayed against our doubles)
//   test/fixtures/openapi/<version>.json           the server's /openapi.json
// and then the versions × features table of docs/compatibility.md (scripts/compat-table.ts).
// Run with Node 24: `npm run record:real [-- 1.58.0 1.11.4]` (default: every provisioned version).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

// Lets Node run the TypeScript test support directly (a variable, so that tsc does not resolve it).
const hooks = '../bench/_ts-sources.ts';
await import(hooks);
const { peerEnv, versionsUnderTest } = await import('../test/peers/peers.js');
const { startRealAgentServer } = await import('../test/conformance/support/agent-server.js');
const { startFakeLlm } = await import('../test/conformance/support/fake-llm.js');
const { recordExchanges, recordOpenApi, recordScenario, scenariosFor } = await import(
  '../test/conformance/support/record.js'
);

const root = resolve(import.meta.dirname, '..');

/**
 * Writes a recording as JSON, with this checkout's path replaced by `<repo>`: the real server reports where its
 * Python runs (`py_interpreter_path` under the peers folder), and a fixture must not name the machine it was
 * recorded on. A peers folder outside the checkout (`PEERS_DIR`) is written as `<repo>/.cache/peers` too.
 */
function writeRecording(file: string, value: unknown): void {
  let text = JSON.stringify(value, null, 1);
  const peersDir = process.env.PEERS_DIR;
  if (peersDir) text = text.replaceAll(resolve(peersDir), '<repo>/.cache/peers');
  writeFileSync(file, `${text.replaceAll(root, '<repo>')}\n`);
}
const wanted = process.argv.slice(2);
process.env.CONFORMANCE_ALL = '1';
const versions = versionsUnderTest('agent-server').filter(
  (entry) => wanted.length === 0 || wanted.includes(entry.version),
);

for (const { version } of versions) {
  const venv = peerEnv('agent-server', version);
  if (!venv) {
    console.error(`record-real: ${version} not provisioned (npm run peers -- --all), skipped`);
    continue;
  }
  const t0 = Date.now();
  const llm = await startFakeLlm();
  const server = await startRealAgentServer(venv, version);
  try {
    const dir = join(root, 'test/fixtures/real', version);
    mkdirSync(dir, { recursive: true });
    const record = async (name: string) => {
      const recorded = await recordScenario(server, llm, name);
      writeRecording(join(dir, `${name}.json`), { version, ...recorded });
      const kinds = new Set(recorded.events.map((event) => String(event.kind)));
      console.error(
        `record-real: ${version} ${name}: ${recorded.status}, ${recorded.events.length} events (${[...kinds].join(', ')})`,
      );
    };
    const { before, after } = scenariosFor(version);
    for (const name of before) await record(name);
    const exchanges = await recordExchanges(server, llm);
    writeRecording(join(dir, 'exchanges.json'), { version, exchanges });
    // Before the scenarios that import more classes: the served document lists only those imported so far.
    mkdirSync(join(root, 'test/fixtures/openapi'), { recursive: true });
    writeRecording(join(root, 'test/fixtures/openapi', `${version}.json`), await recordOpenApi(server));
    for (const name of after) await record(name);
  } catch (error) {
    console.error(
      `record-real: ${version} failed: ${(error as Error).message}\n${server.log().slice(-3000)}`,
    );
    process.exitCode = 1;
  } finally {
    await server.close();
    await llm.close();
  }
  console.error(`record-real: ${version} done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

const { writeCompatTable } = await import('./compat-table.js');
writeCompatTable();
console.error('record-real: docs/compatibility.md table updated');
