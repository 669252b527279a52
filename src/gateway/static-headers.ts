import { RequestValidationError, type ValidationIssue } from '../core/errors.js';
import { isValidHeaderName, isValidHeaderValue } from './attribution-headers.js';
import type { GatewayConfigNote } from './config-note.js';

/**
 * Recipe 3: the installer option "Custom LLM Extra HTTP Headers" takes a JSON object of header name to
 * value. Returns the JSON text for the option, with the recipe's limits as notes.
 */
export function staticAuthHeadersOption(headers: Record<string, string>): {
  value: string;
  notes: GatewayConfigNote[];
} {
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) {
    throw new RequestValidationError('must be an object of header name to string value', 'headers');
  }
  const issues: ValidationIssue[] = [];
  for (const [name, value] of Object.entries(headers as Record<string, unknown>)) {
    if (!isValidHeaderName(name))
      issues.push({ path: ['headers', name], message: 'is not a valid header name' });
    else if (typeof value !== 'string' || !isValidHeaderValue(value)) {
      issues.push({ path: ['headers', name], message: 'must be a string without CR, LF or NUL' });
    }
  }
  if (issues.length > 0) throw new RequestValidationError(issues);
  return {
    value: JSON.stringify(headers),
    notes: [
      { level: 'info', code: 'recipe-3-custom-llm-only', message: 'applies only to the Custom LLM provider' },
      { level: 'info', code: 'recipe-3-same-for-all', message: 'the same headers are sent for all users' },
      {
        level: 'warning',
        code: 'recipe-3-plaintext',
        message: 'the values are stored as plaintext in the gateway config',
      },
    ],
  };
}
