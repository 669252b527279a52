/**
 * Why a request never got an answer, read from the error chain `fetch` leaves behind (`TypeError: fetch failed`
 * caused by a system error with a `code` such as `ECONNREFUSED`), so an `APIConnectionError` can say what
 * happened instead of "fetch failed".
 */
export type ConnectionFailureReason = 'refused' | 'dns' | 'tls' | 'reset' | 'timeout' | 'unknown';

export interface ConnectionFailure {
  reason: ConnectionFailureReason;
  /** The system or fetch error code, when one was given (`ECONNREFUSED`, `ENOTFOUND`, `UND_ERR_SOCKET`, …). */
  code: string | undefined;
  /** The innermost error: what the runtime reported, without the request URL. */
  cause: unknown;
}

const REASON_BY_CODE: Record<string, ConnectionFailureReason> = {
  ECONNREFUSED: 'refused',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EAI_NONAME: 'dns',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  UND_ERR_SOCKET: 'reset',
  UND_ERR_CLOSED: 'reset',
  ETIMEDOUT: 'timeout',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
};

const DESCRIPTIONS: Record<ConnectionFailureReason, string> = {
  refused: 'connection refused',
  dns: 'host name not found',
  tls: 'TLS handshake failed',
  reset: 'connection reset',
  timeout: 'connection timed out',
  unknown: 'network error',
};

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export function connectionFailure(error: unknown): ConnectionFailure {
  let current: unknown = error;
  let code: string | undefined;
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    code = codeOf(current) ?? code;
    if (!(current.cause instanceof Error)) break;
    current = current.cause;
  }
  const tls =
    code !== undefined && (code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || /CERT/.test(code));
  const reason = tls ? 'tls' : (code && REASON_BY_CODE[code]) || 'unknown';
  return { reason, code, cause: current };
}

/** `connection refused (ECONNREFUSED)`, or for an unknown reason the runtime's own words. */
export function describeConnectionFailure(failure: ConnectionFailure): string {
  const detail = failure.cause instanceof Error ? failure.cause.message : undefined;
  if (failure.reason === 'unknown') return detail ? `network error: ${detail}` : 'network error';
  return failure.code ? `${DESCRIPTIONS[failure.reason]} (${failure.code})` : DESCRIPTIONS[failure.reason];
}
