/**
 * Endpoint rules for OTLP traces. OpenTelemetry: a traces-specific URL is used as is; a generic base gets
 * `v1/traces` appended (after ensuring a trailing `/`) for HTTP. The platform's tracing SDK instead appends
 * `/v1/traces` only when the URL has no path, whatever variable it came from.
 */

/** The path of `url`, or undefined when `url` is not an absolute http(s) URL. */
export function urlPath(url: string): string | undefined {
  try {
    const { protocol, pathname } = new URL(url);
    return /^https?:$/.test(protocol) ? pathname : undefined;
  } catch {
    return undefined;
  }
}

/** OpenTelemetry: the traces URL for a generic base endpoint (`http://c:4318/x` → `http://c:4318/x/v1/traces`). */
export function appendTracesPath(base: string): string {
  return (base.endsWith('/') ? base : `${base}/`) + 'v1/traces';
}

/** The URL the platform's tracing SDK posts to over HTTP (`/v1/traces` only when there is no path). */
export function platformSdkHttpUrl(url: string): string {
  const path = urlPath(url);
  return path === '/' && !/[?#]/.test(url) ? appendTracesPath(url.replace(/\/$/, '')) : url;
}
