import { AgentServerVersionError } from './errors.js';

/** A feature that needs a minimum agent-server version. */
export interface AgentServerFeature {
  feature: string;
  displayName: string;
  minVersion: string;
}

/**
 * Features with a declared minimum agent-server version. The websocket ones come from the first tag that
 * carries each change; the others are the ones the platform's own clients gate.
 */
export const AGENT_SERVER_FEATURES = {
  websocketHeaderAuth: {
    feature: 'websocket-header-auth',
    displayName: 'WebSocket authentication by X-Session-API-Key header',
    minVersion: '1.12.0',
  },
  sessionSocket: {
    feature: 'session-socket',
    displayName: 'The /sockets/session protocol (sequence-numbered envelopes)',
    minVersion: '1.45.0',
  },
  websocketResumeSince: {
    feature: 'websocket-resume-since',
    displayName: 'Event stream resume from a timestamp (resend_mode=since)',
    minVersion: '1.15.0',
  },
  websocketFirstMessageAuth: {
    feature: 'websocket-first-message-auth',
    displayName: 'WebSocket first-message authentication',
    minVersion: '1.18.1',
  },
  workspaces: { feature: 'workspaces', displayName: 'Workspaces', minVersion: '1.23.0' },
  hooks: { feature: 'hooks', displayName: 'Hooks', minVersion: '1.23.0' },
  mcpTest: { feature: 'mcp-test', displayName: 'MCP server test', minVersion: '1.23.0' },
  mcpOAuth: { feature: 'mcp-oauth', displayName: 'MCP OAuth', minVersion: '1.31.0' },
} as const satisfies Record<string, AgentServerFeature>;

interface ParsedVersion {
  parts: [number, number, number];
  prerelease: string | undefined;
}

// MAJOR.MINOR.PATCH[-pre][+build], a leading `v` allowed.
const VERSION = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

export function parseAgentServerVersion(version: unknown): ParsedVersion | undefined {
  if (typeof version !== 'string') return undefined;
  const match = VERSION.exec(version.trim());
  if (!match) return undefined;
  return { parts: [Number(match[1]), Number(match[2]), Number(match[3])], prerelease: match[4] };
}

/**
 * Compares two versions: negative when `a` is older, 0 when equal, positive when newer; `undefined` when
 * either does not parse. A prerelease is older than its release (`1.2.3-rc1` < `1.2.3`).
 */
export function compareAgentServerVersions(a: string, b: string): number | undefined {
  const left = parseAgentServerVersion(a);
  const right = parseAgentServerVersion(b);
  if (!left || !right) return undefined;
  for (let i = 0; i < 3; i += 1) {
    const diff = left.parts[i]! - right.parts[i]!;
    if (diff !== 0) return Math.sign(diff);
  }
  if (left.prerelease === right.prerelease) return 0;
  if (left.prerelease === undefined) return 1;
  if (right.prerelease === undefined) return -1;
  return Math.sign(left.prerelease.localeCompare(right.prerelease));
}

/** True when `version` parses and is at least the feature's minimum. Unparseable counts as too old. */
export function supportsFeature(version: string | undefined, feature: AgentServerFeature): boolean {
  const comparison =
    version === undefined ? undefined : compareAgentServerVersions(version, feature.minVersion);
  return comparison !== undefined && comparison >= 0;
}

/** Throws `AgentServerVersionError` unless `version` supports the feature. */
export function assertFeatureSupported(version: string | undefined, feature: AgentServerFeature): void {
  if (supportsFeature(version, feature)) return;
  throw new AgentServerVersionError({
    feature: feature.feature,
    displayName: feature.displayName,
    requiredVersion: feature.minVersion,
    actualVersion: version?.trim() ? version.trim() : 'unknown',
  });
}
