// Issue 34 item 8: the app's trace context as the parent span context the agent server reads (its tracing SDK's
// LaminarSpanContext.deserialize: trace_id and span_id as UUIDs, the span id in the low 64 bits).
import * as api from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { isRequestValidationError } from '../../src/core/errors.js';
import { parentSpanContext } from '../../src/index.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';
const EXPECTED = {
  trace_id: '4bf92f35-77b3-4da6-a3ce-929d0e0e4736',
  span_id: '00000000-0000-0000-00f0-67aa0ba902b7',
  is_remote: true,
};

describe('parentSpanContext', () => {
  it('reads a W3C traceparent', () => {
    expect(JSON.parse(parentSpanContext(`00-${TRACE}-${SPAN}-01`) as string)).toEqual(EXPECTED);
    // A later version may add fields after the flags.
    expect(JSON.parse(parentSpanContext(`01-${TRACE}-${SPAN}-00-extra`) as string)).toEqual(EXPECTED);
  });

  it('reads a SpanContext and the active context of @opentelemetry/api', () => {
    expect(JSON.parse(parentSpanContext({ traceId: TRACE, spanId: SPAN }) as string)).toEqual(EXPECTED);
    const context = api.trace.setSpanContext(api.ROOT_CONTEXT, {
      traceId: TRACE,
      spanId: SPAN,
      traceFlags: api.TraceFlags.SAMPLED,
    });
    expect(JSON.parse(parentSpanContext({ api, context }) as string)).toEqual(EXPECTED);
    // No span in the context: no trace to join.
    expect(parentSpanContext({ api, context: api.ROOT_CONTEXT })).toBeUndefined();
    expect(parentSpanContext({ api })).toBeUndefined();
  });

  it.each([
    ['not a traceparent'],
    [`ff-${TRACE}-${SPAN}-01`],
    [`00-${TRACE}-${SPAN}-01-extra`],
    [`00-${'0'.repeat(32)}-${SPAN}-01`],
    [`00-${TRACE}-${'0'.repeat(16)}-01`],
    [`00-${TRACE.toUpperCase()}-${SPAN}-01`],
  ])('refuses %j with a RequestValidationError naming traceparent', (value) => {
    const error = (() => {
      try {
        parentSpanContext(value);
      } catch (e) {
        return e;
      }
    })();
    expect(isRequestValidationError(error)).toBe(true);
    expect((error as Error).message).toMatch(/^traceparent: /);
  });

  it('refuses a SpanContext with bad ids and something that is not the api module', () => {
    expect(() => parentSpanContext({ traceId: 'x', spanId: SPAN })).toThrow(/^spanContext: /);
    expect(() => parentSpanContext({ api: {} as never })).toThrow(/^api: /);
    expect(() => parentSpanContext(42 as never)).toThrow(/^source: /);
  });
});
