/**
 * Where the runtime pod's traces really go, read from its environment: the platform's tracing SDK at the
 * version the agent server pins, as measured against the real SDK (docs/tracing.md, "Where traces really go",
 * and docs/compatibility.md, "Trace export"). Where an older, simpler rule says something else, a warning
 * says so. Warnings never contain header values.
 */

import { TraceTargetError } from './errors.js';
import { GRPC_NAME, headerLabel, parseOtlpHeaders } from './headers.js';
import { hideSecrets } from './safe-view.js';

/** `cloud`: the tracing vendor's hosted backend (a project key without a base URL). */
export type TraceDestination = 'bundled' | 'cloud' | 'otlp' | 'disabled';
export type OtlpProtocol = 'http/protobuf' | 'http/json' | 'grpc';
export type EnvLike = Readonly<Record<string, string | undefined>>;

export interface TraceExportConfig {
  destination: TraceDestination;
  /**
   * HTTP: the URL spans are posted to. gRPC: the URL handed to the exporter (it dials only host and port, see
   * `grpcTarget`). Undefined when disabled, and for `cloud` unless `cloudUrl` is given.
   */
  endpoint: string | undefined;
  /** `host:port` the gRPC channel connects to (undefined for HTTP). */
  grpcTarget: string | undefined;
  /** The wire format is always protobuf, even when `http/json` is asked for. */
  protocol: 'http/protobuf' | 'grpc';
  /** HTTPS, or a TLS gRPC channel. */
  tls: boolean;
  /** Decoded header values: credentials. `JSON.stringify` and `util.inspect` of the config hide them. */
  headers: Record<string, string>;
  /** Export timeout (the variables are read in seconds); 0 means no limit. */
  timeoutMs: number;
  compression: 'gzip' | 'none';
  /** Variables present (non-empty) that have no effect. */
  ignored: string[];
  warnings: string[];
}

export interface ResolveOptions {
  /** Contents of a `.env` file in the process's working directory: read for every variable that is empty. */
  dotenv?: EnvLike;
  /** The vendor's hosted backend (`https://…`), used for the `cloud` destination's endpoint. */
  cloudUrl?: string;
}

const TRUE = /^(true|1|yes|on)$/i;
/** The variables `ignored` can list: the bundled backend's and the OpenTelemetry exporter's. */
const TRACING_VAR =
  /^TRACING_|^OTEL_(EXPORTER_OTLP_|(ENDPOINT|PROTOCOL|HEADERS|TIMEOUT|COMPRESSION|EXPORTER)$)/;
const PY_INT = /^\s*[+-]?\d+(_\d+)*\s*$/;
const PY_FLOAT = /^\s*[+-]?((\d+\.?\d*|\.\d+)(e[+-]?\d+)?|inf(inity)?)\s*$/i;

