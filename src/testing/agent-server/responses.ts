import { HttpResponse } from 'msw/http';

/** REST auth is the `X-Session-API-Key` header only; wrong or missing → 401. */
export function isUnauthorized(request: Request, sessionApiKey: string | undefined): boolean {
  return sessionApiKey !== undefined && request.headers.get('x-session-api-key') !== sessionApiKey;
}

export const unauthorized = () => HttpResponse.json({ detail: 'Unauthorized' }, { status: 401 });

/** The only 404 of the event routes. */
export const conversationNotFound = (id: string) =>
  HttpResponse.json({ detail: `Conversation not found: ${id}` }, { status: 404 });

/** HTTPException default phrases. */
export const plainStatus = (status: 400 | 404, detail = status === 400 ? 'Bad Request' : 'Not Found') =>
  HttpResponse.json({ detail }, { status });

/** An unhandled exception. */
export const internalError = (exception: string) =>
  HttpResponse.json({ detail: 'Internal Server Error', exception }, { status: 500 });

/** FastAPI's 422 body for a path parameter that is not a UUID. */
export function invalidUuid(value: string, name = 'conversation_id') {
  return validationError([
    {
      type: 'uuid_parsing',
      loc: ['path', name],
      msg: 'Input should be a valid UUID, invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `x` at 1',
      input: value,
    },
  ]);
}

export function validationError(detail: Record<string, unknown>[]) {
  return HttpResponse.json({ detail }, { status: 422 });
}

/**
 * `limit` is declared `gt=0, lte=100`, but `lte` is not enforced by FastAPI: 0 and below are a
 * 422, above 100 the handler's `assert` fails with a 500.
 */
export function checkLimit(raw: string | null): { limit: number } | { response: Response } {
  if (raw === null) return { limit: 100 };
  const limit = Number(raw);
  if (!Number.isInteger(limit)) {
    return {
      response: validationError([
        { type: 'int_parsing', loc: ['query', 'limit'], msg: 'Input should be a valid integer', input: raw },
      ]),
    };
  }
  if (limit <= 0) {
    return {
      response: validationError([
        { type: 'greater_than', loc: ['query', 'limit'], msg: 'Input should be greater than 0', input: raw },
      ]),
    };
  }
  if (limit > 100) return { response: internalError('') };
  return { limit };
}

export const success = (value = true) => HttpResponse.json({ success: value });
