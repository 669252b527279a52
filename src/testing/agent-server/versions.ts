/**
 * The agent-server version the doubles simulate unless told otherwise: the newest real server the conformance
 * suite runs (test/peers/matrix.json), whose recorded answers test/testing/replay-real.test.ts replays.
 */
export const DEFAULT_AGENT_SERVER_VERSION = '1.58.2';

/** True when `version` (default: the simulated default) is at least `wanted`. */
export function versionAtLeast(
  version: string | undefined,
  wanted: readonly [number, number, number],
): boolean {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version ?? DEFAULT_AGENT_SERVER_VERSION);
  if (!match) return false;
  const parts = [Number(match[1]), Number(match[2]), Number(match[3])];
  for (let i = 0; i < 3; i++) {
    if ((parts[i] as number) !== wanted[i]) return (parts[i] as number) > (wanted[i] as number);
  }
  return true;
}
