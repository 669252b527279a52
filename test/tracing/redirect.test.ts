import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  dotenv,
  formatOtlpHeaders,
  helmValues,
  kubectlSetEnvArgs,
  parseOtlpHeaders,
  resolveTraceExport,
  type TraceRedirect,
  type TraceTarget,
  TraceTargetError,
  targetSettings,
  traceRedirectEnv,
} from '../../src/tracing.js';

const BUNDLED = {
  TRACING_BASE_URL: 'http://tracing-app-server-service',
  TRACING_FORCE_HTTP: 'true',
  TRACING_HTTP_PORT: '8000',
  TRACING_PROJECT_API_KEY: 'ingest-key-123',
};

/** The pod's environment after a redirect: `set` applied, `unset` removed. */
function apply(env: Record<string, string>, redirect: TraceRedirect): Record<string, string> {
  const out = { ...env, ...redirect.set };
  for (const key of redirect.unset) delete out[key];
  return out;
}

const targets: { name: string; target: TraceTarget; endpoint: string; protocol: string; headers: object }[] =
  [
    {
      name: 'HTTP Basic with public and secret key',
      target: {
        kind: 'basic-auth',
        baseUrl: 'https://traces.example.com/',
        publicKey: 'pk-lf-1',
        secretKey: 'sk-lf-2',
      },
      endpoint: 'https://traces.example.com/api/public/otel/v1/traces',
      protocol: 'http/protobuf',
      headers: { Authorization: `Basic ${Buffer.from('pk-lf-1:sk-lf-2').toString('base64')}` },
    },
    {
      name: 'API key in a header plus a dataset header',
      target: {
        kind: 'api-key-header',
        endpoint: 'https://api.honeycomb.io/v1/traces',
        header: 'x-honeycomb-team',
        apiKey: 'hc-key',
        dataset: { header: 'x-honeycomb-dataset', value: 'agent runs' },
      },
      endpoint: 'https://api.honeycomb.io/v1/traces',
      protocol: 'http/protobuf',
      headers: { 'x-honeycomb-team': 'hc-key', 'x-honeycomb-dataset': 'agent runs' },
    },
    {
      name: 'trace store over gRPC on 4317',
      target: { kind: 'trace-store', host: 'tempo.monitoring', transport: 'grpc' },
      endpoint: 'http://tempo.monitoring:4317',
      protocol: 'grpc',
      headers: {},
    },
    {
      name: 'trace store over HTTP on 4318',
      target: { kind: 'trace-store', host: 'https://tempo.example', transport: 'http' },
      endpoint: 'https://tempo.example:4318/v1/traces',
      protocol: 'http/protobuf',
      headers: {},
    },
    {
      name: 'a collector',
      target: { kind: 'collector', host: 'otel-collector.observability.svc' },
      endpoint: 'http://otel-collector.observability.svc:4318/v1/traces',
      protocol: 'http/protobuf',
      headers: {},
    },
  ];

