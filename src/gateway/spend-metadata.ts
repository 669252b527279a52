import { RequestValidationError } from '../core/errors.js';
import { SPEND_LOGS_METADATA_HEADER } from './attribution-headers.js';
import { isPlainObject, type JsonObject, jsonIssues } from './json-value.js';

/**
 * Recipe 4: the value of `x-gateway-spend-logs-metadata` is a JSON string holding an object, never a nested
 * object (headers are strings). Serialises `metadata` after checking it survives JSON unchanged.
 */
export function spendLogsMetadataHeader(metadata: JsonObject, field = 'spendLogsMetadata'): string {
  if (!isPlainObject(metadata)) {
    throw new RequestValidationError('must be a plain object of JSON values', field);
  }
  const issues = jsonIssues(metadata, [field]);
  if (issues.length > 0) throw new RequestValidationError(issues);
  return JSON.stringify(metadata);
}

/** The object inside a `x-gateway-spend-logs-metadata` value; a value that is not a JSON object is an error. */
export function parseSpendLogsMetadataHeader(value: unknown, field = SPEND_LOGS_METADATA_HEADER): JsonObject {
  if (typeof value !== 'string') {
    throw new RequestValidationError(
      `must be a JSON string, not ${kindOf(value)} (serialise it, e.g. with spendLogsMetadataHeader)`,
      field,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new RequestValidationError('must be JSON text holding an object', field);
  }
  if (!isPlainObject(parsed)) throw new RequestValidationError('must be JSON text holding an object', field);
  return parsed as JsonObject;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'a nested object' : `a ${typeof value}`;
}