/** Resolves `env` (e.g. `process.env` or a pod's env map) the way the platform's tracing SDK does. */
export function resolveTraceExport(env: EnvLike, options: ResolveOptions = {}): TraceExportConfig {
  checkObject(env, 'env');
  checkObject(options, 'options');
  if (options.dotenv !== undefined) checkObject(options.dotenv, 'options.dotenv');
  const warnings: string[] = [];
  const warn = (message: string) => warnings.push(message);
  const used = new Set<string>();
  // Read, but without effect (a warning says so): listed in `ignored` with those never read.
  const dropped = new Set<string>();
  const drop = (name: string | undefined) => name && dropped.add(name);
  // The SDK reads a variable when it is non-empty (whitespace counts), else the `.env` file.
  const get = (name: string): string | undefined => {
    used.add(name);
    return env[name] || options.dotenv?.[name] || undefined;
  };
  const otel = (x: string) => {
    for (const name of [`OTEL_EXPORTER_OTLP_TRACES_${x}`, `OTEL_EXPORTER_OTLP_${x}`, `OTEL_${x}`]) {
      const value = get(name);
      if (value) return [name, value] as const;
    }
  };
  // The OpenTelemetry exporter underneath reads its own variables from the process environment only.
  const present = (name: string) => !!(env[name] || options.dotenv?.[name]);
  const processVar = (name: string) => {
    used.add(name);
    return env[name];
  };
  const done = (config: Omit<TraceExportConfig, 'ignored' | 'warnings'>) =>
    hideSecrets<TraceExportConfig>({
      ...config,
      ignored: [...new Set([...Object.keys(env), ...Object.keys(options.dotenv ?? {})])]
        .filter((k) => TRACING_VAR.test(k) && present(k) && (!used.has(k) || dropped.has(k)))
        .sort(),
      warnings,
    });
  const off = () =>
    done({
      destination: 'disabled',
      endpoint: undefined,
      grpcTarget: undefined,
      protocol: 'grpc',
      tls: false,
      headers: {},
      timeoutMs: 0,
      compression: 'none',
    });

  const key = get('TRACING_PROJECT_API_KEY');
  const otelEndpoint = otel('ENDPOINT');
  const rawBase = get('TRACING_BASE_URL');
  const otelHeaders = otel('HEADERS');
  // The agent server starts tracing only with a project key or an OTLP endpoint.
  if (!key && !otelEndpoint) {
    if (rawBase) warn('TRACING_BASE_URL without TRACING_PROJECT_API_KEY: tracing is off');
    if (otelHeaders) warn(`${otelHeaders[0]} without an endpoint: tracing is off`);
    // Tracing is off: whatever was read has no effect.
    for (const name of used) drop(name);
    return off();
  }
  const forceHttp = TRUE.test(get('TRACING_FORCE_HTTP') ?? '');
  const port = (name: string) => {
    const raw = get(name);
    if (raw && PY_INT.test(raw)) return Number(raw.replace(/_/g, ''));
    if (raw) warn(`${name} is not an integer: default port`);
    return 0;
  };
  // Ports are passed to the SDK only with a project key.
  const httpPort = key ? port('TRACING_HTTP_PORT') : 0;
  const grpcPort = key ? port('TRACING_GRPC_PORT') : 0;
  if (!key && rawBase && (present('TRACING_HTTP_PORT') || present('TRACING_GRPC_PORT')))
    warn('TRACING_HTTP_PORT/TRACING_GRPC_PORT are ignored without TRACING_PROJECT_API_KEY');
  let base = rawBase?.replace(/\/+$/, '');
  if (base) {
    if (!/^https?:/.test(base)) {
      base = `https://${base}`;
      warn('TRACING_BASE_URL has no scheme: https:// is added');
    }
    const urlPort = /:(\d{1,5})$/.exec(base);
    if (urlPort) {
      base = base.slice(0, -urlPort[0].length);
      warn(`TRACING_BASE_URL: port ${urlPort[1]} is ignored`);
    }
  }
  let http = forceHttp;
  let endpoint: string | undefined;
  let destination: TraceDestination = base ? 'bundled' : 'cloud';
  let headers: Record<string, string>;
  const cloud = options.cloudUrl?.replace(/\/+$/, '').replace(/:\d{1,5}$/, '');
  const laminar = base ?? cloud;
  if (laminar) endpoint = `${laminar}:${(forceHttp ? httpPort : grpcPort) || (forceHttp ? 443 : 8443)}`;
  if (key) {
    headers = { [forceHttp ? 'Authorization' : 'authorization']: `Bearer ${key}` };
    drop(otelEndpoint?.[0]);
    drop(otelHeaders?.[0]);
    if (otelEndpoint)
      warn(
        `TRACING_PROJECT_API_KEY is set: ${otelEndpoint[0]} is ignored` +
          (base ? '' : '; traces go to the cloud'),
      );
    if (otelHeaders) warn(`TRACING_PROJECT_API_KEY is set: ${otelHeaders[0]} is ignored`);
  } else {
    const parsed = parseOtlpHeaders(otelHeaders?.[1] ?? '', otelHeaders?.[0]);
    headers = parsed.headers;
    warnings.push(...parsed.warnings);
    if (otelEndpoint && !base) {
      destination = 'otlp';
      endpoint = otelEndpoint[1];
      const [name, protocol] = otel('PROTOCOL') ?? ['', ''];
      http = protocol === 'http/protobuf' || protocol === 'http/json' || get('OTEL_EXPORTER') === 'otlp_http';
      if (!protocol) warn('no OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: gRPC');
      else if (protocol === 'http/json') warn(`${name}: http/json sends protobuf`);
      else if (!http && protocol !== 'grpc' && protocol !== 'grpc/protobuf')
        warn(`${name} is not http/protobuf or http/json: gRPC`);
    } else if (otelEndpoint) {
      drop(otelEndpoint[0]);
      warn(
        `TRACING_BASE_URL is set: ${otelEndpoint[0]} is ignored` +
          (otelHeaders ? `, but ${otelHeaders[0]} is sent to the bundled backend` : ''),
      );
    }
  }
  if (destination === 'bundled' && !key) warn('no TRACING_PROJECT_API_KEY: the bundled backend gets no key');

  // The OpenTelemetry exporter: compression gzip, timeout in seconds.
  // Timeout: HTTP reads TRACES_TIMEOUT, else OTLP_TIMEOUT, else 10 s; gRPC uses TRACES_TIMEOUT unless it is
  // 0, then OTLP_TIMEOUT. A set variable that is not a number (an empty one too) stops the SDK from starting.
  const seconds = (name: string) => {
    const raw = processVar(name);
    if (raw !== undefined && !PY_FLOAT.test(raw)) throw name;
    return raw === undefined ? undefined : Number(raw.trim().replace(/^([+-]?)inf(inity)?$/i, '$1Infinity'));
  };
  let timeout: number;
  try {
    timeout = http
      ? (seconds('OTEL_EXPORTER_OTLP_TRACES_TIMEOUT') ?? seconds('OTEL_EXPORTER_OTLP_TIMEOUT') ?? 10)
      : seconds('OTEL_EXPORTER_OTLP_TRACES_TIMEOUT') || (seconds('OTEL_EXPORTER_OTLP_TIMEOUT') ?? 10);
  } catch (name) {
    warn(`${name} is not a number: tracing is off`);
    return off();
  }
  if (present('OTEL_TIMEOUT')) warn('OTEL_TIMEOUT is ignored');

  let grpcTarget: string | undefined;
  let tls: boolean;
  if (endpoint === undefined) {
    tls = true;
  } else if (http) {
    endpoint = endpoint.trimStart();
    // `/v1/traces` only when the URL has no path (query kept); a path is used as is.
    const match = /^([a-z][\w+.-]*:\/\/[^/?#]*)(\/?)([?#].*)?$/i.exec(endpoint);
    if (match) endpoint = `${match[1]}/v1/traces${match[3] ?? ''}`;
    else if (destination === 'otlp' && /:\/\/[^/]*\/./.test(endpoint) && !/\/v1\/traces\b/.test(endpoint))
      warn(`${otelEndpoint?.[0]}: the path is used as is`);
    tls = /^https:/i.test(endpoint);
  } else {
    // Leading whitespace is dropped when the URL is parsed; trailing whitespace stays in the target.
    const url = /^([a-z][\w+.-]*):\/\/([^/?#]*)/i.exec(endpoint.trimStart());
    grpcTarget = url?.[2] ?? endpoint;
    if (url && /[/?#]./.test(endpoint.trimStart().slice(url[0].length)))
      warn('gRPC endpoint: the path is dropped');
    const insecure = (name: string) => {
      const raw = processVar(name);
      return raw === undefined ? undefined : raw.toLowerCase() === 'true';
    };
    let secure = insecure('OTEL_EXPORTER_OTLP_TRACES_INSECURE');
    const scheme = url?.[1]?.toLowerCase();
    if (scheme === 'https') secure = false;
    secure ??= insecure('OTEL_EXPORTER_OTLP_INSECURE') ?? scheme === 'http';
    tls = !secure;
    if (!url && tls) warn('gRPC endpoint without a scheme: TLS');
    Object.keys(headers).forEach((name, i) => {
      if (!GRPC_NAME.test(name))
        warn(`header ${headerLabel(name, i)}: gRPC needs a-z 0-9 - _ .; the export fails`);
    });
  }
  for (const name of ['OTEL_EXPORTER_OTLP_TRACES_COMPRESSION', 'OTEL_EXPORTER_OTLP_COMPRESSION'])
    if (present(name)) warn(`${name} is ignored: always gzip`);
  return done({
    destination,
    endpoint,
    grpcTarget, // set for gRPC only
    protocol: http ? 'http/protobuf' : 'grpc',
    tls,
    headers,
    timeoutMs: Number.isFinite(timeout) ? Math.round(timeout * 1000) : 0,
    compression: 'gzip',
  });
}

/** `null`, a string or a `Map` where an object of variables belongs is misuse: say which argument. */
function checkObject(value: unknown, field: string): void {
  const got =
    value === null
      ? 'null'
      : Array.isArray(value)
        ? 'an array'
        : value instanceof Map
          ? 'a Map'
          : typeof value;
  if (got !== 'object') throw new TraceTargetError(field, `must be an object, got ${got}`);
}
