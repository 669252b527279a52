// `npm run bench`: runs every benchmark under bench/ (each measures its own baseline in the same run) and prints
// one table of every figure they report. A benchmark reports on the lines that end its output, each
// `<name>: <figure>` or `<name>: <figure>; target <target>: ok|MISSED` (docs/performance.md).
//   node scripts/bench.mjs [name …]     only the benchmarks named (`decode`, `stream`, …)
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';

const dir = join(import.meta.dirname, '..', 'bench');
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => /\.(mjs|ts)$/.test(f) && !f.startsWith('_'))
  .filter((f) => only.length === 0 || only.includes(f.replace(/\.(mjs|ts)$/, '')))
  .sort();
const SUMMARY = /^(?<name>[a-z][\w ,]*): (?<figure>.+?)(?:; target (?<target>.+): (?<verdict>ok|MISSED))?$/i;

// One build of the package for every benchmark (bench/_build.ts: the committed sources unless BENCH_SOURCE).
// The resolve hook first: bench/_build.ts imports build/node-bundle.ts as `.js` (TypeScript's convention).
await import('../bench/_ts-sources.ts');
const { sdkDir, builtFrom } = await import('../bench/_build.ts');
await sdkDir();
const source = builtFrom();

const rows = [];
const started = performance.now();
for (const file of files) {
  console.log(`\n=== bench/${file}`);
  const t0 = performance.now();
  let output = '';
  let failed;
  try {
    output = execFileSync(process.execPath, [join(dir, file)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    output = String(error.stdout ?? '');
    failed = `FAILED (exit ${error.status})`;
  }
  process.stdout.write(output);
  const seconds = ((performance.now() - t0) / 1000).toFixed(0);
  // The summary is the block of `<name>: …` lines that ends the output.
  const lines = output.trimEnd().split('\n');
  const summary = [];
  for (let i = lines.length - 1; i >= 0; i--) {
    const match = SUMMARY.exec(lines[i]);
    if (!match) break;
    summary.unshift(match.groups);
  }
  if (summary.length === 0 || failed)
    rows.push({ bench: file, figure: failed ?? 'no summary line', target: '', result: 'FAILED', seconds });
  for (const { name, figure, target, verdict } of summary)
    rows.push({ bench: name, figure, target: target ?? '', result: verdict ?? '', seconds });
}

const total = ((performance.now() - started) / 1000).toFixed(0);
console.log(
  `\n=== summary (package: ${source}; node ${process.version}; ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}; load average ${loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')}; ${total} s)`,
);
console.log('| benchmark | figure | target | result | s |');
console.log('|---|---|---|---|---|');
for (const row of rows)
  console.log(`| ${row.bench} | ${row.figure} | ${row.target} | ${row.result} | ${row.seconds} |`);
const missed = rows.filter((row) => row.result === 'MISSED' || row.result === 'FAILED').length;
console.log(`\n${missed} of ${rows.filter((row) => row.result).length} targets missed or failed`);
