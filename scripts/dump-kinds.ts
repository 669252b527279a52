// Writes test/fixtures/kinds/<version>.json: every kind of the agent server's unions (events, actions,
// observations, tool definitions) that the installed openhands packages of one version define, with its module
// path and JSON schema. scripts/dump-kinds.py does the work inside the peer's virtual environment, after
// importing every module of the packages (the served /openapi.json lists only the tools imported so far).
// test/models/kinds-coverage.test.ts fails when a version defines a kind the SDK does not model.
//
//   node scripts/dump-kinds.ts [1.58.2 1.11.4 …]   (default: every version `npm run peers` provisioned)
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// Lets Node run the TypeScript test support directly (a variable, so that tsc does not resolve it).
const hooks = '../bench/_ts-sources.ts';
await import(hooks);
const { peerEnv, versionsUnderTest } = await import('../test/peers/peers.js');

const root = resolve(import.meta.dirname, '..');
const outDir = join(root, 'test/fixtures/kinds');
const wanted = process.argv.slice(2);
process.env.CONFORMANCE_ALL = '1';
mkdirSync(outDir, { recursive: true });

for (const { version } of versionsUnderTest('agent-server')) {
  if (wanted.length > 0 && !wanted.includes(version)) continue;
  const venv = peerEnv('agent-server', version);
  if (!venv) {
    console.error(`dump-kinds: ${version} not provisioned (npm run peers -- --all), skipped`);
    continue;
  }
  const t0 = Date.now();
  // A scratch folder as working directory and home: some modules write state (MCP OAuth, caches) on import.
  const scratch = mkdtempSync(join(tmpdir(), `dump-kinds-${version}-`));
  const result = spawnSync(join(venv, 'bin/python'), [join(root, 'scripts/dump-kinds.py')], {
    cwd: scratch,
    env: { PATH: process.env.PATH, HOME: scratch, LITELLM_LOCAL_MODEL_COST_MAP: 'True' },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    timeout: 300_000,
  });
  rmSync(scratch, { recursive: true, force: true });
  if (result.status !== 0) {
    console.error(`dump-kinds: ${version} failed (${result.status}):\n${result.stderr.slice(-3000)}`);
    process.exitCode = 1;
    continue;
  }
  const dump = JSON.parse(result.stdout) as { unions: Record<string, Record<string, unknown>> };
  const text = JSON.stringify({ version, ...dump }, null, 1).replaceAll(root, '<repo>');
  writeFileSync(join(outDir, `${version}.json`), `${text}\n`);
  const counts = Object.entries(dump.unions).map(([union, kinds]) => `${Object.keys(kinds).length} ${union}`);
  console.error(`dump-kinds: ${version}: ${counts.join(', ')} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
}
