import * as api from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeOtlpTraces, resolveTraceExport, type TraceExportConfig } from '../../src/tracing.js';
import { startReceiver } from './otlp-receiver.js';

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(() => receiver.close());

/** Exports two spans (a parent and a child with typed attributes) through `exporter`. */
async function exportSpans(exporter: OTLPTraceExporter) {
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const tracer = provider.getTracer('real-peer', '1.2.3');
  const root = tracer.startSpan('conversation');
  const child = tracer.startSpan(
    'llm.completion',
    {
      attributes: {
        'gen_ai.request.model': 'm-1',
        'gen_ai.usage.input_tokens': 12,
        flag: true,
        tags: ['a', 'b'],
      },
    },
    api.trace.setSpan(api.ROOT_CONTEXT, root),
  );
  child.end();
  root.end();
  await provider.forceFlush();
  await provider.shutdown();
}

/** The official exporter configured from a resolved configuration. */
const exporterFor = (config: TraceExportConfig) =>
  new OTLPTraceExporter({
    url: config.endpoint,
    headers: config.headers,
    timeoutMillis: config.timeoutMs,
    compression: config.compression as never,
  });

describe('real peer: the official OpenTelemetry JS OTLP exporter, configured from resolveTraceExport', () => {
  it('sends to the resolved path with the resolved headers and compression; the spans decode', async () => {
    const config = resolveTraceExport({
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.origin}/otlp/v1/traces`,
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS:
        'Authorization=Basic%20cGstbGY6c2stbGY%3D,x-honeycomb-dataset=agent%20runs',
      OTEL_EXPORTER_OTLP_TRACES_COMPRESSION: 'gzip',
      OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '5',
    });
    expect(config.endpoint).toBe(`${receiver.origin}/otlp/v1/traces`);
    await exportSpans(exporterFor(config));

    expect(receiver.received.length).toBeGreaterThan(0);
    for (const request of receiver.received) {
      expect(request.method).toBe('POST');
      expect(request.path).toBe('/otlp/v1/traces');
      expect(request.headers.authorization).toBe('Basic cGstbGY6c2stbGY=');
      expect(request.headers['x-honeycomb-dataset']).toBe('agent runs');
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['content-encoding']).toBe('gzip');
    }
    const spans = decodeOtlpTraces(receiver.received.map((r) => r.body));
    const byName = Object.fromEntries(spans.map((s) => [s.name, s]));
    expect(Object.keys(byName).sort()).toEqual(['conversation', 'llm.completion']);
    expect(byName['llm.completion']?.parentSpanId).toBe(byName.conversation?.spanId);
    expect(byName['llm.completion']?.traceId).toBe(byName.conversation?.traceId);
    expect(byName['llm.completion']?.attributes).toEqual({
      'gen_ai.request.model': 'm-1',
      'gen_ai.usage.input_tokens': 12,
      flag: true,
      tags: ['a', 'b'],
    });
    expect(byName['llm.completion']?.scope).toEqual({ name: 'real-peer', version: '1.2.3' });
    expect(byName.conversation?.kind).toBe(1); // INTERNAL in OTLP numbering
    expect(byName.conversation?.startTimeUnixNano).toBeGreaterThan(0n);
  });

  // The same environment given to the official exporter (which reads it itself) and to resolveTraceExport, where
  // OpenTelemetry's rules and the platform's tracing SDK agree (they part for a generic endpoint with a path and
  // a traces endpoint without one: see docs/tracing.md).
  const envs: Record<string, (origin: string) => Record<string, string>> = {
    'generic endpoint without a path': (o) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: o }),
    'traces endpoint used as is': (o) => ({
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${o}/api/public/otel/v1/traces`,
    }),
    'traces endpoint beats generic': (o) => ({
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${o}/specific`,
      OTEL_EXPORTER_OTLP_ENDPOINT: `${o}/generic`,
    }),
    'percent-encoded headers': (o) => ({
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${o}/v1/traces`,
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-api-key=k%2Cey%3D%3D, x-team = caf%C3%A9 ',
    }),
  };

  for (const [name, build] of Object.entries(envs)) {
    it(`agrees with the exporter's own reading: ${name}`, async () => {
      const env = { ...build(receiver.origin), OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json' };
      const saved = { ...process.env };
      Object.assign(process.env, env);
      try {
        await exportSpans(new OTLPTraceExporter());
      } finally {
        for (const key of Object.keys(env)) delete process.env[key];
        Object.assign(process.env, saved);
      }
      const config = resolveTraceExport(env);
      const [request] = receiver.received;
      expect(request?.path).toBe(new URL(config.endpoint ?? '').pathname);
      for (const [key, value] of Object.entries(config.headers))
        expect(request?.headers[key.toLowerCase()]).toBe(value);
    });
  }
});
