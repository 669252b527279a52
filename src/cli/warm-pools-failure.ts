// How the warm-pools CLI reports a failure: a message for stderr and an exit code (1 for a failed
// precondition, 2 for a failed call), as docs/warm-pools.md says.
import { errorMessageFromBody } from '../core/error-body.js';
import {
  type APIError,
  isAPIConnectionError,
  isAPIError,
  isRequestValidationError,
  isResponseValidationError,
} from '../core/errors.js';
import type { RuntimeAdminClient } from '../runtime/client.js';
import { isRuntimePreconditionError } from '../runtime/errors.js';

/** A failed precondition (exit 1) or a failed call (exit 2), with the message for stderr. */
export class CliFailure extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2,
  ) {
    super(message);
  }
}

/** The message and exit code of an error, in the helper CLI's words. */
export function toFailure(error: unknown, client: RuntimeAdminClient | undefined): CliFailure {
  if (error instanceof CliFailure) return error;
  if (isRuntimePreconditionError(error)) return new CliFailure(error.message, 1);
  if (isRequestValidationError(error)) {
    return new CliFailure(`Invalid input: ${error.message}`, 1);
  }
  if (isAPIError(error)) return new CliFailure(httpFailure(error, client), 2);
  if (isAPIConnectionError(error)) {
    return new CliFailure(
      `Could not connect to ${client?.baseUrl ?? 'the runtime API'}: ${error.message}`,
      2,
    );
  }
  if (isResponseValidationError(error)) {
    return new CliFailure(`Unexpected answer from the runtime API: ${error.message}`, 2);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new CliFailure(message, 1);
}

/** `HTTP <code> <METHOD> <path>: <body>`, then our explanation when it says more than the body. */
function httpFailure(error: APIError, client: RuntimeAdminClient | undefined): string {
  const base = client?.baseUrl ?? '';
  const path = base && error.url.startsWith(base) ? error.url.slice(base.length) : safePath(error.url);
  const body =
    error.body === undefined || error.body === null || error.body === ''
      ? ''
      : typeof error.body === 'string'
        ? error.body
        : JSON.stringify(error.body);
  const first = `HTTP ${error.status} ${error.method} ${path}: ${body}`;
  const prefix = `${error.status} `;
  const suffix = ` (${error.method} ${error.url})`;
  const explanation =
    error.message.startsWith(prefix) && error.message.endsWith(suffix)
      ? error.message.slice(prefix.length, error.message.length - suffix.length)
      : error.message;
  return explanation === errorMessageFromBody(error.body, '') || explanation === ''
    ? first
    : `${first}\n${explanation}`;
}

function safePath(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.pathname + parsed.search;
  } catch {
    return url;
  }
}
