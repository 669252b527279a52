// Differential test: for every environment case, the real tracing SDK (lmnr, each version of the matrix) is
// initialised in a fresh Python process the way the agent server does it, sends one span to loopback
// receivers, and what it really did is compared with `resolveTraceExport` (docs/tracing.md).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveTraceExport } from '../../src/tracing.js';
import { requirePeer, versionsUnderTest } from '../peers/peers.js';
import { TRACE_CASES, type TraceCase } from './tracing/cases.js';
import { type ProbeResult, probe } from './tracing/probe.js';
import { type Capture, type Receivers, startReceivers } from './tracing/receivers.js';

/** The vendor's hosted backend: a real name, kept out of the SDK (the SDK takes it as `cloudUrl`). */
const CLOUD = 'https://api.lmnr.ai';
const GRPC_EXPORT = '/opentelemetry.proto.collector.trace.v1.TraceService/Export';

/**
 * Known differences of the newest version from the one the agent server pins (which `resolveTraceExport`
 * models), listed in docs/compatibility.md: 0.8 passes a 30 s export timeout itself (the OTLP timeout variables
 * no longer count), so an empty timeout variable no longer stops it from starting.
 */
const drift = (version: string, expected: Observed): Observed =>
  version.startsWith('0.8.') && expected.enabled ? { ...expected, timeoutS: 30 } : expected;
const DEVIATIONS: Record<string, Record<string, string>> = {
  '0.8.2': { 'empty traces timeout': '0.8 ignores the timeout variables, so an empty one does not stop it' },
};

interface Observed {
  enabled: boolean;
  transport?: 'http' | 'grpc';
  target?: string;
  tls?: boolean;
  headers?: Record<string, string>;
  timeoutS?: number;
}

const fill = (text: string, r: Receivers) =>
  text.replaceAll('{{HTTP}}', String(r.httpPort)).replaceAll('{{GRPC}}', String(r.grpcPort));
const toReal = (name: string) => name.replace(/^TRACING_/, 'LMNR_');
const parseDotenv = (text: string) =>
  Object.fromEntries(
    text
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );

function fromSdk(testCase: TraceCase, r: Receivers) {
  const env = Object.fromEntries(Object.entries(testCase.env).map(([k, v]) => [k, fill(v, r)]));
  const dotenv = testCase.dotenv === undefined ? undefined : parseDotenv(fill(testCase.dotenv, r));
  const config = resolveTraceExport(env, { dotenv, cloudUrl: CLOUD });
  const http = config.protocol !== 'grpc';
  const observed: Observed =
    config.destination === 'disabled'
      ? { enabled: false }
      : {
          enabled: true,
          transport: http ? 'http' : 'grpc',
          target: http ? config.endpoint : config.grpcTarget,
          tls: config.tls,
          headers: { ...config.headers },
          timeoutS: config.timeoutMs / 1000,
        };
  return { config, observed };
}

function fromReal(result: ProbeResult): Observed {
  if (!result.enabled || result.error) return { enabled: false };
  return {
    enabled: true,
    transport: result.transport,
    target: result.endpoint,
    tls: result.tls,
    headers: result.headers,
    timeoutS: result.timeout,
  };
}

const lower = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));

for (const { version } of versionsUnderTest('tracing')) {
  const venv = requirePeer('tracing', version);
  describe.skipIf(!venv)(`real tracing SDK ${version}`, () => {
    const python = join(venv ?? '', 'bin/python');
    const results = new Map<
      string,
      { real: ProbeResult; captures: Capture[]; ports: number[]; sdk: ReturnType<typeof fromSdk> }
    >();

    beforeAll(async () => {
      // Two cases at a time (two cores); each case gets its own receivers and a fresh Python process.
      const queue = [...TRACE_CASES];
      const worker = async () => {
        for (let testCase = queue.shift(); testCase; testCase = queue.shift()) {
          const receivers = await startReceivers();
          try {
            const env = Object.fromEntries(
              Object.entries(testCase.env).map(([k, v]) => [toReal(k), fill(v, receivers)]),
            );
            const dotenv =
              testCase.dotenv && fill(testCase.dotenv, receivers).replaceAll('TRACING_', 'LMNR_');
            const real = await probe(python, env, dotenv);
            await new Promise((resolve) => setTimeout(resolve, 150));
            results.set(testCase.name, {
              real,
              captures: [...receivers.captures],
              ports: [receivers.httpPort, receivers.grpcPort],
              sdk: fromSdk(testCase, receivers),
            });
          } finally {
            await receivers.close();
          }
        }
      };
      await Promise.all([worker(), worker()]);
    }, 600_000);

    afterAll(() => results.clear());

    it('covers at least 40 environment cases', () => {
      expect(TRACE_CASES.length).toBeGreaterThanOrEqual(40);
      expect(results.size).toBe(TRACE_CASES.length);
    });

    for (const testCase of TRACE_CASES) {
      it(testCase.name, () => {
        const result = results.get(testCase.name);
        if (!result) throw new Error('case did not run');
        const { real, captures, ports, sdk } = result;
        const deviation = DEVIATIONS[version]?.[testCase.name];
        if (deviation) {
          expect(fromReal(real), deviation).not.toEqual(sdk.observed);
          return;
        }
        expect(fromReal(real)).toEqual(drift(version, sdk.observed));
        const { config } = sdk;
        if (config.destination === 'disabled') {
          expect(captures).toEqual([]);
          return;
        }
        expect(config.compression).toBe('gzip');
        // Only destinations on our receivers are checked on the wire (other loopback ports may be anyone's).
        const target = (config.protocol === 'grpc' ? config.grpcTarget : config.endpoint) ?? '';
        const port = /^\s*(https?:\/\/)?127\.0\.0\.1:(\d+)([/?\s]|$)/.exec(target)?.[2];
        if (!port || !ports.includes(Number(port))) return;
        if (config.warnings.some((w) => w.includes('export fails'))) {
          expect(captures).toEqual([]);
          return;
        }
        if (config.protocol === 'grpc' && config.tls) {
          // A TLS ClientHello on the plaintext receiver: the client really opened TLS.
          expect(captures.length).toBeGreaterThan(0);
          expect(captures.every((c) => c.tls)).toBe(true);
          return;
        }
        if (config.tls) {
          expect(captures).toEqual([]);
          return;
        }
        const spans = captures.filter((c) => !c.path?.includes('logs') && !c.path?.includes('Logs'));
        expect(spans.length).toBeGreaterThan(0);
        const wire = spans[0] as Capture;
        const expectedHeaders = lower(config.headers);
        if (config.protocol === 'grpc') {
          expect(wire).toMatchObject({ transport: 'grpc', tls: false, path: GRPC_EXPORT, encoding: 'gzip' });
          expect(wire.compressedFrame).toBe(true);
        } else {
          const url = new URL(config.endpoint as string);
          expect(wire).toMatchObject({
            transport: 'http',
            path: url.pathname + url.search,
            encoding: 'gzip',
          });
          expect(wire.headers?.['content-type']).toBe('application/x-protobuf');
        }
        for (const [name, value] of Object.entries(expectedHeaders))
          expect(wire.headers?.[name]?.trim(), name).toBe(value.trim());
      });
    }
  });
}
