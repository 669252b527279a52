import { type APIError, asNotFoundError, type NotFoundError } from '../core/errors.js';

/**
 * An unknown event id raises KeyError on the server, answered as
 * 500 `{"detail":"Internal Server Error","exception":"'Unknown event_id: <id>'"}`. It means "not found".
 */
export function isUnknownEventIdBody(body: unknown): boolean {
  const exception = (body as { exception?: unknown } | null)?.exception;
  return typeof exception === 'string' && exception.includes('Unknown event_id');
}

export function eventNotFound(error: APIError): NotFoundError {
  return asNotFoundError(error, 'Event not found (the server answered 500 Unknown event_id)');
}
