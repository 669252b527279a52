import { HttpResponse } from 'msw/http';

/** `{error: {message, type, param, code}}` with `code` the status as a string. */
export function gatewayError(
  status: number,
  message: string,
  type: string | null,
  param: string | null = 'None',
) {
  return HttpResponse.json({ error: { message, type, param, code: String(status) } }, { status });
}

export function bearer(request: Request): string | undefined {
  const value = request.headers.get('authorization') ?? '';
  return value.startsWith('Bearer ') ? value.slice('Bearer '.length) : undefined;
}

export async function jsonBody(request: Request): Promise<Record<string, unknown> | undefined> {
  try {
    const body: unknown = await request.json();
    return typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
