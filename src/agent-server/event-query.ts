import { isRequestValidationError } from '../core/errors.js';
import type { QueryValue } from '../core/transport.js';
import { describe } from '../core/validate.js';
import { type EventKindWithModulePath, eventKindToModulePath } from '../models/event-kind-paths.js';
import { invalid } from './invalid.js';

/** The server's event sort orders. */
export type EventSortOrder = 'TIMESTAMP' | 'TIMESTAMP_DESC';

/** Filters of `count` (the search filters minus paging and sort). */
export interface EventFilter {
  /**
   * An event kind (`ActionEvent`) or a full module path. The server compares module paths, so a
   * short kind is translated; an unknown short kind is a RequestValidationError (it would match nothing).
   */
  kind?: EventKindWithModulePath | (string & {});
  /** `agent`, `user`, `environment` (newer servers: `hook`). */
  source?: 'agent' | 'user' | 'environment' | 'hook' | (string & {});
  /** Case-insensitive substring of a MessageEvent's text. */
  body?: string;
  /**
   * The server compares timestamps as strings of its naive local time; pass a timestamp the
   * server produced (an event's `timestamp`) for exact results. A `Date` is sent as its UTC ISO string.
   */
  timestampGte?: string | Date;
  timestampLt?: string | Date;
}

/** Filters, sort and page size of `search`. */
export interface EventSearchQuery extends EventFilter {
  /** Default `TIMESTAMP` (oldest first). */
  sortOrder?: EventSortOrder;
  /** Page size, clamped to 1..100 (the real server answers 500 above 100). Default 100. */
  limit?: number;
}

export const MAX_PAGE_SIZE = 100;

const SORT_ORDERS: readonly string[] = ['TIMESTAMP', 'TIMESTAMP_DESC'];
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** The wire query of `GET /events/count`; RequestValidationError naming the field for bad input. */
export function eventFilterToQuery(
  filter: EventFilter | undefined,
  field = 'query',
): Record<string, QueryValue> {
  if (filter === undefined) return {};
  if (typeof filter !== 'object' || filter === null) {
    throw invalid(field, `must be an object, got ${describe(filter)}`);
  }
  return {
    kind: filter.kind === undefined ? undefined : kindToModulePath(filter.kind, `${field}.kind`),
    source: optionalString(filter.source, `${field}.source`),
    body: optionalString(filter.body, `${field}.body`),
    timestamp__gte: timestamp(filter.timestampGte, `${field}.timestampGte`),
    timestamp__lt: timestamp(filter.timestampLt, `${field}.timestampLt`),
  };
}

/** The wire query of `GET /events/search` (without `page_id`). */
export function eventSearchToQuery(
  query: EventSearchQuery | undefined,
  field = 'query',
): Record<string, QueryValue> {
  const sortOrder = query?.sortOrder;
  if (sortOrder !== undefined && !SORT_ORDERS.includes(sortOrder)) {
    throw invalid(`${field}.sortOrder`, `must be TIMESTAMP or TIMESTAMP_DESC, got ${describe(sortOrder)}`);
  }
  return {
    ...eventFilterToQuery(query, field),
    sort_order: sortOrder,
    limit: clampLimit(query?.limit, `${field}.limit`),
  };
}

/** `limit` above 100 makes the real server fail with 500 and 0 with 422, so clamp to 1..100. */
export function clampLimit(limit: unknown, field: string): number {
  if (limit === undefined) return MAX_PAGE_SIZE;
  if (typeof limit !== 'number' || Number.isNaN(limit)) {
    throw invalid(field, `must be a number, got ${describe(limit)}`);
  }
  return Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(limit)));
}

function kindToModulePath(kind: unknown, field: string): string {
  const value = optionalString(kind, field) as string;
  try {
    return eventKindToModulePath(value);
  } catch (error) {
    // The model names the field `kind`; name it as the caller wrote it.
    const message = isRequestValidationError(error) ? error.issues[0]?.message : undefined;
    throw invalid(field, message ?? String(error));
  }
}

function optionalString(value: unknown, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') {
    throw invalid(field, `must be a non-empty string, got ${describe(value)}`);
  }
  return value;
}

function timestamp(value: unknown, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw invalid(field, 'is an invalid Date');
    return value.toISOString();
  }
  if (typeof value !== 'string' || !ISO_DATETIME.test(value)) {
    throw invalid(field, `must be an ISO 8601 date-time or a Date, got ${describe(value)}`);
  }
  return value;
}
