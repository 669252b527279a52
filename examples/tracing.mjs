// Trace export: where the runtime's conversation traces go (spec 6.3), resolved from a pod environment, and
// what differs between OpenTelemetry's reading and the platform's tracing SDK.
//
//   node examples/tracing.mjs
//
// Environment: the trace variables of this process are resolved when any is set (OTEL_EXPORTER_OTLP_*,
// OTEL_ENDPOINT…, TRACING_BASE_URL, TRACING_PROJECT_API_KEY), e.g. copied from the runtime pod:
//   kubectl -n openhands exec deploy/runtime-api -- env | grep -E '^(OTEL_|TRACING_)' > trace.env
//   env $(cat trace.env) node examples/tracing.mjs
// Otherwise the simulated platform's runtime pod environment (started on loopback) is used.
import { resolveTraceExport } from 'agent-platform-sdk/tracing';
import { step } from './_platform.mjs';

const TRACE_VARIABLE = /^(OTEL_(EXPORTER_OTLP_|ENDPOINT$|PROTOCOL$|HEADERS$|TIMEOUT$|COMPRESSION$)|TRACING_)/;
const own = Object.keys(process.env).filter((name) => TRACE_VARIABLE.test(name) && process.env[name]);

let env = process.env;
let close = async () => {};
if (own.length > 0) {
  console.log(`Trace variables of this process: ${own.length}.`);
} else {
  const { startSimulator } = await import('agent-platform-sdk/testing');
  const sim = await startSimulator();
  ({ env } = sim.info.tracing);
  close = () => sim.close();
  console.log('No trace variables set: using the simulated runtime pod environment.');
}
try {
  step('Variables');
  // Their values can hold credentials (headers): print the names only.
  for (const name of Object.keys(env).filter((n) => TRACE_VARIABLE.test(n))) console.log(`  ${name}`);

  step('Resolved');
  const config = resolveTraceExport(env);
  console.log(`  destination ${config.destination}`);
  console.log(`  endpoint    ${config.endpoint ?? '-'}`);
  console.log(
    `  protocol    ${config.protocol}, timeout ${config.timeoutMs} ms, compression ${config.compression}`,
  );
  console.log(`  headers     ${Object.keys(config.headers).join(', ') || '-'}`);
  // JSON.stringify (and console.log) of the config hide the header values:
  console.log(`  as JSON     ${JSON.stringify(config)}`);
  for (const name of config.ignored) console.log(`  ignored: ${name}`);
  for (const warning of config.warnings) console.log(`  warning: ${warning}`);
} finally {
  await close();
}
