// Runs the real tracing SDK's initialisation for one environment, in a fresh Python process, the way the agent
// server starts it (docs/tracing.md "How the runtime pod decides"): tracing is on only when the project key or
// an OTLP endpoint variable is set; with a key, the base URL and both ports are passed explicitly; without one,
// the SDK is initialised with no arguments. The probe then reports the exporter it built and flushes one span.
// Python here is test infrastructure only: it drives the real component, the assertions are in TypeScript.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SCRIPT = String.raw`
import gc, json, os, sys, threading
from dotenv import dotenv_values

local = dotenv_values(os.path.join(os.getcwd(), ".env")) if os.path.exists(".env") else {}
def get_env(k):
    return os.getenv(k) or local.get(k)
def get_int(k):
    v = get_env(k)
    if v is None or v == "":
        return None
    try:
        return int(v)
    except ValueError:
        return None

out = {"enabled": False}
def done(code=0):
    sys.stdout.write("PROBE " + json.dumps(out) + "\n")
    sys.stdout.flush()

keys = ("LMNR_PROJECT_API_KEY", "OTEL_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT")
if not any(get_env(k) for k in keys):
    done(); os._exit(0)

from lmnr import Laminar
force_http = (get_env("LMNR_FORCE_HTTP") or "").lower() in ("true", "1", "yes", "on")
try:
    if get_env("LMNR_PROJECT_API_KEY"):
        Laminar.initialize(base_url=get_env("LMNR_BASE_URL") or None, http_port=get_int("LMNR_HTTP_PORT"),
                           grpc_port=get_int("LMNR_GRPC_PORT"), force_http=force_http, instruments=set())
    else:
        Laminar.initialize(force_http=force_http, instruments=set())
except Exception as e:
    out["error"] = type(e).__name__ + ": " + str(e).splitlines()[0]
    done(); os._exit(0)

out["enabled"] = True
outer = [o for o in gc.get_objects() if type(o).__name__ == "LaminarSpanExporter"]
if outer:
    exp = outer[-1]
    inner = exp.instance
    headers = getattr(inner, "_headers", None) or exp.headers
    headers = dict(headers) if headers else {}
    grpc_inner = type(inner).__module__.startswith("opentelemetry.exporter.otlp.proto.grpc")
    comp = getattr(inner, "_compression", None)
    out.update({
        "transport": "grpc" if grpc_inner else "http",
        "endpoint": getattr(inner, "_endpoint", None) or exp.endpoint,
        "headers": {str(k): str(v) for k, v in headers.items()},
        "timeout": getattr(inner, "_timeout", None) or exp.timeout,
        "compression": getattr(comp, "value", str(comp)) if comp is not None else None,
        "tls": getattr(inner, "_credentials", None) is not None if grpc_inner else str(getattr(inner, "_endpoint", "")).startswith("https:"),
    })
done()
if "127.0.0.1" in out.get("endpoint", ""):
    def emit():
        with Laminar.start_as_current_span("probe"):
            pass
        Laminar.flush()
    t = threading.Thread(target=emit, daemon=True)
    t.start()
    t.join(4)
os._exit(0)
`;

export interface ProbeResult {
  enabled: boolean;
  error?: string;
  transport?: 'http' | 'grpc';
  endpoint?: string;
  headers?: Record<string, string>;
  timeout?: number;
  compression?: string | null;
  tls?: boolean;
}

/** Runs the probe with exactly `env` (plus PATH/HOME) in an empty working directory, optionally with a `.env`. */
export function probe(python: string, env: Record<string, string>, dotenv?: string): Promise<ProbeResult> {
  const cwd = mkdtempSync(join(tmpdir(), 'trace-probe-'));
  if (dotenv !== undefined) writeFileSync(join(cwd, '.env'), dotenv);
  const script = join(cwd, '..', `${cwd.split('/').pop()}-probe.py`);
  writeFileSync(script, SCRIPT);
  return new Promise((resolve, reject) => {
    const child = spawn(python, [script], {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: cwd, NO_PROXY: '*', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('close', () => {
      clearTimeout(timer);
      rmSync(cwd, { recursive: true, force: true });
      rmSync(script, { force: true });
      const line = stdout.split('\n').find((l) => l.startsWith('PROBE '));
      if (!line) reject(new Error(`probe produced no result: ${stderr.slice(-2000)}`));
      else resolve(JSON.parse(line.slice(6)) as ProbeResult);
    });
  });
}
