import { RequestValidationError } from '../core/errors.js';

const GATEWAY_DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/**
 * `/spend/logs/v2` takes `YYYY-MM-DD HH:MM:SS` (UTC) only; the gateway fails on a date alone. A `Date` is
 * written in that form; a string must already be in it.
 */
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
