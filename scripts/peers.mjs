#!/usr/bin/env node
// Provisions the real peers of the conformance suite (test/conformance/): one Python 3.12 virtual environment per
// peer and version, under .cache/peers/, from the pinned requirement files in test/peers/requirements/.
//
//   npm run peers                 the versions CI runs (test/peers/matrix.json, `ci: true`)
//   npm run peers -- --all        every version of the matrix
//   npm run peers -- --compile --only agent-server --version 1.58.2
//                                 resolve the requirement files of the versions named (each as of the day after its
//                                 release); without --version only the missing ones: a pin once committed is never
//                                 re-resolved unless its version is named
//   npm run peers -- --json       one JSON summary on stdout
//
// Python is test infrastructure only: it installs and runs the real servers; the SDK and its tests are TypeScript.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const matrix = JSON.parse(readFileSync(join(root, 'test/peers/matrix.json'), 'utf8'));
const requirementsDir = join(root, 'test/peers/requirements');
export const peersDir = process.env.PEERS_DIR ?? join(root, '.cache/peers');
const UV_VERSION = '0.13.9';
const PEER_KEYS = {
  agentServer: 'agent-server',
  gateway: 'gateway',
  tracing: 'tracing',
  platformApp: 'platform-app',
};

const usage = `Usage: npm run peers -- [--all] [--compile] [--json] [--only agent-server|gateway|tracing|platform-app] [--version X[,Y]]

Creates one Python 3.12 virtual environment per real peer and version under .cache/peers/
from the pinned requirement files in test/peers/requirements/.

  --all        every version of test/peers/matrix.json (default: the versions marked ci)
  --compile    resolve requirement files as of each release's next day, then stop: the versions named by
               --version (re-resolving an existing file and listing every pin that changed), else only
               the versions whose .txt file is missing (existing pins are kept)
  --only NAME  one peer only
  --version V  these versions only (comma-separated or repeated; implies --all for them)
  --json       print a JSON summary
  --help       this text`;

function parseArgs(argv) {
  const options = { all: false, compile: false, json: false, only: undefined, versions: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--all') options.all = true;
    else if (arg === '--compile') options.compile = true;
    else if (arg === '--json') options.json = true;
    else if (arg === '--only') options.only = argv[++i];
    else if (arg === '--version') options.versions.push(...(argv[++i] ?? '').split(',').filter(Boolean));
    else if (arg === '--help' || arg === '-h') {
      console.log(usage);
      process.exit(0);
    } else {
      console.error(`peers: unknown argument ${arg}\n\n${usage}`);
      process.exit(2);
    }
  }
  if (options.only !== undefined && !Object.values(PEER_KEYS).includes(options.only)) {
    console.error(`peers: --only takes one of ${Object.values(PEER_KEYS).join(', ')}`);
    process.exit(2);
  }
  const known = new Set(matrixEntries().map((entry) => entry.version));
  const unknown = options.versions.filter((version) => !known.has(version));
  if (unknown.length > 0) {
    console.error(`peers: --version ${unknown.join(', ')} is not in test/peers/matrix.json`);
    process.exit(2);
  }
  return options;
}

/** Every peer version of the matrix, as `{ peer, version, released, ci }`. */
export function matrixEntries() {
  return Object.entries(PEER_KEYS).flatMap(([key, peer]) => matrix[key].map((entry) => ({ peer, ...entry })));
}

function runs(command, args) {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  return result.status === 0 ? result.stdout + result.stderr : undefined;
}

/** A Python 3.12 interpreter: $PEERS_PYTHON, `python3.12` on PATH (when it really runs: a pyenv shim may not), pyenv's. */
export function findPython() {
  const candidates = [process.env.PEERS_PYTHON, 'python3.12'];
  const pyenvVersions = join(process.env.PYENV_ROOT ?? join(homedir(), '.pyenv'), 'versions');
  if (existsSync(pyenvVersions)) {
    for (const name of readdirSync(pyenvVersions).sort().reverse()) {
      if (name.startsWith('3.12')) candidates.push(join(pyenvVersions, name, 'bin/python3.12'));
    }
  }
  candidates.push('/usr/bin/python3.12', '/usr/local/bin/python3.12');
  for (const candidate of candidates) {
    if (candidate && runs(candidate, ['--version'])?.includes('Python 3.12')) return candidate;
  }
  return undefined;
}

function step(command, args, what, cwd = undefined) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status !== 0) {
    throw new Error(
      `${what} failed (exit ${result.status}):\n${(result.stderr || result.stdout).slice(-4000)}`,
    );
  }
}

function ensureUv(python) {
  const uv = join(peersDir, 'uv/bin/uv');
  if (runs(uv, ['--version'])?.includes(UV_VERSION)) return uv;
  log(`installing uv ${UV_VERSION}`);
  mkdirSync(peersDir, { recursive: true });
  step(python, ['-m', 'venv', '--clear', join(peersDir, 'uv')], 'creating the uv environment');
  step(join(peersDir, 'uv/bin/pip'), ['install', '-q', `uv==${UV_VERSION}`], 'installing uv');
  return uv;
}

