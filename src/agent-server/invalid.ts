import { RequestValidationError } from '../core/errors.js';

/** A RequestValidationError for a dotted field name (`query.kind`, `message.content.0`), as a proper path. */
export function invalid(field: string, message: string): RequestValidationError {
  const path = field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
  return new RequestValidationError([{ path, message }]);
}
