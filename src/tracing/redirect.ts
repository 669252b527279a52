/**
 * Redirecting traces (docs/tracing.md): the environment changes that send the runtime pod's traces to another OTLP backend.
 * The returned `set` holds credentials in clear (that is its purpose). Every target is validated first: a bad
 * one throws a {@link TraceTargetError} naming the field (never its value).
 */
import { TraceTargetError } from './errors.js';
import { formatOtlpHeaders, GRPC_NAME, HEADER_NAME, headerLabel } from './headers.js';

export type TraceTarget =
  /** HTTP Basic with public key as user and secret key as password; `baseUrl` is the backend's origin. */
  | { kind: 'basic-auth'; baseUrl: string; publicKey: string; secretKey: string }
  /** An API key in a header, plus an optional dataset header. `endpoint` is the full traces URL. */
  | {
      kind: 'api-key-header';
      endpoint: string;
      header: string;
      apiKey: string;
      dataset?: { header: string; value: string };
    }
  /** A trace store without auth: gRPC on 4317 or HTTP on 4318 `/v1/traces`. `host` may carry a scheme. */
  | { kind: 'trace-store'; host: string; transport: 'grpc' | 'http'; port?: number }
  /** An OpenTelemetry Collector's OTLP/HTTP receiver (4318), e.g. one built with `collectorConfig`. */
  | { kind: 'collector'; host: string; port?: number }
  /**
   * Any OTLP backend. HTTP: `endpoint` is the full traces URL (used as is when it has a path, else `/v1/traces`
   * is added). gRPC: `http://host:port` for plaintext, `https://host:port` for TLS.
   */
  | { kind: 'otlp'; endpoint: string; protocol: 'http/protobuf' | 'grpc'; headers?: Record<string, string> };

export interface TargetSettings {
  endpoint: string;
  protocol: 'http/protobuf' | 'grpc';
  headers: Record<string, string>;
}

export interface TraceRedirect {
  set: Record<string, string>;
  unset: string[];
}

/** The bundled backend's variables, unset by every redirect (rule 3). */
export const BUNDLED_TRACING_VARS = [
  'TRACING_BASE_URL',
  'TRACING_PROJECT_API_KEY',
  'TRACING_FORCE_HTTP',
  'TRACING_HTTP_PORT',
  'TRACING_GRPC_PORT',
] as const;

// The URL parser drops tabs and line breaks silently; written out, they would start a new variable line.
export const hasControl = (text: string) => [...text].some((c) => c < ' ' || c === '\x7f');
/** A URL scheme (`https://`): a host may carry one. */
const SCHEME = /^\w+:\/\//;

function check(ok: unknown, field: string, detail: string): void {
  if (!ok) throw new TraceTargetError(field, detail);
}
const isText = (value: unknown): value is string => typeof value === 'string';
const checkNonEmpty = (value: unknown, field: string) =>
  check(isText(value) && value !== '', field, 'must be a non-empty string');
export function checkUrl(value: unknown, field: string): void {
  let ok = false;
  try {
    const url = new URL(value as string);
    ok = /^https?:$/.test(url.protocol) && !!url.hostname && !url.username && !url.password;
  } catch {}
  check(
    ok && isText(value) && !hasControl(value) && value.trim() === value,
    field,
    'must be an http(s) URL without credentials or control characters',
  );
}
function checkHost(value: unknown, field: string): void {
  checkNonEmpty(value, field);
  const host = value as string;
  checkUrl(SCHEME.test(host) ? host : `http://${host}`, field);
  check(!/:\d+$|\/./.test(host.replace(SCHEME, '')), field, 'must not carry a port or path');
}
function checkPort(value: unknown, field: string): void {
  check(
    value === undefined || (Number.isInteger(value) && (value as number) > 0 && (value as number) < 65536),
    field,
    'must be an integer 1-65535',
  );
}
function checkHeaders(headers: unknown, grpc: boolean, field = 'headers'): void {
  check(
    headers !== null && typeof headers === 'object' && !Array.isArray(headers),
    field,
    'must be an object',
  );
  Object.entries(headers as object).forEach(([name, value], i) => {
    // A name that is no header name is not shown: it may be a credential (`Authorization: Basic …`).
    const at = `${field}.${headerLabel(name, i)}`;
    check(HEADER_NAME.test(name), at, 'is not a header name');
    check(!grpc || GRPC_NAME.test(name), at, 'gRPC needs a-z 0-9 - _ .');
    // The value must survive the platform's percent-decoding: printable, no line breaks.
    check(isText(value) && !hasControl(value), at, 'must be a string without control characters');
  });
}

/** Throws a {@link TraceTargetError} naming the first bad field of `target`. */
export function validateTraceTarget(target: TraceTarget): void {
  targetSettings(target);
}

