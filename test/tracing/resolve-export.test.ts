// resolveTraceExport models the platform's tracing SDK as the real one behaves (measured by
// test/conformance/tracing-lmnr.test.ts against the real SDK); these rows are that behaviour, without Python.
import { inspect } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
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
  dotenv?: EnvLike;
  expected: Partial<TraceExportConfig>;
  /** Patterns that some warning must match. */
  warnings?: RegExp[];
}

const rows: Row[] = [
  {
    name: 'nothing set: off',
    env: {},
    expected: { destination: 'disabled', endpoint: undefined, headers: {} },
  },
  {
    name: 'bundled defaults: port and /v1/traces added, 10 s, gzip',
    env: BUNDLED,
    expected: {
      destination: 'bundled',
      endpoint: 'http://tracing-app-server-service:8000/v1/traces',
      protocol: 'http/protobuf',
      tls: false,
      headers: { Authorization: 'Bearer ingest-key-123' },
      timeoutMs: 10_000,
      compression: 'gzip',
    },
  },
  {
    name: 'bundled over gRPC: port 8443 or TRACING_GRPC_PORT, lower-case authorization',
    env: { TRACING_BASE_URL: 'http://tracing', TRACING_PROJECT_API_KEY: 'k', TRACING_GRPC_PORT: '8001' },
    expected: {
      destination: 'bundled',
      endpoint: 'http://tracing:8001',
      grpcTarget: 'tracing:8001',
      protocol: 'grpc',
      tls: false,
      headers: { authorization: 'Bearer k' },
    },
  },
  {
    name: 'a port in the base URL is ignored',
    env: { TRACING_BASE_URL: 'https://lmnr.example:9999/', TRACING_PROJECT_API_KEY: 'k' },
    expected: { endpoint: 'https://lmnr.example:8443', grpcTarget: 'lmnr.example:8443', tls: true },
    warnings: [/^TRACING_BASE_URL: port 9999 is ignored$/],
  },
  {
    name: 'schemeless base URL: https',
    env: { ...BUNDLED, TRACING_BASE_URL: 'tracing' },
    expected: { endpoint: 'https://tracing:8000/v1/traces', tls: true },
    warnings: [/^TRACING_BASE_URL has no scheme: https:\/\/ is added$/],
  },
  {
    name: 'base URL only: off (spec rule 1 says bundled)',
    env: { TRACING_BASE_URL: 'http://tracing' },
    expected: { destination: 'disabled' },
    warnings: [/tracing is off/],
  },
  {
    name: 'base URL, no key, OTLP endpoint: bundled on the default port, OTLP headers sent there',
    env: {
      ...BUNDLED,
      TRACING_PROJECT_API_KEY: '',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4317',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-team=blue',
    },
    expected: {
      destination: 'bundled',
      endpoint: 'http://tracing-app-server-service:443/v1/traces',
      headers: { 'x-team': 'blue' },
    },
    warnings: [
      /^TRACING_HTTP_PORT\/TRACING_GRPC_PORT are ignored without TRACING_PROJECT_API_KEY$/,
      /is sent to the bundled backend/,
    ],
  },
  {
    name: 'key and OTLP endpoint without base URL: the vendor cloud',
    env: { TRACING_PROJECT_API_KEY: 'k', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4317' },
    expected: {
      destination: 'cloud',
      endpoint: 'https://cloud.example:8443',
      protocol: 'grpc',
      headers: { authorization: 'Bearer k' },
    },
    warnings: [
      /^TRACING_PROJECT_API_KEY is set: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is ignored; traces go to the cloud$/,
    ],
  },
  {
    name: 'cloud endpoint when cloudUrl is given',
    env: { TRACING_PROJECT_API_KEY: 'k', TRACING_FORCE_HTTP: 'on' },
    expected: { destination: 'cloud', endpoint: 'https://cloud.example:443/v1/traces', tls: true },
  },
  {
    name: 'OTLP endpoint without protocol: gRPC, path dropped',
    env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4317/v1/traces' },
    expected: { destination: 'otlp', protocol: 'grpc', grpcTarget: 'c:4317', tls: false, timeoutMs: 10_000 },
    warnings: [/^no OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: gRPC$/, /path is dropped/],
  },
  {
    name: 'protocol is case-sensitive',
    env: {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'HTTP/PROTOBUF',
    },
    expected: { protocol: 'grpc' },
    warnings: [/^OTEL_EXPORTER_OTLP_TRACES_PROTOCOL is not http\/protobuf or http\/json: gRPC$/],
  },
  {
    name: 'OTEL_EXPORTER=otlp_http selects HTTP',
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER: 'otlp_http' },
    expected: { protocol: 'http/protobuf', endpoint: 'http://c:4318/v1/traces' },
  },
  {
    name: 'a generic endpoint with a path is used as is',
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' },
    expected: { endpoint: 'http://c:4318/otlp' },
    warnings: [/^OTEL_EXPORTER_OTLP_ENDPOINT: the path is used as is$/],
  },
  {
    name: 'a query without a path keeps the query',
    env: { OTEL_ENDPOINT: 'http://c:4318/?t=a', OTEL_PROTOCOL: 'http/protobuf' },
    expected: { endpoint: 'http://c:4318/v1/traces?t=a' },
  },
  {
    name: 'http/json sends protobuf; timeouts in seconds; OTEL_TIMEOUT unused',
    env: {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '5',
      OTEL_TIMEOUT: '7',
    },
    expected: { protocol: 'http/protobuf', timeoutMs: 5000, compression: 'gzip' },
    warnings: [/sends protobuf/, /^OTEL_TIMEOUT is ignored$/],
  },
  {
    name: 'gRPC reads the generic timeout',
    env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4317', OTEL_EXPORTER_OTLP_TIMEOUT: '2.5' },
    expected: { timeoutMs: 2500 },
  },
  {
    name: 'an empty timeout variable stops the SDK from starting',
    env: {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '',
    },
    expected: { destination: 'disabled' },
    warnings: [/^OTEL_EXPORTER_OTLP_TRACES_TIMEOUT is not a number: tracing is off$/],
  },
  {
    name: 'schemeless gRPC: TLS; an upper-case header fails',
    env: {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'c:4317',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'Authorization=Bearer%20t',
    },
    expected: { tls: true, grpcTarget: 'c:4317', headers: { Authorization: 'Bearer t' } },
    warnings: [/TLS/, /export fails/],
  },
  {
    name: 'INSECURE=true turns TLS off',
    env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'c:4317', OTEL_EXPORTER_OTLP_INSECURE: 'true' },
    expected: { tls: false },
  },
  {
    name: 'headers: empty values kept, names not decoded, bad % kept, last wins',
    env: {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4317',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'a=,k%20x=v,b=%zz,b= 2 ,bare',
    },
    expected: { headers: { a: '', 'k%20x': 'v', b: '2' } },
    warnings: [/not percent-decoded/, /no '='/],
  },
  {
    name: 'compression variables are ignored',
    env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4317', OTEL_EXPORTER_OTLP_COMPRESSION: 'none' },
    expected: { compression: 'gzip' },
    warnings: [/always gzip/],
  },
  {
    name: 'a whitespace-only key counts as set',
    env: { ...BUNDLED, TRACING_PROJECT_API_KEY: ' ' },
    expected: { destination: 'bundled', headers: { Authorization: 'Bearer  ' } },
  },
  {
    name: '.env fills an empty variable; the process value wins otherwise',
    env: { ...BUNDLED, TRACING_PROJECT_API_KEY: '', TRACING_HTTP_PORT: '9000' },
    dotenv: { TRACING_PROJECT_API_KEY: 'from-file', TRACING_HTTP_PORT: '1' },
    expected: {
      endpoint: 'http://tracing-app-server-service:9000/v1/traces',
      headers: { Authorization: 'Bearer from-file' },
    },
  },
  {
    name: 'ignored lists variables with no effect',
    env: { ...BUNDLED, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc', OTEL_SERVICE_NAME: 'x' },
    expected: { ignored: ['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'] },
  },
];