describe('traceRedirectEnv', () => {
  it.each(targets)('$name', ({ target, endpoint, protocol, headers }) => {
    expect(targetSettings(target)).toEqual({ endpoint, protocol, headers });
    const redirect = traceRedirectEnv(target);
    expect(redirect.unset).toEqual(expect.arrayContaining(Object.keys(BUNDLED)));
    expect(redirect.set.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT).toBe(endpoint);
    expect(redirect.set.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL).toBe(protocol);
    const hasHeaders = Object.keys(headers).length > 0;
    expect('OTEL_EXPORTER_OTLP_TRACES_HEADERS' in redirect.set).toBe(hasHeaders);
    expect(redirect.unset.includes('OTEL_EXPORTER_OTLP_TRACES_HEADERS')).toBe(!hasHeaders);

    // Applied to a pod with the bundled defaults, the recipe resolves to the target, without warnings.
    const config = resolveTraceExport(apply(BUNDLED, redirect));
    expect(config).toMatchObject({ destination: 'otlp', endpoint, protocol, headers, warnings: [] });
  });

  it('resolves back to the target for any header names and values', () => {
    const text = fc
      .string({ minLength: 1, maxLength: 12, unit: 'binary' })
      .filter((s) => s.trim() === s && s !== '' && ![...s].some((c) => c < ' ' || c === '\x7f'));
    const name = fc.stringMatching(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,12}$/);
    fc.assert(
      fc.property(name, text, text, (header, apiKey, dataset) => {
        fc.pre(header !== 'x-dataset');
        const target: TraceTarget = {
          kind: 'api-key-header',
          endpoint: 'https://backend.example/v1/traces',
          header,
          apiKey,
          dataset: { header: 'x-dataset', value: dataset },
        };
        const config = resolveTraceExport(apply(BUNDLED, traceRedirectEnv(target)));
        expect(config.headers).toEqual({ [header]: apiKey, 'x-dataset': dataset });
        // A name with a %XX in it reaches the backend as written (the real SDK decodes values, not names),
        // which the resolver points out; nothing else is worth a warning.
        const expected = /%[0-9A-Fa-f]{2}/.test(header)
          ? ['OTEL_EXPORTER_OTLP_TRACES_HEADERS: pair 1: the name is not percent-decoded']
          : [];
        expect(config.warnings).toEqual(expected);
      }),
    );
  });

  it('a generic OTLP target: HTTP with headers, gRPC plaintext and TLS, and back through the resolver', () => {
    const http: TraceTarget = {
      kind: 'otlp',
      endpoint: 'https://otlp.example/v1/traces',
      protocol: 'http/protobuf',
      headers: { 'x-api-key': 'k,1=2 %' },
    };
    expect(resolveTraceExport(apply(BUNDLED, traceRedirectEnv(http)))).toMatchObject({
      destination: 'otlp',
      endpoint: 'https://otlp.example/v1/traces',
      protocol: 'http/protobuf',
      headers: { 'x-api-key': 'k,1=2 %' },
      tls: true,
      warnings: [],
    });
    for (const [endpoint, tls] of [
      ['http://tempo:4317', false],
      ['https://tempo:4317', true],
    ] as const) {
      const grpc: TraceTarget = { kind: 'otlp', endpoint, protocol: 'grpc', headers: { 'x-team': 'a' } };
      expect(resolveTraceExport(apply(BUNDLED, traceRedirectEnv(grpc)))).toMatchObject({
        destination: 'otlp',
        grpcTarget: 'tempo:4317',
        protocol: 'grpc',
        tls,
        headers: { 'x-team': 'a' },
        warnings: [],
      });
    }
  });

  it.each([
    [{ kind: 'nope', host: 'x' }, 'kind'],
    [{ kind: 'trace-store', transport: 'grpc' }, 'host'],
    [{ kind: 'trace-store', host: 'tempo', transport: 'udp' }, 'transport'],
    [{ kind: 'collector', host: 'c', port: 70000 }, 'port'],
    [{ kind: 'collector', host: 'c:4318' }, 'host'],
    [{ kind: 'basic-auth', baseUrl: 'ftp://x', publicKey: 'p', secretKey: 's' }, 'baseUrl'],
    [{ kind: 'basic-auth', baseUrl: 'https://x', publicKey: 'p:q', secretKey: 's' }, 'publicKey'],
    [
      { kind: 'api-key-header', endpoint: 'https://x/v1/traces', header: 'bad header', apiKey: 'k' },
      // Not a header name, so maybe a credential (`Authorization: Basic …`): named by position.
      'header.#1',
    ],
    [
      {
        kind: 'otlp',
        endpoint: 'http://x',
        protocol: 'http/protobuf',
        headers: { ok: 'v', 'Authorization: Basic s3cr3t': '' },
      },
      'headers.#2',
    ],
    [{ kind: 'otlp', endpoint: 'not a url', protocol: 'grpc' }, 'endpoint'],
    [{ kind: 'otlp', endpoint: 'https://user:pw@x', protocol: 'grpc' }, 'endpoint'],
    [{ kind: 'otlp', endpoint: 'https://x', protocol: 'http/json' }, 'protocol'],
    [
      {
        kind: 'otlp',
        endpoint: 'http://x:4317',
        protocol: 'grpc',
        headers: { Authorization: 'Bearer s3cr3t' },
      },
      'headers.Authorization',
    ],
    [{ kind: 'otlp', endpoint: 'http://x', protocol: 'http/protobuf', headers: { k: 'a\nb' } }, 'headers.k'],
  ])('rejects %j with a TraceTargetError naming %s, never a value', (target, field) => {
    let error: unknown;
    try {
      traceRedirectEnv(target as TraceTarget);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(TraceTargetError);
    expect((error as TraceTargetError).field).toBe(field);
    expect(String(error)).not.toMatch(/s3cr3t|pw@/);
  });

  it('fuzzed targets either redirect (and resolve back) or throw a TraceTargetError', () => {
    const anything = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.constant(undefined),
      fc.webUrl(),
      fc.constant(null),
    );
    const target = fc.record(
      {
        kind: fc.constantFrom('basic-auth', 'api-key-header', 'trace-store', 'collector', 'otlp', 'x'),
        endpoint: fc.oneof(fc.webUrl(), anything),
        baseUrl: fc.oneof(fc.webUrl(), anything),
        host: fc.oneof(fc.domain(), anything),
        transport: fc.constantFrom('grpc', 'http', 'x'),
        protocol: fc.constantFrom('grpc', 'http/protobuf', 'http/json'),
        port: fc.oneof(fc.integer({ min: -1, max: 70000 }), fc.constant(undefined)),
        header: fc.oneof(fc.stringMatching(/^[a-z-]{1,8}$/), fc.string()),
        apiKey: anything,
        publicKey: anything,
        secretKey: anything,
        headers: fc.oneof(fc.dictionary(fc.string(), fc.string()), fc.constant(undefined), anything),
      },
      { requiredKeys: ['kind'] },
    );
    fc.assert(
      fc.property(target, (t) => {
        let redirect: TraceRedirect;
        try {
          redirect = traceRedirectEnv(t as unknown as TraceTarget);
        } catch (error) {
          expect(error).toBeInstanceOf(TraceTargetError);
          return;
        }
        const config = resolveTraceExport(apply(BUNDLED, redirect));
        expect(config.destination).toBe('otlp');
        expect(config.headers).toEqual(targetSettings(t as unknown as TraceTarget).headers);
      }),
      { numRuns: 1000 },
    );
  });

  it('formats headers the way parseOtlpHeaders reads them', () => {
    const headers = { Authorization: 'Basic cGs6c2s=', 'x-list': 'a,b;c', quote: `it's "x" 100%` };
    const text = formatOtlpHeaders(headers);
    expect(text).toBe('Authorization=Basic%20cGs6c2s=,x-list=a%2Cb%3Bc,quote=it%27s%20%22x%22%20100%25');
    expect(parseOtlpHeaders(text)).toEqual({ headers, warnings: [] });
  });

  it('matches the shape of the documented Helm block (block 2)', () => {
    const text = readFileSync(
      new URL('../fixtures/gateway-runtime-tracing/ohe-trace-export-env.ohe-docs.yaml', import.meta.url),
      'utf8',
    );
    const documented = parse(
      (text.split(/^# --- block 2 ---$/m)[1] ?? '')
        .split(/^# --- block/m)[0]
        ?.replaceAll('LMNR_', 'TRACING_') ?? '',
    ) as { laminar: unknown; env: Record<string, string> };
    const redirect = traceRedirectEnv({
      kind: 'basic-auth',
      baseUrl: 'http://your-backend',
      publicKey: 'user',
      secretKey: 'pass',
    });
    const values = parse(helmValues(redirect, { bundledSwitch: 'laminar.enabled' })) as typeof documented;
    expect(values.laminar).toEqual(documented.laminar);
    // We also blank TRACING_GRPC_PORT, which the documented block does not know about (a stale gRPC port would
    // otherwise survive when the bundled backend is switched back on).
    expect(Object.keys(values.env).sort()).toEqual(
      [...Object.keys(documented.env), 'TRACING_GRPC_PORT'].sort(),
    );
    for (const [key, value] of Object.entries(documented.env)) {
      if (value === '') expect(values.env[key]).toBe('');
    }
    expect(values.env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL).toBe(
      documented.env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL,
    );
    expect(values.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT).toBe(
      'http://your-backend/api/public/otel/v1/traces',
    );
    expect(parseOtlpHeaders(values.env.OTEL_EXPORTER_OTLP_TRACES_HEADERS ?? '').headers.Authorization).toBe(
      `Basic ${btoa('user:pass')}`,
    );
  });
});

describe('rendering a redirect', () => {
  const redirect = traceRedirectEnv({
    kind: 'api-key-header',
    endpoint: 'https://api.honeycomb.io/v1/traces',
    header: 'x-honeycomb-team',
    apiKey: `k'e$y "1"`,
  });

  it('kubectl set env arguments: KEY=value to set, KEY- to remove', () => {
    const args = kubectlSetEnvArgs(redirect, 'deployment/runtime', { namespace: 'platform' });
    expect(args.slice(0, 5)).toEqual(['set', 'env', 'deployment/runtime', '-n', 'platform']);
    const assignments = args.slice(5);
    const set = Object.fromEntries(
      assignments
        .filter((a) => a.includes('='))
        .map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]),
    );
    expect(set).toEqual(redirect.set);
    expect(assignments.filter((a) => a.endsWith('-') && !a.includes('='))).toEqual(
      redirect.unset.map((k) => `${k}-`),
    );
  });

  it('Helm values: an env map where removed variables are empty strings', () => {
    const values = parse(helmValues(redirect)) as { env: Record<string, string> };
    expect(values).toEqual({
      env: { ...Object.fromEntries(redirect.unset.map((k) => [k, ''])), ...redirect.set },
    });
  });

  it('a dotenv file that a dotenv reader parses back (empty = unset)', () => {
    const text = dotenv(redirect);
    const parsed = parseEnv(text);
    expect(parsed).toEqual({ ...Object.fromEntries(redirect.unset.map((k) => [k, ''])), ...redirect.set });
    const config = resolveTraceExport(parsed);
    expect(config.headers).toEqual({ 'x-honeycomb-team': `k'e$y "1"` });
    expect(config.warnings).toEqual([]);
  });
});
