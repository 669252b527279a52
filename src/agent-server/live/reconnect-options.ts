/**
 * The reconnect options of `subscribe` and `bash.live()`, and their defaults. A module of its own: the public
 * option types (types.ts) name them and the reconnect policy (reconnect-policy.ts) applies them, and neither
 * imports the other for it.
 */

/** When and how fast a subscription reconnects. */
export interface ReconnectOptions {
  /** First delay in milliseconds; doubles per failed attempt. Default 500. */
  initialDelay?: number;
  /** Longest delay in milliseconds. Default 30 000 (what the official clients cap at). */
  maxDelay?: number;
  /**
   * First delay after close code 1013 (too many connections for this conversation, or a
   * credential binding to activate): the server asks to come back later, so back off longer. Default 5 000.
   */
  overloadedDelay?: number;
  /** Consecutive failed attempts before the subscription gives up. Default: no limit (see `giveUpAfter`). */
  maxAttempts?: number;
  /**
   * Milliseconds without a ready connection after which the subscription gives up with
   * SubscriptionConnectionError (an unreachable server, a handshake refused again and again). Default 45 000.
   * Close 4004 while a REST read still finds the conversation (a restarted server waiting for the dead
   * process's conversation lease) is waited out for up to `leaseTimeout` instead.
   */
  giveUpAfter?: number;
  /** Milliseconds a 4004 close is retried while REST finds the conversation. Default 60 000 (lease 45 s). */
  leaseTimeout?: number;
}

export const RECONNECT_DEFAULTS: Required<ReconnectOptions> = {
  initialDelay: 500,
  maxDelay: 30_000,
  overloadedDelay: 5_000,
  maxAttempts: Number.POSITIVE_INFINITY,
  giveUpAfter: 45_000,
  leaseTimeout: 60_000,
};
