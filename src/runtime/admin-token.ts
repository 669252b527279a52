// How long an admin JWT is good for, judged so that a client clock ahead of the server's does not matter.
import { jwtExpiresAt, jwtIssuedAt } from './jwt.js';

/** Admin JWT lifetime when the token carries no `exp` claim. */
export const ADMIN_TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * When a token just received from the login expires, on the local clock. Its lifetime is read on the
 * server's clock (`exp - iat`) and counted from receipt, so a client clock ahead of the server's does not
 * see every new token as expired (and log in before every call). Without `iat`, `exp` is used while it
 * lies ahead; a token that looks expired on arrival was just issued, so the service's 24 hours apply.
 */
export function loginTokenExpiresAt(token: string, receivedAt: number): number {
  const exp = jwtExpiresAt(token);
  const iat = jwtIssuedAt(token);
  if (exp === undefined) return receivedAt + ADMIN_TOKEN_LIFETIME_MS;
  if (iat !== undefined && exp > iat) return receivedAt + (exp - iat);
  return exp > receivedAt ? exp : receivedAt + ADMIN_TOKEN_LIFETIME_MS;
}

/** The admin JWT the client keeps, and when to replace it. */
export interface Session {
  token: string;
  expiresAt: number;
  /** When to log in again: `expiresAt` less the margin, adapted to the token's lifetime. */
  refreshAt: number;
  /** `login`: from our handshake; `option`: the `adminToken` option. */
  origin: 'login' | 'option';
}
