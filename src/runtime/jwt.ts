/**
 * The `exp` claim of a JWT in milliseconds since the epoch, or undefined when the token is not a JWT or has
 * no numeric `exp`. The signature is not checked: the client only needs to know when to log in again.
 */
export function jwtExpiresAt(token: string): number | undefined {
  return numericClaim(token, 'exp');
}

/** The `iat` claim in milliseconds since the epoch, like `jwtExpiresAt`. */
export function jwtIssuedAt(token: string): number | undefined {
  return numericClaim(token, 'iat');
}

function numericClaim(token: string, name: 'exp' | 'iat'): number | undefined {
  const payload = token.split('.')[1];
  if (payload === undefined) return undefined;
  try {
    const claims = JSON.parse(base64UrlDecode(payload)) as Record<string, unknown>;
    const value = claims?.[name];
    return typeof value === 'number' && Number.isFinite(value) ? value * 1000 : undefined;
  } catch {
    return undefined;
  }
}

function base64UrlDecode(segment: string): string {
  const base64 = segment.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}
