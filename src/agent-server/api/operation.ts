import type { HttpMethod } from '../../core/transport.js';

/**
 * One operation of the agent server's OpenAPI document (`test/fixtures/openapi/<version>.json`): the method
 * and the path template exactly as the document writes them, plus the first server version that has it
 * (from the recorded documents; absent when every recorded version has it).
 */
export interface Operation {
  readonly method: HttpMethod;
  readonly path: string;
  readonly since?: string;
}

/** A namespace's table: each method name and the operation(s) it calls (several for a scoped variant). */
export type OperationTable = Readonly<Record<string, Operation | readonly Operation[]>>;

export function op(method: HttpMethod, path: string, since?: string): Operation {
  return since === undefined ? { method, path } : { method, path, since };
}

/** `GET /api/x` style key of an operation (what the endpoint audit compares). */
export function operationKey(operation: Operation): string {
  return `${operation.method} ${operation.path}`;
}
