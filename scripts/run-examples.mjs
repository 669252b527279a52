// Runs every example (examples/*.mjs, except the `_` helpers) as a child process against the simulator, as CI
// does after the build (the examples import agent-platform-sdk, which resolves to dist/). Fails on a non-zero
// exit or a timeout. `--verbose` prints each example's output; a failing example's output is always printed.
//
// Three passes: with no platform variables (each example starts a simulator itself); then with the variables
// of a simulator started here, as for a real platform, first with EXAMPLES_WRITE=1, then read-only.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startSimulator } from 'agent-platform-sdk/testing';

const TIMEOUT_MS = 30_000;
const dir = fileURLToPath(new URL('../examples/', import.meta.url));
const verbose = process.argv.includes('--verbose');
const examples = readdirSync(dir)
  .filter((name) => name.endsWith('.mjs') && !name.startsWith('_'))
  .sort();

// A minimal environment: no platform variables (AGENT_SERVER_URL, API_KEY, OTEL_…) that would send an
// example to a real platform instead of the simulator.
const baseEnv = Object.fromEntries(
  ['PATH', 'HOME', 'TMPDIR', 'SystemRoot']
    .filter((name) => process.env[name])
    .map((name) => [name, process.env[name]]),
);

function run(name, env) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [`${dir}${name}`], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, TIMEOUT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const seconds = (performance.now() - started) / 1000;
      resolve({ name, code, signal, timedOut, seconds, output });
    });
  });
}

if (examples.length === 0) {
  console.error('no examples found');
  process.exit(1);
}

const sim = await startSimulator();
const platformEnv = { ...baseEnv, ...sim.env, ...sim.info.tracing.env };
const passes = [
  { label: 'no platform variables: each example starts the simulator', env: baseEnv },
  {
    label: 'platform variables of a running simulator, EXAMPLES_WRITE=1',
    env: { ...platformEnv, EXAMPLES_WRITE: '1' },
  },
  { label: 'platform variables of a running simulator, read-only', env: platformEnv },
];
let failed = 0;
let runs = 0;
try {
  for (const pass of passes) {
    console.log(`\n${pass.label}`);
    for (const name of examples) {
      const result = await run(name, pass.env);
      runs += 1;
      const ok = result.code === 0 && !result.timedOut;
      if (!ok) failed += 1;
      const why = result.timedOut
        ? ` — timed out after ${TIMEOUT_MS / 1000} s`
        : ok
          ? ''
          : ` — exit ${result.code ?? result.signal}`;
      console.log(`${ok ? '✔' : '✘'} examples/${name} (${result.seconds.toFixed(1)} s)${why}`);
      if (!ok || verbose) console.log(result.output.replace(/^/gm, '    '));
    }
  }
} finally {
  await sim.close();
}
if (failed > 0) {
  console.error(`${failed} of ${runs} example runs failed`);
  process.exit(1);
}
console.log(`\nall ${examples.length} examples ran against the simulator, ${runs} runs`);
