/**
 * Spec 6.3: where the runtime pod's traces go, read from its environment. Reports the OpenTelemetry reading
 * and warns wherever the platform's tracing SDK behaves differently. Warnings never contain header values.
 */
import { appendTracesPath, platformSdkHttpUrl, urlPath } from './endpoint.js';
import { parseOtlpHeaders } from './headers.js';
import { hideSecrets } from './safe-view.js';

export type TraceDestination = 'bundled' | 'otlp' | 'disabled';
export type OtlpProtocol = 'http/protobuf' | 'http/json' | 'grpc';
export type EnvLike = Readonly<Record<string, string | undefined>>;
type Setting = 'ENDPOINT' | 'PROTOCOL' | 'HEADERS' | 'TIMEOUT' | 'COMPRESSION';

export interface TraceExportConfig {
  destination: TraceDestination;
  /** Full URL the spans are sent to (HTTP: the traces URL; gRPC: scheme, host and port). */
  endpoint: string | undefined;
  protocol: OtlpProtocol;
  /** Decoded header values: credentials. `JSON.stringify` and `util.inspect` of the config hide them. */
  headers: Record<string, string>;
  /** 0 means no limit. */
  timeoutMs: number;
  compression: 'gzip' | 'none';
  /** Variables present (non-empty) that have no effect. */
  ignored: string[];
  warnings: string[];
}

const SDK = "the platform's tracing SDK";

/** Resolves spec 6.3 over `env` (e.g. `process.env` or a pod's env map). Empty values count as unset. */
export function resolveTraceExport(env: EnvLike): TraceExportConfig {
  const get = (name: string) => env[name]?.trim() || undefined;
  const warnings: string[] = [];
  const warn = (message: string) => warnings.push(message);
  const otelVars = Object.keys(env)
    .filter(
      (k) => /^OTEL_(EXPORTER_OTLP_|(ENDPOINT|PROTOCOL|HEADERS|TIMEOUT|COMPRESSION)$)/.test(k) && get(k),
    )
    .sort();
  const base = get('TRACING_BASE_URL');
  const key = get('TRACING_PROJECT_API_KEY');

  if (base) {
    // Rule 1. The endpoint is the base URL as given: the platform's SDK adds the port of TRACING_HTTP_PORT
    // (with TRACING_FORCE_HTTP) when the URL has none.
    const http = /^(true|1|yes|on)$/i.test(get('TRACING_FORCE_HTTP') ?? '');
    if (!key) warn(`TRACING_PROJECT_API_KEY is empty: no key is sent`);
    if (otelVars.length) warn(`TRACING_BASE_URL is set: ${otelVars.join(', ')} ignored`);
    return hideSecrets<TraceExportConfig>({
      destination: 'bundled',
      endpoint: base,
      protocol: http ? 'http/protobuf' : 'grpc',
      headers: key ? { Authorization: `Bearer ${key}` } : {},
      timeoutMs: 30_000,
      compression: 'gzip',
      ignored: otelVars,
      warnings,
    });
  }

  // Rule 2: traces-specific, then generic, then OTEL_<X>.
  /** The variable each setting was read from. */
  const sources: Partial<Record<Setting, string>> = {};
  const ignored: string[] = [];
  const read = (x: Setting) => {
    const [src, ...shadowed] = [
      `OTEL_EXPORTER_OTLP_TRACES_${x}`,
      `OTEL_EXPORTER_OTLP_${x}`,
      `OTEL_${x}`,
    ].filter(get);
    ignored.push(...shadowed);
    if (src) {
      sources[x] = src;
      if (src === `OTEL_${x}`) warn(`${src} is read only by ${SDK}, not by OpenTelemetry`);
      return get(src);
    }
  };

  const rawProtocol = read('PROTOCOL')?.toLowerCase();
  let protocol = (rawProtocol === 'grpc/protobuf' ? 'grpc' : rawProtocol) as OtlpProtocol;
  if (rawProtocol === 'grpc/protobuf')
    warn(`${sources.PROTOCOL}: grpc/protobuf is not an OpenTelemetry value; read as grpc`);
  if (!/^(grpc|http\/(json|protobuf))$/.test(protocol)) {
    if (rawProtocol)
      warn(`${sources.PROTOCOL}: unknown value; OpenTelemetry uses http/protobuf, ${SDK} gRPC`);
    protocol = 'http/protobuf';
  }

  let endpoint = read('ENDPOINT');
  if (endpoint) {
    if (protocol === 'grpc') {
      // gRPC: scheme, host and port, used as is (OpenTelemetry also allows host:port without a scheme).
    } else if (!urlPath(endpoint)) {
      warn(`${sources.ENDPOINT} is not an http(s) URL`);
    } else {
      const sdk = platformSdkHttpUrl(endpoint);
      if (!sources.ENDPOINT?.includes('TRACES')) endpoint = appendTracesPath(endpoint);
      if (sdk !== endpoint) warn(`${sources.ENDPOINT}: ${SDK} posts to ${sdk}, not ${endpoint}`);
    }
    if (!rawProtocol) warn(`no protocol: OpenTelemetry defaults to http/protobuf, ${SDK} to gRPC`);
  } else if (otelVars.length) {
    warn('no endpoint: tracing is off');
  }

  const parsed = parseOtlpHeaders(read('HEADERS') ?? '', sources.HEADERS);
  warnings.push(...parsed.warnings);

  const rawTimeout = read('TIMEOUT');
  let timeoutMs = 10_000;
  if (rawTimeout) {
    if (/^\d+$/.test(rawTimeout)) timeoutMs = +rawTimeout;
    warn(`${sources.TIMEOUT}: ${timeoutMs} ms; ${SDK} ignores it (30 s)`);
  }

  const compression = read('COMPRESSION')?.toLowerCase();

  if (key) warn(`TRACING_PROJECT_API_KEY is set: ${SDK} sends to the bundled backend`);
  return hideSecrets<TraceExportConfig>({
    destination: endpoint ? 'otlp' : 'disabled',
    endpoint,
    protocol,
    headers: parsed.headers,
    timeoutMs,
    compression: compression === 'gzip' ? 'gzip' : 'none',
    ignored: ignored.sort(),
    warnings,
  });
}
