/**
 * rule 4: an OpenTelemetry Collector that keeps the bundled backend and adds others. Receiver otlp
 * on 4317 (gRPC) and 4318 (HTTP), processor batch (5s, 512), one `otlphttp` exporter per backend. The YAML
 * contains whatever header values it is given: prefer `${env:VAR}` references, which the Collector expands.
 */

import { toYaml, type YamlValue } from '../core/yaml.js';
import { TraceTargetError } from './errors.js';
import { checkUrl, settingsAt, type TargetSettings, type TraceTarget } from './redirect.js';

export interface CollectorExporter {
  /** Becomes `otlphttp/<name>`. */
  name: string;
  /** Full traces URL; a trailing `/v1/traces` is turned into the exporter's base `endpoint`. */
  tracesUrl: string;
  headers?: Record<string, string>;
}

export interface BundledBackend {
  /** The bundled backend's HTTP base with its port, e.g. `TRACING_BASE_URL` plus `:` `TRACING_HTTP_PORT`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <key>`, as the platform's tracing SDK does. */
  projectApiKey: string;
}

export interface CollectorConfigOptions {
  exporters: Array<CollectorExporter | { name: string; target: TraceTarget }>;
  /**
   * The bundled backend. Default: references to the Collector's own `TRACING_BASE_URL`, `TRACING_HTTP_PORT` and
   * `TRACING_PROJECT_API_KEY` variables (give it the runtime pod's values). `false` leaves it out.
   */
  bundled?: BundledBackend | false;
}

function exporter(url: string, headers: Record<string, string> = {}): YamlValue {
  const cut = url.replace(/\/v1\/traces\/?$/, '');
  return {
    ...(cut === url ? { traces_endpoint: url } : { endpoint: cut }),
    headers: Object.keys(headers).length ? headers : undefined, // toYaml leaves undefined out
  };
}

/**
 * The Collector configuration as YAML. Throws a `TraceTargetError` whose `field` is e.g. `exporters[1].name`
 * (a duplicate or invalid name) or `exporters[0].target.protocol` (a gRPC target: otlphttp needs HTTP).
 */
export function collectorConfig(options: CollectorConfigOptions): string {
  const exporters: Record<string, YamlValue> = {};
  const add = (name: unknown, value: YamlValue, field: string) => {
    if (typeof name !== 'string' || !/^[\w.-]+$/.test(name))
      throw new TraceTargetError(field, 'must be a non-empty string of A-Z a-z 0-9 _ . -');
    const id = `otlphttp/${name}`;
    if (id in exporters) throw new TraceTargetError(field, 'is a duplicate');
    exporters[id] = value;
  };
  const { baseUrl, projectApiKey } = options.bundled || {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a Collector env reference, not a template
    baseUrl: '${env:TRACING_BASE_URL}:${env:TRACING_HTTP_PORT}',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a Collector env reference, not a template
    projectApiKey: '${env:TRACING_PROJECT_API_KEY}',
  };
  if (options.bundled !== false)
    add('bundled', exporter(`${baseUrl}/v1/traces`, { Authorization: `Bearer ${projectApiKey}` }), 'bundled');
  if (!Array.isArray(options.exporters)) throw new TraceTargetError('exporters', 'must be an array');
  options.exporters.forEach((entry, index) => {
    const at = `exporters[${index}]`;
    if (entry === null || typeof entry !== 'object') throw new TraceTargetError(at, 'must be an object');
    // A plain exporter is validated as an HTTP `otlp` target; errors name the field inside the entry.
    let settings: TargetSettings;
    if ('target' in entry) settings = settingsAt(entry.target, `${at}.target.`);
    else {
      checkUrl(entry.tracesUrl, `${at}.tracesUrl`);
      const target = {
        kind: 'otlp',
        endpoint: entry.tracesUrl,
        protocol: 'http/protobuf',
        headers: entry.headers,
      };
      settings = settingsAt(target, `${at}.`);
    }
    if (settings.protocol === 'grpc')
      throw new TraceTargetError(`${at}.target.protocol`, 'otlphttp needs an HTTP target');
    add(entry.name, exporter(settings.endpoint, settings.headers), `${at}.name`);
  });
  return toYaml({
    receivers: {
      otlp: { protocols: { grpc: { endpoint: '0.0.0.0:4317' }, http: { endpoint: '0.0.0.0:4318' } } },
    },
    processors: { batch: { timeout: '5s', send_batch_size: 512 } },
    exporters,
    service: {
      pipelines: {
        traces: { receivers: ['otlp'], processors: ['batch'], exporters: Object.keys(exporters) },
      },
    },
  });
}
