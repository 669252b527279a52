import { hasControlCharacters, isPlainObject } from '../core/validate.js';
import { invalid } from './invalid.js';

/** A metadata value the server's tracing accepts: a scalar, or a list of one scalar type. */
export type TraceMetadataValue = string | number | boolean | string[] | number[] | boolean[];

/**
 * How a started conversation is traced (the server's `X-OpenHands-Observability-*` headers on
 * `POST /api/conversations`, 1.58.0 and later; an older server ignores them).
 */
export interface ConversationTrace {
  /** Name of the conversation's span (server default `conversation`). */
  spanName?: string | undefined;
  /** Tags of the conversation's root span (sent comma-separated, so a tag cannot hold a comma). */
  tags?: readonly string[] | undefined;
  /** Trace metadata; the request body's `observability_metadata` wins key by key. */
  metadata?: Record<string, TraceMetadataValue> | undefined;
  /**
   * The span the conversation's traces hang under: the JSON span context the server's tracing SDK reads, as
   * `parentSpanContext()` builds it from the app's current trace.
   */
  parentSpanContext?: string | undefined;
}

const SPAN_NAME = 'X-OpenHands-Observability-Span-Name';
const TAGS = 'X-OpenHands-Observability-Tags';
const METADATA = 'X-OpenHands-Observability-Metadata';
const PARENT = 'X-OpenHands-Observability-Parent-Span-Context';

function headerText(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalid(field, 'must be a non-empty string');
  if (hasControlCharacters(value)) throw invalid(field, 'must not contain control or invisible characters');
  // A header value is bytes the server reads as Latin-1 (and fetch refuses other characters): ASCII only.
  if (!/^[\x20-\x7e]*$/.test(value)) {
    throw invalid(field, 'must be ASCII (it is sent as an HTTP header); other text belongs in metadata');
  }
  return value;
}

/** JSON with every non-ASCII character escaped, so that it can travel as a header value. */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function isMetadataValue(value: unknown): boolean {
  if (['string', 'boolean'].includes(typeof value)) return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (!Array.isArray(value)) return false;
  const kinds = new Set(value.map((item) => typeof item));
  return kinds.size <= 1 && value.every((item) => isMetadataValue(item) && !Array.isArray(item));
}

/** The headers for `trace`, each value checked (a `RequestValidationError` naming `options.trace.<field>`). */
export function traceHeaders(trace: unknown): Record<string, string> {
  if (trace === undefined) return {};
  if (!isPlainObject(trace)) throw invalid('options.trace', 'must be an object');
  const { spanName, tags, metadata, parentSpanContext } = trace as ConversationTrace;
  const headers: Record<string, string> = {};
  if (spanName !== undefined) headers[SPAN_NAME] = headerText(spanName, 'options.trace.spanName');
  if (tags !== undefined) {
    if (!Array.isArray(tags)) throw invalid('options.trace.tags', 'must be an array of strings');
    const checked = tags.map((tag, index) => {
      const text = headerText(tag, `options.trace.tags.${index}`);
      if (text.includes(','))
        throw invalid(`options.trace.tags.${index}`, 'must not contain "," (tags are sent comma-separated)');
      return text.trim();
    });
    if (checked.length > 0) headers[TAGS] = checked.join(',');
  }
  if (metadata !== undefined) {
    if (!isPlainObject(metadata)) throw invalid('options.trace.metadata', 'must be an object');
    for (const [key, value] of Object.entries(metadata)) {
      if (!isMetadataValue(value)) {
        throw invalid(
          `options.trace.metadata.${key}`,
          'must be a string, a finite number, a boolean, or a list of one of these',
        );
      }
    }
    if (Object.keys(metadata).length > 0) headers[METADATA] = asciiJson(metadata);
  }
  if (parentSpanContext !== undefined) {
    headers[PARENT] = headerText(parentSpanContext, 'options.trace.parentSpanContext');
  }
  return headers;
}
