import type { Decoder } from '../core/transport.js';

/** The type a field must have; `?` also allows absent and `null` (newer servers omit nulls). */
export type FieldCheck = 'number' | 'string' | 'string?' | 'string[]?' | 'object?';

/**
 * Checks the top-level fields of a small answer object and keeps the others as they are. For answers whose
 * shape is a handful of scalars (`/server_info`, the ConversationInfo extras), where a schema library would
 * weigh more than the check.
 */
export function checkFields<T>(input: unknown, fields: Record<string, FieldCheck>): ReturnType<Decoder<T>> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { success: false, error: { issues: [{ path: [], message: 'expected an object' }] } };
  }
  const record = input as Record<string, unknown>;
  const issues: { path: string[]; message: string }[] = [];
  for (const [field, check] of Object.entries(fields)) {
    const value = record[field];
    const optional = check.endsWith('?');
    if (optional && (value === undefined || value === null)) continue;
    const ok =
      check === 'string[]?'
        ? Array.isArray(value) && value.every((item) => typeof item === 'string')
        : check === 'object?'
          ? typeof value === 'object' && value !== null && !Array.isArray(value)
          : typeof value === check.replace('?', '');
    if (!ok) issues.push({ path: [field], message: `expected ${check.replace('?', '')}` });
  }
  return issues.length > 0 ? { success: false, error: { issues } } : { success: true, data: record as T };
}
