// Where the real peers live (provisioned by `npm run peers`, see scripts/peers.mjs) and which versions a
// conformance run covers. Under CI=true a missing peer is a failure, never a skip.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export type PeerName = 'agent-server' | 'gateway' | 'tracing' | 'platform-app';

export interface PeerVersion {
  readonly peer: PeerName;
  readonly version: string;
  readonly released: string;
  readonly ci: boolean;
  readonly why: string;
}

const root = resolve(import.meta.dirname, '../..');
export const peersDir = process.env.PEERS_DIR ?? join(root, '.cache/peers');

const matrix = JSON.parse(readFileSync(join(import.meta.dirname, 'matrix.json'), 'utf8')) as Record<
  'agentServer' | 'gateway' | 'tracing' | 'platformApp',
  Omit<PeerVersion, 'peer'>[]
>;

const keys = {
  'agent-server': 'agentServer',
  gateway: 'gateway',
  tracing: 'tracing',
  'platform-app': 'platformApp',
} as const;

/**
 * The versions of one peer that this run covers: `CONFORMANCE_VERSIONS` (comma-separated) when set,
 * every version with `CONFORMANCE_ALL=1` (`npm run test:conformance -- --all`), else those marked `ci`.
 */
export function versionsUnderTest(peer: PeerName): PeerVersion[] {
  const entries = matrix[keys[peer]].map((entry) => ({ peer, ...entry }));
  const only = process.env.CONFORMANCE_VERSIONS?.split(',').map((v) => v.trim());
  if (only?.length) return entries.filter((entry) => only.includes(entry.version));
  return process.env.CONFORMANCE_ALL === '1' ? entries : entries.filter((entry) => entry.ci);
}

export const newestVersion = (peer: PeerName): string =>
  (matrix[keys[peer]][0] as { version: string }).version;

/** The virtual environment of one peer version, or undefined when `npm run peers` has not provisioned it. */
export function peerEnv(peer: PeerName, version: string): string | undefined {
  const dir = join(peersDir, `${peer}-${version}`);
  return existsSync(join(dir, 'provisioned.json')) ? dir : undefined;
}

export const PROVISION_HINT =
  'run `npm run peers` (needs Python 3.12 and the package index) to provision them';

/**
 * The environment of a peer the suite needs. Throws under CI=true when it is missing; elsewhere returns
 * undefined so that the caller skips (the runner prints one line for the whole suite).
 */
export function requirePeer(peer: PeerName, version: string): string | undefined {
  const dir = peerEnv(peer, version);
  if (dir === undefined && process.env.CI === 'true') {
    throw new Error(`conformance: peer ${peer} ${version} is not provisioned under CI; ${PROVISION_HINT}`);
  }
  return dir;
}
