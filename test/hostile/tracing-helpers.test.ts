/**
 * Issue 23 items 5 and 11, issue 26 item 5: the tracing helpers never write a line break a target smuggled in,
 * never show a header name that may be a credential, throw errors the SDK's guard recognises, and list in
 * `ignored` every variable a warning says has no effect.
 */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { isAgentPlatformError } from '../../src/core/errors.js';
import { toYaml } from '../../src/core/yaml.js';
import {
  collectorConfig,
  decodeOtlpTraces,
  dotenv,
  helmValues,
  kubectlSetEnvArgs,
  resolveTraceExport,
  type TraceTarget,
  traceRedirectEnv,
} from '../../src/tracing.js';

const thrown = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('a line break inside a redirect target', () => {
  const smuggled = 'https://collector.example/v1/traces\nLD_PRELOAD=/tmp/evil.so';
  it.each<[string, TraceTarget]>([
    ['otlp endpoint', { kind: 'otlp', endpoint: smuggled, protocol: 'http/protobuf' }],
    ['api-key endpoint', { kind: 'api-key-header', endpoint: smuggled, header: 'x-key', apiKey: 'k' }],
    [
      'basic-auth baseUrl',
      { kind: 'basic-auth', baseUrl: 'https://x.example\r\nA=b', publicKey: 'p', secretKey: 's' },
    ],
    ['collector host', { kind: 'collector', host: 'otel\nLD_PRELOAD=x' }],
  ])('in the %s is a TraceTargetError; nothing is rendered', (_label, target) => {
    const error = thrown(() => traceRedirectEnv(target));
    expect(isAgentPlatformError(error), String(error)).toBe(true);
    expect((error as Error).name).toBe('TraceTargetError');
  });

  it('in a redirect built by hand: dotenv, kubectl args and helm values refuse it', () => {
    const redirect = {
      set: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://c.example\nLD_PRELOAD=/tmp/evil.so' },
      unset: [],
    };
    for (const render of [
      () => dotenv(redirect),
      () => kubectlSetEnvArgs(redirect, 'deploy/x'),
      () => helmValues(redirect),
    ]) {
      const error = thrown(render);
      expect(isAgentPlatformError(error)).toBe(true);
      expect(String(error)).not.toContain('LD_PRELOAD');
    }
    expect(isAgentPlatformError(thrown(() => dotenv({ set: { 'A\nB': 'x' }, unset: [] })))).toBe(true);
  });
});

describe('header names that may be credentials', () => {
  const credential = 'dXNlcjpzM2NyZXQtUExBTlRFRA';
  it.each(['grpc', 'http/protobuf'])('are never shown in warnings, JSON or inspect (%s)', (protocol) => {
    const config = resolveTraceExport({
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://collector.example:4318',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: protocol,
      // The common mistake: ":" where "=" belongs, so the whole pair is the name and the value is empty.
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: `Authorization: Basic ${credential}=,x-%41pi=${credential}`,
    });
    const shown = [config.warnings.join('\n'), JSON.stringify(config), inspect(config, { depth: 5 })].join(
      '\n',
    );
    expect(shown).not.toContain(credential);
    expect(config.warnings.join('\n')).toMatch(/pair 1: the name is not a header name/);
  });
});

describe('errors of ./tracing', () => {
  it('are recognised by isAgentPlatformError', () => {
    const errors = [
      thrown(() => resolveTraceExport(null as never)),
      thrown(() => resolveTraceExport({}, { dotenv: 'x' as never })),
      thrown(() => traceRedirectEnv({ kind: 'nope' } as never)),
      thrown(() => collectorConfig({ exporters: [{ name: 'x', target: { kind: 'nope' } }] } as never)),
      thrown(() => decodeOtlpTraces({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: 'zz' }] }] }] })),
    ];
    for (const error of errors) {
      expect(error).toBeInstanceOf(Error);
      expect(isAgentPlatformError(error), String(error)).toBe(true);
      expect(() => JSON.stringify(error)).not.toThrow();
    }
    expect((errors[0] as Error).name).toBe('TraceTargetError');
    expect((errors[4] as Error).name).toBe('OtlpDecodeError');
  });
});

describe('resolveTraceExport().ignored', () => {
  /** Variables a warning says have no effect: "X is ignored", "X without …: tracing is off". */
  const named = (warnings: string[]) =>
    warnings.flatMap((w) =>
      [...w.matchAll(/\b((?:OTEL|TRACING)_[A-Z_]+) (?:is ignored|without [^:]*: tracing is off)/g)].map(
        (m) => m[1] as string,
      ),
    );
  it.each<[string, Record<string, string>]>([
    [
      'a project key with OTLP endpoint and headers',
      {
        TRACING_PROJECT_API_KEY: 'k',
        TRACING_BASE_URL: 'https://lmnr.example',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://c.example',
        OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'a=b',
      },
    ],
    [
      'a bundled destination without key, with an OTLP endpoint',
      { TRACING_BASE_URL: 'https://lmnr.example', OTEL_EXPORTER_OTLP_ENDPOINT: 'https://c.example' },
    ],
    [
      'headers without an endpoint',
      { OTEL_EXPORTER_OTLP_HEADERS: 'a=b', TRACING_BASE_URL: 'https://x.example' },
    ],
    [
      'timeouts and compression',
      {
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://c.example',
        OTEL_TIMEOUT: '5',
        OTEL_EXPORTER_OTLP_COMPRESSION: 'none',
      },
    ],
  ])('lists every variable its warnings call ignored: %s', (_label, env) => {
    const config = resolveTraceExport(env);
    const said = named(config.warnings);
    expect(said.length).toBeGreaterThan(0);
    for (const name of said) expect(config.ignored).toContain(name);
  });

  it('under a key, the OTLP endpoint and headers are ignored (issue 26 item 5)', () => {
    const config = resolveTraceExport({
      TRACING_PROJECT_API_KEY: 'k',
      TRACING_BASE_URL: 'https://lmnr.example',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://c.example',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'a=b',
    });
    expect(config.ignored).toEqual([
      'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
      'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
    ]);
  });
});

describe('YAML the tracing helpers write', () => {
  it('a value YAML cannot hold (NaN) is an AgentPlatformError, not a bare TypeError', () => {
    const error = thrown(() => toYaml({ batch: Number.NaN }));
    expect(isAgentPlatformError(error)).toBe(true);
  });
});
