#!/usr/bin/env node
// Runs the conformance suite (test/conformance/) against the real peers that `npm run peers` provisioned.
// Outside CI, with no peer provisioned, it skips with one line; under CI=true a missing peer fails the run.
//
//   npm run test:conformance              the versions CI runs (test/peers/matrix.json, `ci: true`)
//   npm run test:conformance -- --all     every version of the matrix
//   CONFORMANCE_VERSIONS=1.58.0,1.11.4 npm run test:conformance
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const peersDir = process.env.PEERS_DIR ?? join(root, '.cache/peers');
const args = process.argv.slice(2);
const env = { ...process.env };
if (args.includes('--all')) env.CONFORMANCE_ALL = '1';
const vitestArgs = args.filter((arg) => arg !== '--all');

const provisioned =
  existsSync(peersDir) &&
  readdirSync(peersDir).some((name) => existsSync(join(peersDir, name, 'provisioned.json')));
if (!provisioned && process.env.CI !== 'true') {
  console.log(
    'conformance: skipped, no real peers provisioned (run `npm run peers`: needs Python 3.12 and the package index)',
  );
  process.exit(0);
}
const result = spawnSync(
  process.execPath,
  [
    join(root, 'node_modules/vitest/vitest.mjs'),
    'run',
    '--config',
    'vitest.conformance.config.ts',
    ...vitestArgs,
  ],
  { cwd: root, env, stdio: 'inherit' },
);
process.exit(result.status ?? 1);
