import { readFileSync } from 'node:fs';
import { inspect } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type EnvLike, resolveTraceExport, type TraceExportConfig } from '../../src/tracing.js';

const BUNDLED = {
  TRACING_BASE_URL: 'http://tracing-app-server-service',
  TRACING_FORCE_HTTP: 'true',
  TRACING_HTTP_PORT: '8000',
  TRACING_PROJECT_API_KEY: 'ingest-key-123',
};

interface Row {
  name: string;
  env: EnvLike;
  expected: Partial<TraceExportConfig>;
  /** One pattern per expected warning, in order. */
  warnings?: RegExp[];
}

const rows: Row[] = [
  {
    name: 'nothing set: tracing off',
    env: {},
    expected: {
      destination: 'disabled',
      endpoint: undefined,
      protocol: 'http/protobuf',
      headers: {},
      timeoutMs: 10_000,
      compression: 'none',
      ignored: [],
    },
  },
  {
    name: 'rule 1: bundled defaults',
    env: BUNDLED,
    expected: {
      destination: 'bundled',
      endpoint: 'http://tracing-app-server-service',
      protocol: 'http/protobuf',
      headers: { Authorization: 'Bearer ingest-key-123' },
      compression: 'gzip',
      timeoutMs: 30_000,
      ignored: [],
    },
  },
  {
    name: 'rule 1: bundled without TRACING_FORCE_HTTP is gRPC',
    env: { TRACING_BASE_URL: 'http://tracing', TRACING_PROJECT_API_KEY: 'k-1234' },
    expected: { destination: 'bundled', protocol: 'grpc' },
  },
  {
    name: 'rule 1: bundled plus OTEL variables at once, every present one ignored',
    env: {
      ...BUNDLED,
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://backend.example/v1/traces',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-key=abc',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: '',
      OTEL_ENDPOINT: 'http://other:4318',
      OTEL_SERVICE_NAME: 'runtime',
    },
    expected: {
      destination: 'bundled',
      endpoint: 'http://tracing-app-server-service',
      ignored: ['OTEL_ENDPOINT', 'OTEL_EXPORTER_OTLP_HEADERS', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'],
    },
    warnings: [/TRACING_BASE_URL is set: OTEL_ENDPOINT, OTEL_EXPORTER_OTLP_HEADERS, .* ignored/],
  },
  {
    name: 'rule 1: bundled without a key',
    env: { TRACING_BASE_URL: 'http://tracing', TRACING_FORCE_HTTP: '1' },
    expected: { destination: 'bundled', headers: {}, protocol: 'http/protobuf' },
    warnings: [/TRACING_PROJECT_API_KEY is empty/],
  },
  {
    name: 'empty TRACING_BASE_URL counts as unset',
    env: {
      TRACING_BASE_URL: '',
      TRACING_PROJECT_API_KEY: '',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://backend.example/v1/traces',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
    },
    expected: {
      destination: 'otlp',
      endpoint: 'https://backend.example/v1/traces',
      protocol: 'http/protobuf',
    },
  },
  {
    name: 'traces-specific endpoint is used as is',
    env: {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://backend.example/custom/path',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
    },
    expected: { destination: 'otlp', endpoint: 'https://backend.example/custom/path' },
  },
  {
    name: 'traces-specific endpoint without a path: the platform SDK appends /v1/traces',
    env: {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://tempo:4318',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
    },
    expected: { endpoint: 'http://tempo:4318', protocol: 'http/json' },
    warnings: [/posts to http:\/\/tempo:4318\/v1\/traces, not http:\/\/tempo:4318$/],
  },
  {
    name: 'generic endpoint without a path gets v1/traces (both agree)',
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
    },
    expected: { endpoint: 'http://collector:4318/v1/traces' },
  },
  {
    name: 'generic endpoint with a path: OpenTelemetry appends, the platform SDK does not',
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/mycollector',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
    },
    expected: { endpoint: 'http://collector:4318/mycollector/v1/traces' },
    warnings: [/OTEL_EXPORTER_OTLP_ENDPOINT: .* posts to http:\/\/collector:4318\/mycollector, not/],
  },
  {
    name: 'generic endpoint with a trailing slash',
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/mycollector/',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
    },
    expected: { endpoint: 'http://collector:4318/mycollector/v1/traces' },
    warnings: [/posts to http:\/\/collector:4318\/mycollector\/, not/],
  },
  {
    name: 'third tier OTEL_<X> is read, with a warning',
    env: { OTEL_ENDPOINT: 'http://collector:4318', OTEL_PROTOCOL: 'http/protobuf' },
    expected: { destination: 'otlp', endpoint: 'http://collector:4318/v1/traces', protocol: 'http/protobuf' },
    warnings: [/OTEL_PROTOCOL is read only by/, /OTEL_ENDPOINT is read only by/],
  },
  {
    name: 'precedence: traces-specific beats generic beats OTEL_<X>, for every setting',
    env: {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://a.example/v1/traces',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'https://b.example',
      OTEL_ENDPOINT: 'https://c.example',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'a=1',
      OTEL_EXPORTER_OTLP_HEADERS: 'b=2',
      OTEL_HEADERS: 'c=3',
      OTEL_EXPORTER_OTLP_TRACES_COMPRESSION: 'gzip',
      OTEL_EXPORTER_OTLP_COMPRESSION: 'none',
    },
    expected: {
      endpoint: 'https://a.example/v1/traces',
      protocol: 'http/json',
      headers: { a: '1' },
      compression: 'gzip',
      ignored: [
        'OTEL_ENDPOINT',
        'OTEL_EXPORTER_OTLP_COMPRESSION',
        'OTEL_EXPORTER_OTLP_ENDPOINT',
        'OTEL_EXPORTER_OTLP_HEADERS',
        'OTEL_EXPORTER_OTLP_PROTOCOL',
        'OTEL_HEADERS',
      ],
    },
  },
  {
    name: 'precedence: generic beats OTEL_<X> when the traces-specific one is empty',
    env: {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'https://b.example',
      OTEL_ENDPOINT: 'https://c.example',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: '  ',
      OTEL_EXPORTER_OTLP_HEADERS: 'b=2',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
    },
    expected: { endpoint: 'https://b.example/v1/traces', headers: { b: '2' }, ignored: ['OTEL_ENDPOINT'] },
  },
  {
    name: 'grpc/protobuf (the spec table value) is read as gRPC with a warning; endpoint untouched',
    env: {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://tempo:4317',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc/protobuf',
    },
    expected: { protocol: 'grpc', endpoint: 'http://tempo:4317' },
    warnings: [/grpc\/protobuf is not an OpenTelemetry value/],
  },
  {
    name: 'protocol values are case-insensitive; a generic gRPC endpoint gets no path',
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://tempo:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'GRPC' },
    expected: { protocol: 'grpc', endpoint: 'http://tempo:4317' },
  },
  {
    name: 'gRPC endpoint without a scheme is accepted',
    env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'tempo:4317', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc' },
    expected: { protocol: 'grpc', endpoint: 'tempo:4317' },
  },
  {
    name: 'unknown protocol falls back to http/protobuf with a warning',
    env: {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://x.example/v1/traces',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'thrift',
    },
    expected: { protocol: 'http/protobuf' },
    warnings: [/OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: unknown value/],
  },
  {
    name: 'no protocol: OpenTelemetry and the platform SDK disagree',
    env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://x.example/v1/traces' },
    expected: { protocol: 'http/protobuf', destination: 'otlp' },
    warnings: [/no protocol: OpenTelemetry defaults to http\/protobuf, .* to gRPC/],
  },
  {
    name: 'HTTP endpoint that is not an http(s) URL',
    env: {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'localhost:4318',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
    },
    expected: { endpoint: 'localhost:4318' },
    warnings: [/OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is not an http\(s\) URL/],
  },
  {
    name: 'headers are percent-decoded',
    env: {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://x.example/v1/traces',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS:
        'Authorization=Basic%20cGstbGYtMTpzay1sZi0y, x-honeycomb-team = abc%2Cdef ,x-note=caf%C3%A9%3D%3D',
    },
    expected: {
      headers: {
        Authorization: 'Basic cGstbGYtMTpzay1sZi0y',
        'x-honeycomb-team': 'abc,def',
        'x-note': 'café==',
      },
    },
  },
  {
    name: 'a literal space and "=" in a header value (as the docs write it) survive',
    env: {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://x.example/v1/traces',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'Authorization=Basic cGs6c2s=',
    },
    expected: { headers: { Authorization: 'Basic cGs6c2s=' } },
  },
  {
    name: 'malformed header pairs are skipped with warnings that name the pair, not the value',
    env: {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://x.example/v1/traces',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS:
        'good=1,Bearer s3cr3t-token,=orphan-s3cr3t,x-key=%E0%A4%As3cr3t,empty=',
    },
    expected: { headers: { good: '1' } },
    warnings: [
      /OTEL_EXPORTER_OTLP_TRACES_HEADERS: pair 2 is not key=value/,
      /pair 3 is not key=value/,
      /pair 4 \(x-key\) is not key=value/,
      /pair 5 \(empty\) is not key=value/,
    ],
  },
  {
    name: 'timeout in ms, with the platform SDK difference',
    env: {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://x.example/v1/traces',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_TIMEOUT: '2500',
    },
    expected: { timeoutMs: 2500 },
    warnings: [/OTEL_EXPORTER_OTLP_TIMEOUT: 2500 ms; .* ignores it/],
  },
  {
    name: 'timeout 0 means no limit; an invalid timeout keeps the default',
    env: {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://x.example/v1/traces',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '0',
    },
    expected: { timeoutMs: 0 },
    warnings: [/TIMEOUT: 0 ms/],
  },
  {
    name: 'invalid timeout',
    env: {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://x.example/v1/traces',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '-5',
    },
    expected: { timeoutMs: 10_000 },
    warnings: [/TIMEOUT: 10000 ms/],
  },
  {
    name: 'compression is case-insensitive; anything but gzip is none',
    env: {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://x.example/v1/traces',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_COMPRESSION: 'GZIP',
    },
    expected: { compression: 'gzip' },
  },
  {
    name: 'TRACING_PROJECT_API_KEY left set while redirecting',
    env: {
      TRACING_PROJECT_API_KEY: 'ingest-key-123',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://x.example/v1/traces',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
    },
    expected: { destination: 'otlp', endpoint: 'https://x.example/v1/traces' },
    warnings: [/TRACING_PROJECT_API_KEY is set: .* sends to the bundled backend/],
  },
  {
    name: 'OTLP variables without an endpoint',
    env: { OTEL_EXPORTER_OTLP_HEADERS: 'x-key=abc' },
    expected: { destination: 'disabled', endpoint: undefined, headers: { 'x-key': 'abc' } },
    warnings: [/no endpoint: tracing is off/],
  },
];

