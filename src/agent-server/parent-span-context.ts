/**
 * The app's current trace as the parent of a conversation's traces: the value of `trace.parentSpanContext` on
 * `conversations.create` (the server's `X-OpenHands-Observability-Parent-Span-Context`). The agent server
 * reads it with its tracing SDK's `LaminarSpanContext.deserialize`: JSON with `trace_id` and `span_id` as
 * UUID strings (the 128-bit trace id as is, the 64-bit span id as the low half), and `is_remote`. Here, not in
 * `./tracing`: the format is the agent server's, and that entry's size budget has no room.
 */
import { invalid } from './invalid.js';

/** What `@opentelemetry/api`'s `SpanContext` carries (lower-case hex ids). */
export interface SpanContextLike {
  traceId: string;
  spanId: string;
}

/** The part of the `@opentelemetry/api` module read here (pass the module itself: it is not imported). */
export interface OpenTelemetryApiLike {
  trace: { getSpanContext(context: never): SpanContextLike | undefined };
  context: { active(): unknown };
}

/**
 * Where the parent comes from: a W3C `traceparent` header value, a `SpanContext`, or the `@opentelemetry/api`
 * module with an optional context (default: the active one).
 */
export type ParentSpanSource = string | SpanContextLike | { api: OpenTelemetryApiLike; context?: unknown };

const TRACE_ID = /^[0-9a-f]{32}$/;
const SPAN_ID = /^[0-9a-f]{16}$/;
// W3C Trace Context: version-traceid-parentid-flags; a later version may append fields after the flags.
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

function valid(traceId: string, spanId: string): boolean {
  return TRACE_ID.test(traceId) && SPAN_ID.test(spanId) && !/^0+$/.test(traceId) && !/^0+$/.test(spanId);
}

function uuid(hex32: string): string {
  return `${hex32.slice(0, 8)}-${hex32.slice(8, 12)}-${hex32.slice(12, 16)}-${hex32.slice(16, 20)}-${hex32.slice(20)}`;
}

function serialize(traceId: string, spanId: string): string {
  return JSON.stringify({
    trace_id: uuid(traceId),
    span_id: uuid(spanId.padStart(32, '0')),
    is_remote: true,
  });
}

/**
 * The parent span context for `source`. A `traceparent` or `SpanContext` that is not a valid trace context is a
 * `RequestValidationError` naming it; an `api` without an active (valid) span gives undefined: there is no trace to join.
 */
export function parentSpanContext(source: ParentSpanSource): string | undefined {
  if (typeof source === 'string') {
    const match = TRACEPARENT.exec(source.trim());
    if (!match || match[1] === 'ff' || (match[1] === '00' && match[5] !== undefined)) {
      throw invalid('traceparent', 'must be a W3C traceparent: 00-<32 hex>-<16 hex>-<2 hex>');
    }
    if (!valid(match[2]!, match[3]!)) {
      throw invalid('traceparent', 'has an all-zero trace or span id');
    }
    return serialize(match[2]!, match[3]!);
  }
  if (typeof source !== 'object' || source === null) {
    throw invalid('source', 'must be a traceparent string, a SpanContext or { api, context? }');
  }
  if ('api' in source) {
    const { api } = source;
    if (typeof api?.trace?.getSpanContext !== 'function' || typeof api?.context?.active !== 'function') {
      throw invalid('api', "must be the '@opentelemetry/api' module");
    }
    const context =
      'context' in source && source.context !== undefined ? source.context : api.context.active();
    const span = api.trace.getSpanContext(context as never);
    return span && valid(span.traceId, span.spanId) ? serialize(span.traceId, span.spanId) : undefined;
  }
  const { traceId, spanId } = source as SpanContextLike;
  if (typeof traceId !== 'string' || typeof spanId !== 'string' || !valid(traceId, spanId)) {
    throw invalid('spanContext', 'must have a 32-hex traceId and a 16-hex spanId, not all zeros');
  }
  return serialize(traceId, spanId);
}