describe('resolveTraceExport (the platform tracing SDK as measured)', () => {
  it.each(rows)('$name', ({ env, dotenv, expected, warnings = [] }) => {
    const config = resolveTraceExport(env, { dotenv, cloudUrl: 'https://cloud.example' });
    expect({ ...config }).toMatchObject(expected);
    for (const pattern of warnings)
      expect(
        config.warnings.some((w) => pattern.test(w)),
        String(pattern),
      ).toBe(true);
  });

  it('never shows header values in JSON, inspect or warnings', () => {
    const config = resolveTraceExport({
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'c:4317',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'X-Secret=s3cr3t-value,=s3cr3t-value',
    });
    expect(config.headers['X-Secret']).toBe('s3cr3t-value');
    for (const text of [JSON.stringify(config), inspect(config), config.warnings.join('\n')])
      expect(text).not.toContain('s3cr3t-value');
  });

  it('never throws and keeps its invariants for any environment', () => {
    const names = fc.constantFrom(
      'TRACING_BASE_URL',
      'TRACING_PROJECT_API_KEY',
      'TRACING_FORCE_HTTP',
      'TRACING_HTTP_PORT',
      'TRACING_GRPC_PORT',
      'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
      'OTEL_EXPORTER_OTLP_ENDPOINT',
      'OTEL_ENDPOINT',
      'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
      'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
      'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT',
      'OTEL_EXPORTER_OTLP_TIMEOUT',
      'OTEL_EXPORTER_OTLP_INSECURE',
      'OTEL_EXPORTER',
    );
    const values = fc.oneof(
      fc.string(),
      fc.constantFrom('', ' ', 'true', 'http/protobuf', 'grpc', 'http://c:4318', 'c:4317', '8000', 'a=%zz,b'),
      fc.webUrl(),
    );
    fc.assert(
      fc.property(fc.dictionary(names, values), fc.dictionary(names, values), (env, dotenv) => {
        const config = resolveTraceExport(env, { dotenv });
        expect(['bundled', 'cloud', 'otlp', 'disabled']).toContain(config.destination);
        expect(['grpc', 'http/protobuf']).toContain(config.protocol);
        expect(Number.isNaN(config.timeoutMs)).toBe(false);
        if (config.destination === 'disabled') expect(config.endpoint).toBeUndefined();
        else expect(config.compression).toBe('gzip');
        if (config.destination === 'otlp') expect(config.endpoint).toBeDefined();
        expect(() => JSON.stringify(config)).not.toThrow();
      }),
      { numRuns: 500 },
    );
  });
});
