/**
 * Spec 6.3 rules 3 and 4: the environment changes that send the runtime pod's traces to another OTLP backend.
 * The returned `set` holds credentials in clear (that is its purpose).
 */
import { formatOtlpHeaders } from './headers.js';
import type { OtlpProtocol } from './resolve-export.js';

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
  | { kind: 'collector'; host: string; port?: number };

export interface TargetSettings {
  endpoint: string;
  protocol: OtlpProtocol;
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
] as const;

const trim = (url: string) => url.replace(/\/+$/, '');
const origin = (host: string, port: number) =>
  `${/^\w+:\/\//.test(host) ? trim(host) : `http://${host}`}:${port}`;

function base64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Endpoint, protocol and decoded headers of a target. */
export function targetSettings(target: TraceTarget): TargetSettings {
  const http = 'http/protobuf';
  switch (target.kind) {
    case 'basic-auth': {
      return {
        endpoint: `${trim(target.baseUrl)}/api/public/otel/v1/traces`,
        protocol: http,
        headers: { Authorization: `Basic ${base64(`${target.publicKey}:${target.secretKey}`)}` },
      };
    }
    case 'api-key-header': {
      const { header, apiKey, dataset } = target;
      const headers = { [header]: apiKey, ...(dataset && { [dataset.header]: dataset.value }) };
      return { endpoint: target.endpoint, protocol: http, headers };
    }
    default: {
      const grpc = target.kind === 'trace-store' && target.transport === 'grpc';
      const url = origin(target.host, target.port ?? (grpc ? 4317 : 4318));
      return { endpoint: grpc ? url : `${url}/v1/traces`, protocol: grpc ? 'grpc' : http, headers: {} };
    }
  }
}

/**
 * Rule 3: unset the bundled backend's variables and set the three `OTEL_EXPORTER_OTLP_TRACES_*`. Without
 * headers, `OTEL_EXPORTER_OTLP_TRACES_HEADERS` is unset too, so stale credentials cannot linger. gRPC is
 * written `grpc` (the OpenTelemetry value, which the platform's SDK also reads as gRPC).
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