const trim = (url: string) => url.replace(/\/+$/, '');
const origin = (host: string, port: number) => `${SCHEME.test(host) ? trim(host) : `http://${host}`}:${port}`;

function base64(text: string): string {
  // Keys are short: the bytes fit in one call's arguments.
  return btoa(String.fromCharCode(...new TextEncoder().encode(text)));
}

/**
 * Endpoint, protocol and decoded headers of a target, which is validated on the way (one switch over the
 * kinds does both): a bad field throws a {@link TraceTargetError}.
 */
export function targetSettings(target: TraceTarget): TargetSettings {
  return settingsAt(target, '');
}

/** {@link targetSettings} with every error's field under `at` (e.g. `exporters[0].target.`). */
export function settingsAt(target: unknown, at: string): TargetSettings {
  check(target !== null && typeof target === 'object', `${at}target`, 'must be an object');
  const t = target as Record<string, unknown>;
  const http = 'http/protobuf';
  switch (t.kind) {
    case 'otlp': {
      checkUrl(t.endpoint, `${at}endpoint`);
      check(
        t.protocol === http || t.protocol === 'grpc',
        `${at}protocol`,
        "must be 'http/protobuf' or 'grpc'",
      );
      if (t.headers !== undefined) checkHeaders(t.headers, t.protocol === 'grpc', `${at}headers`);
      const { endpoint, protocol, headers } = target as TraceTarget & { kind: 'otlp' };
      return { endpoint, protocol, headers: { ...headers } };
    }
    case 'basic-auth': {
      checkUrl(t.baseUrl, `${at}baseUrl`);
      checkNonEmpty(t.publicKey, `${at}publicKey`);
      check(!(t.publicKey as string).includes(':'), `${at}publicKey`, 'must not hold ":"');
      checkNonEmpty(t.secretKey, `${at}secretKey`);
      const { baseUrl, publicKey, secretKey } = target as TraceTarget & { kind: 'basic-auth' };
      return {
        endpoint: `${trim(baseUrl)}/api/public/otel/v1/traces`,
        protocol: http,
        headers: { Authorization: `Basic ${base64(`${publicKey}:${secretKey}`)}` },
      };
    }
    case 'api-key-header': {
      const { endpoint, header, apiKey, dataset } = target as TraceTarget & { kind: 'api-key-header' };
      checkUrl(endpoint, `${at}endpoint`);
      checkNonEmpty(apiKey, `${at}apiKey`);
      checkNonEmpty(header, `${at}header`);
      checkHeaders({ [header]: apiKey }, false, `${at}header`);
      if (dataset !== undefined) {
        check(dataset !== null && typeof dataset === 'object', `${at}dataset`, 'must be an object');
        checkNonEmpty(dataset.header, `${at}dataset.header`);
        check(dataset.header !== header, `${at}dataset.header`, 'must differ from header');
        checkHeaders({ [dataset.header]: dataset.value }, false, `${at}dataset`);
      }
      return {
        endpoint,
        protocol: http,
        headers: { [header]: apiKey, ...(dataset && { [dataset.header]: dataset.value }) },
      };
    }
    case 'trace-store':
    case 'collector': {
      checkHost(t.host, `${at}host`);
      const grpc = t.kind === 'trace-store' && t.transport === 'grpc';
      if (t.kind === 'trace-store')
        check(grpc || t.transport === 'http', `${at}transport`, "must be 'grpc' or 'http'");
      checkPort(t.port, `${at}port`);
      const url = origin(t.host as string, (t.port as number | undefined) ?? (grpc ? 4317 : 4318));
      return { endpoint: grpc ? url : `${url}/v1/traces`, protocol: grpc ? 'grpc' : http, headers: {} };
    }
    default:
      throw new TraceTargetError(`${at}kind`, 'unknown kind');
  }
}

/**
 * Rule 3: unset the bundled backend's variables and set the three `OTEL_EXPORTER_OTLP_TRACES_*`. Without
 * headers, `OTEL_EXPORTER_OTLP_TRACES_HEADERS` is unset too, so stale credentials cannot linger. The protocol
 * is always written (the platform's tracing SDK defaults to gRPC); gRPC is written `grpc`.
 */
export function traceRedirectEnv(target: TraceTarget): TraceRedirect {
  const { endpoint, protocol, headers } = targetSettings(target);
  const set: Record<string, string> = {
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: endpoint,
    OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: protocol,
  };
  const unset: string[] = [...BUNDLED_TRACING_VARS];
  const encoded = formatOtlpHeaders(headers);
  if (encoded) set.OTEL_EXPORTER_OTLP_TRACES_HEADERS = encoded;
  else unset.push('OTEL_EXPORTER_OTLP_TRACES_HEADERS');
  return { set, unset };
}
