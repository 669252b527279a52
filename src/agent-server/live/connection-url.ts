import { AGENT_SERVER_FEATURES, supportsFeature } from '../version-gate.js';
import { bashEventsSocketUrl } from './bash-events-adapter.js';
import type { Connection, LiveProtocol } from './connection.js';
import { eventsSocketUrl } from './legacy-events-adapter.js';
import { sessionSocketUrl } from './session-adapter.js';
import { authQuery } from './socket-auth.js';

/**
 * The socket a connection uses: `/sockets/bash-events` for the bash stream; else the one the app asked for, or
 * under `auto` the session socket where the server has it (1.45.0 on) and the legacy one before.
 */
export function connectionProtocol(
  socket: 'bash-events' | undefined,
  wanted: 'auto' | 'session' | 'events',
  version: string | undefined,
): LiveProtocol {
  if (socket === 'bash-events') return 'bash';
  if (wanted !== 'auto') return wanted;
  return supportsFeature(version, AGENT_SERVER_FEATURES.sessionSocket) ? 'session' : 'events';
}

/** A connection's URL: its protocol's path and parameters (its adapter), the key when it goes in the query. */
export function connectionUrl(
  conn: Connection,
  baseUrl: string,
  conversationId: string,
  key: string | undefined,
): string {
  const auth = authQuery(conn.auth, key);
  if (conn.protocol === 'session') return sessionSocketUrl(baseUrl, conversationId, conn.afterSeq, auth);
  // Live frames only: what came before them is read over REST (start-point.ts).
  if (conn.protocol === 'bash') return bashEventsSocketUrl(baseUrl, auth);
  return eventsSocketUrl(baseUrl, conversationId, auth);
}
