// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${env:X}` is the Collector's env reference syntax
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { toYaml, type YamlValue } from '../../src/core/yaml.js';
import { collectorConfig, parseOtlpHeaders, traceRedirectEnv } from '../../src/tracing.js';

const documented = parse(
  readFileSync(
    new URL('../fixtures/gateway-runtime-tracing/otel-collector-config.ohe-docs.yaml', import.meta.url),
    'utf8',
  ),
) as Record<string, Record<string, unknown>>;

interface Collector {
  receivers: unknown;
  processors: unknown;
  exporters: Record<
    string,
    { endpoint?: string; traces_endpoint?: string; headers?: Record<string, string> }
  >;
  service: { pipelines: { traces: { receivers: string[]; processors: string[]; exporters: string[] } } };
}

describe('collectorConfig', () => {
  const langfuse = {
    kind: 'basic-auth',
    baseUrl: 'http://langfuse-host',
    publicKey: 'pk-lf-1',
    secretKey: 'sk-lf-2',
  } as const;

  it('keeps the bundled backend (from the Collector env by default) and adds one otlphttp exporter per backend', () => {
    const yaml = collectorConfig({
      exporters: [
        { name: 'langfuse', target: langfuse },
        { name: 'tempo', target: { kind: 'trace-store', host: 'tempo', transport: 'http' } },
        {
          name: 'vendor',
          tracesUrl: 'https://ingest.vendor.example/otlp/traces',
          headers: { 'api-key': '${env:VENDOR_KEY}' },
        },
      ],
    });
    const config = parse(yaml) as Collector;
    // Receivers and the batch processor are those of the documented configuration.
    expect(config.receivers).toEqual(documented.receivers);
    expect(config.processors).toEqual(documented.processors);
    expect(config.exporters).toEqual({
      'otlphttp/bundled': {
        endpoint: '${env:TRACING_BASE_URL}:${env:TRACING_HTTP_PORT}',
        headers: { Authorization: 'Bearer ${env:TRACING_PROJECT_API_KEY}' },
      },
      // Same shape as the documented exporter: the base endpoint, the Collector appends /v1/traces.
      'otlphttp/langfuse': {
        endpoint: 'http://langfuse-host/api/public/otel',
        headers: { Authorization: `Basic ${btoa('pk-lf-1:sk-lf-2')}` },
      },
      'otlphttp/tempo': { endpoint: 'http://tempo:4318' },
      'otlphttp/vendor': {
        traces_endpoint: 'https://ingest.vendor.example/otlp/traces',
        headers: { 'api-key': '${env:VENDOR_KEY}' },
      },
    });
    expect(config.service.pipelines.traces).toEqual({
      receivers: ['otlp'],
      processors: ['batch'],
      exporters: ['otlphttp/bundled', 'otlphttp/langfuse', 'otlphttp/tempo', 'otlphttp/vendor'],
    });
  });

  it('the documented exporter keys match', () => {
    const config = parse(
      collectorConfig({ bundled: false, exporters: [{ name: 'langfuse', target: langfuse }] }),
    ) as Collector;
    const documentedExporter = (documented.exporters as Collector['exporters'])['otlphttp/langfuse'];
    expect(Object.keys(config.exporters)).toEqual(Object.keys(documented.exporters as object));
    expect(Object.keys(config.exporters['otlphttp/langfuse'] ?? {})).toEqual(
      Object.keys(documentedExporter ?? {}),
    );
    expect(config.service).toEqual(documented.service);
  });

  it('an explicit bundled backend gets the Bearer key the platform SDK sends', () => {
    const config = parse(
      collectorConfig({
        bundled: { baseUrl: 'http://tracing-app:8000', projectApiKey: 'k-1' },
        exporters: [],
      }),
    ) as Collector;
    expect(config.exporters['otlphttp/bundled']).toEqual({
      endpoint: 'http://tracing-app:8000',
      headers: { Authorization: 'Bearer k-1' },
    });
  });

  it('a recipe pointing the runtime at the collector resolves to its HTTP receiver', () => {
    const redirect = traceRedirectEnv({ kind: 'collector', host: 'otel-collector' });
    expect(redirect.set.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT).toBe('http://otel-collector:4318/v1/traces');
    expect(parseOtlpHeaders(redirect.set.OTEL_EXPORTER_OTLP_TRACES_HEADERS ?? '').headers).toEqual({});
  });

  it('rejects a gRPC target and duplicate names', () => {
    expect(() =>
      collectorConfig({
        exporters: [{ name: 'tempo', target: { kind: 'trace-store', host: 'tempo', transport: 'grpc' } }],
      }),
    ).toThrow(/HTTP target/);
    expect(() =>
      collectorConfig({
        exporters: [
          { name: 'a', tracesUrl: 'http://a/v1/traces' },
          { name: 'a', tracesUrl: 'http://b/v1/traces' },
        ],
      }),
    ).toThrow(/^trace target exporters\[1\]\.name: is a duplicate$/);
  });
});

describe('toYaml', () => {
  it('emits plain scalars only where no YAML reader can misread them', () => {
    const value = {
      plain: 'otlphttp/langfuse',
      port: '0.0.0.0:4318',
      duration: '5s',
      words: ['true', 'no', 'on', 'Null', 'y', '1e3', '012', '-x', '#c', 'a: b', 'key:', ''],
      nested: { list: [{ a: 1 }, [2, 3], []], empty: {} },
      numbers: [512, 1.5, -2],
      flags: [true, false, null],
      multi: 'line one\nline two',
    };
    const text = toYaml(value);
    expect(parse(text)).toEqual(value);
    expect(text).toContain('plain: otlphttp/langfuse\n');
    expect(text).toContain('"true"');
  });

  it('round-trips any JSON-like value through a YAML 1.2 reader', () => {
    const key = fc.string({ unit: 'binary', maxLength: 8 });
    const scalar = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 12 }),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
    );
    const { value } = fc.letrec<{ value: YamlValue }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        scalar,
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(key, tie('value'), { maxKeys: 4 }),
      ),
    }));
    fc.assert(
      fc.property(value, (v) => {
        expect(parse(toYaml(v))).toEqual(v);
      }),
      { numRuns: 300 },
    );
  });
});

describe('collectorConfig errors', () => {
  it.each([
    [{ name: 'a', tracesUrl: 'ftp://x' }, 'exporters[0].tracesUrl'],
    [{ name: 'a', tracesUrl: 'https://x/v1/traces', headers: { k: 'a\nb' } }, 'exporters[0].headers.k'],
    [{ name: 'a', target: { kind: 'collector', host: 'c:4318' } }, 'exporters[0].target.host'],
    [{ name: 'a', target: null }, 'exporters[0].target.target'],
    [{ name: 'a', target: { kind: 'nope' } }, 'exporters[0].target.kind'],
  ])('name the field inside the entry: %j → %s', (entry, field) => {
    let error: unknown;
    try {
      collectorConfig({ exporters: [entry as never], bundled: false });
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ name: 'TraceTargetError', field });
    expect((error as Error).message).toMatch(
      new RegExp(`^trace target ${field.replace(/[[\].]/g, '\\$&')}: \\w`),
    );
  });
});