describe('resolveTraceExport', () => {
  it.each(rows)('$name', ({ env, expected, warnings = [] }) => {
    const config = resolveTraceExport(env);
    expect(config).toMatchObject(expected);
    expect(config.warnings).toHaveLength(warnings.length);
    for (const [i, pattern] of warnings.entries()) expect(config.warnings[i]).toMatch(pattern);
  });

  it('never puts a header value or a key into a warning', () => {
    const secret = fc.string({ minLength: 6, maxLength: 20 }).filter((s) => /^[\w-]+$/.test(s));
    fc.assert(
      fc.property(secret, fc.constantFrom('', '%', '%E0%A4%A', ';x'), (value, suffix) => {
        const config = resolveTraceExport({
          TRACING_PROJECT_API_KEY: value,
          OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/x',
          OTEL_EXPORTER_OTLP_TRACES_HEADERS: `Authorization=Basic ${value}${suffix},${value}`,
          OTEL_EXPORTER_OTLP_TIMEOUT: 'nope',
        });
        for (const warning of config.warnings) expect(warning).not.toContain(value);
      }),
    );
  });

  it('hides header values from JSON.stringify and util.inspect, keeping them usable', () => {
    const config = resolveTraceExport(BUNDLED);
    expect(config.headers.Authorization).toBe('Bearer ingest-key-123');
    expect(JSON.stringify(config)).not.toContain('ingest-key-123');
    expect(JSON.parse(JSON.stringify(config)).headers).toEqual({ Authorization: '[redacted]' });
    expect(inspect(config)).not.toContain('ingest-key-123');
    expect(inspect(config)).toContain('[redacted]');
    expect(String(config)).not.toContain('ingest-key-123');
    // The hooks are not enumerable: spreading or comparing the config is unaffected.
    expect(Object.keys(config)).not.toContain('toJSON');
    expect({ ...config }.headers).toEqual({ Authorization: 'Bearer ingest-key-123' });
  });

  describe('the documented backend env blocks', () => {
    const text = readFileSync(
      new URL('../fixtures/gateway-runtime-tracing/ohe-trace-export-env.ohe-docs.yaml', import.meta.url),
      'utf8',
    );
    // The fixture concatenates doc blocks; the real names LMNR_* are TRACING_* in the spec, and the
    // `<placeholders>` become concrete words (`<tempo-host>` → `tempo-host`).
    const blocks = text
      .split(/^# --- block \d+ ---$/m)
      .filter((b) => b.trim())
      .map((b) =>
        b.replaceAll('LMNR_', 'TRACING_').replace(/<([^>]+)>/g, (_, p: string) => p.replace(/\W+/g, '-')),
      )
      .map((b) => parse(b) as Record<string, unknown>);

    it('resolves the bundled defaults (block 1) to the bundled backend', () => {
      const config = resolveTraceExport(blocks[0] as EnvLike);
      expect(config).toMatchObject({ destination: 'bundled', protocol: 'http/protobuf', warnings: [] });
    });

    it('resolves every redirect block to its own endpoint', () => {
      const redirects = blocks.slice(1).map((b) => b.env as Record<string, string>);
      expect(redirects.length).toBeGreaterThanOrEqual(6);
      for (const env of redirects) {
        const config = resolveTraceExport(env);
        expect(config.destination).toBe('otlp');
        expect(config.endpoint).toBe(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
        expect(config.protocol).toBe(
          env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL === 'grpc/protobuf' ? 'grpc' : 'http/protobuf',
        );
        const expectedWarnings = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL === 'grpc/protobuf' ? 1 : 0;
        expect(config.warnings).toHaveLength(expectedWarnings);
        if (env.OTEL_EXPORTER_OTLP_TRACES_HEADERS) expect(Object.keys(config.headers)).not.toHaveLength(0);
      }
    });
  });
});