const fingerprint = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');
export const envDir = (peer, version) => join(peersDir, `${peer}-${version}`);
const markerFile = (peer, version) => join(envDir(peer, version), 'provisioned.json');

/** True when the environment exists and was built from the current requirement file. */
export function isProvisioned(peer, version) {
  const marker = markerFile(peer, version);
  if (!existsSync(marker)) return false;
  const requirements = join(requirementsDir, `${peer}-${version}.txt`);
  return JSON.parse(readFileSync(marker, 'utf8')).requirements === fingerprint(requirements);
}

function provision(uv, python, { peer, version }) {
  if (isProvisioned(peer, version)) return 'ready';
  const dir = envDir(peer, version);
  const requirements = join(requirementsDir, `${peer}-${version}.txt`);
  step(uv, ['venv', '-q', '--clear', '--python', python, dir], `creating ${peer} ${version}`);
  step(
    uv,
    ['pip', 'sync', '-q', '--python', join(dir, 'bin/python'), requirements],
    `installing ${peer} ${version}`,
  );
  writeFileSync(markerFile(peer, version), JSON.stringify({ requirements: fingerprint(requirements) }));
  return 'installed';
}

function nextDay(date) {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
}

/** `name==version` pins of a requirement file, by package name. */
function pins(file) {
  if (!existsSync(file)) return new Map();
  const lines = readFileSync(file, 'utf8').split('\n');
  return new Map(
    lines
      .map((line) => /^([A-Za-z0-9_.-]+)==(\S+)/.exec(line))
      .filter(Boolean)
      .map((m) => [m[1], m[2]]),
  );
}

/** The pins that differ between two requirement files, as `name a -> b` lines (`-` for absent). */
function changedPins(before, after) {
  const names = [...new Set([...before.keys(), ...after.keys()])].sort();
  return names
    .filter((name) => before.get(name) !== after.get(name))
    .map((name) => `${name} ${before.get(name) ?? '-'} -> ${after.get(name) ?? '-'}`);
}

/**
 * Resolves one requirement file. An existing file is only re-resolved when its version was named (`named`):
 * a committed pin set is what CI installed and tested, so re-resolving it on the side (the index serves files
 * it did not serve before, even for old upload dates) would change tested pins without anyone asking.
 */
function compile(uv, { peer, version, released }, named) {
  const output = join(requirementsDir, `${peer}-${version}.txt`);
  if (existsSync(output) && !named) return { status: 'kept' };
  const before = pins(output);
  step(
    uv,
    [
      'pip',
      'compile',
      '-q',
      '--python-version',
      '3.12',
      '--no-header',
      '--exclude-newer',
      `${nextDay(released)}T00:00:00Z`,
      `${peer}-${version}.in`,
      '-o',
      `${peer}-${version}.txt`,
    ],
    `resolving ${peer} ${version}`,
    // Relative names, so that the files' `# via -r …` comments do not depend on where the command ran.
    requirementsDir,
  );
  const changed = before.size === 0 ? [] : changedPins(before, pins(output));
  return { status: before.size === 0 ? 'resolved' : 're-resolved', changed };
}

let quiet = false;
function log(message) {
  if (!quiet) console.error(`peers: ${message}`);
}

function main() {
  const options = parseArgs(process.argv.slice(2));
  quiet = options.json;
  const python = findPython();
  if (!python) {
    console.error(
      'peers: Python 3.12 not found (set PEERS_PYTHON, or install python3.12); the conformance suite needs it',
    );
    process.exit(1);
  }
  const uv = ensureUv(python);
  const named = (entry) => options.versions.includes(entry.version);
  const selected = matrixEntries().filter(
    (entry) =>
      (options.versions.length > 0 ? named(entry) : options.all || entry.ci || options.compile) &&
      (options.only === undefined || entry.peer === options.only),
  );
  const summary = [];
  const started = Date.now();
  for (const [index, entry] of selected.entries()) {
    const label = `[${index + 1}/${selected.length}] ${entry.peer} ${entry.version}`;
    const t0 = Date.now();
    try {
      if (options.compile) {
        const { status, changed = [] } = compile(uv, entry, named(entry));
        summary.push({ ...entry, status, changed });
        for (const line of changed) log(`${label}: pin changed: ${line}`);
      } else {
        const status = provision(uv, python, entry);
        summary.push({ ...entry, status, seconds: (Date.now() - t0) / 1000 });
      }
      log(`${label}: ${summary.at(-1).status} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    } catch (error) {
      summary.push({ ...entry, status: 'failed', error: String(error.message) });
      log(`${label}: FAILED\n${error.message}`);
    }
  }
  const failed = summary.filter((entry) => entry.status === 'failed');
  log(
    `${selected.length - failed.length}/${selected.length} ready in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  if (options.json) console.log(JSON.stringify({ python, peersDir, peers: summary }, null, 2));
  process.exit(failed.length === 0 ? 0 : 1);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
