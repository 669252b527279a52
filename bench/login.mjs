// Benchmark of the admin login hash (issue 5): `computeAdminLoginHash` at 600,000 PBKDF2 iterations against
// `node:crypto.pbkdf2` in the same run, plus the pure-JS fallback (@noble/hashes pbkdf2Async).
// Target: WebCrypto path ≤ 1.2× node:crypto. Run: `node bench/login.mjs` (Node 22+). Options via env:
// BENCH_ROUNDS (default 7), BENCH_JS_ROUNDS (default 3), BENCH_ITERATIONS (default 600000).
import { pbkdf2 } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 600_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const JS_ROUNDS = Number(process.env.BENCH_JS_ROUNDS ?? 3);

// The TypeScript source, bundled on the fly: no build step needed, and it is exactly what ships.
const work = mkdtempSync(join(tmpdir(), 'bench-login-'));
const outfile = join(work, 'hash.mjs');
await build({
  entryPoints: [new URL('../src/runtime/compute-admin-login-hash.ts', import.meta.url).pathname],
  outfile,
  bundle: true,
  platform: 'neutral',
  format: 'esm',
  target: 'es2022',
  logLevel: 'silent',
});
const { computeAdminLoginHash } = await import(pathToFileURL(outfile).href);
rmSync(work, { recursive: true, force: true });

const pbkdf2Async = promisify(pbkdf2);
const password = 'correct horse battery staple';
const salt = '9f86d081884c7d659a2feaa0c55ad015';
const challenge = '3c1b2a4e5f60718293a4b5c6d7e8f901';

const contenders = {
  'node:crypto.pbkdf2': async () =>
    (
      await pbkdf2Async(Buffer.from(password), Buffer.from(salt + challenge), ITERATIONS, 32, 'sha256')
    ).toString('hex'),
  'computeAdminLoginHash (WebCrypto)': () => computeAdminLoginHash(password, salt, challenge, ITERATIONS),
  'computeAdminLoginHash (pure JS fallback)': () =>
    computeAdminLoginHash(password, salt, challenge, ITERATIONS, { engine: 'js' }),
};

async function time(fn) {
  const started = process.hrtime.bigint();
  const hash = await fn();
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, hash };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

// One warm-up each, then interleaved rounds so that machine noise hits every contender alike.
const samples = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));
const hashes = new Set();
for (const fn of Object.values(contenders)) hashes.add((await time(fn)).hash);
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, fn] of Object.entries(contenders)) {
    if (name.includes('pure JS') && round >= JS_ROUNDS) continue;
    const { ms, hash } = await time(fn);
    samples[name].push(ms);
    hashes.add(hash);
  }
}
if (hashes.size !== 1) throw new Error(`the implementations disagree: ${[...hashes].join(', ')}`);

const baseline = median(samples['node:crypto.pbkdf2']);
console.log(
  `PBKDF2-HMAC-SHA256, ${ITERATIONS.toLocaleString('en')} iterations, 32 bytes; Node ${process.version}`,
);
for (const [name, values] of Object.entries(samples)) {
  const ms = median(values);
  console.log(
    `  ${name.padEnd(42)} median ${ms.toFixed(1).padStart(8)} ms over ${values.length} runs  ${(ms / baseline).toFixed(2)}×`,
  );
}
const ratio = median(samples['computeAdminLoginHash (WebCrypto)']) / baseline;
const jsRatio = median(samples['computeAdminLoginHash (pure JS fallback)']) / baseline;
console.log(`pure-JS fallback: ${jsRatio.toFixed(2)}× node:crypto.pbkdf2`);
console.log(`target ≤ 1.20×: ${ratio <= 1.2 ? 'met' : 'MISSED'}`);
console.log(
  `login: ${ratio.toFixed(2)}× node:crypto.pbkdf2; target ≤ 1.2×: ${ratio <= 1.2 ? 'ok' : 'MISSED'}`,
);
