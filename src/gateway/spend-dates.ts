import { RequestValidationError } from '../core/errors.js';

const GATEWAY_DATE = /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?$/;

/** notes §2.5: spend-log filters take `YYYY-MM-DD HH:MM:SS` (UTC). A `Date` is written in that form. */
export function gatewayDate(value: Date | string, field: string): string {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new RequestValidationError('is an invalid Date', field);
    return value.toISOString().slice(0, 19).replace('T', ' ');
  }
  if (typeof value !== 'string' || !GATEWAY_DATE.test(value)) {
    throw new RequestValidationError('must be a Date or a "YYYY-MM-DD HH:MM:SS" string', field);
  }
  return value;
}
