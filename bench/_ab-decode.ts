// In-process A/B of two builds' `parseEvent` (lenient, from `agent-platform-sdk/models` as Node loads it) on the
// mix of bench/_corpus.ts, against JSON.parse alone on the same strings (docs/performance.md, "Decoding: the
// last 10 %"). Two figures, each B against A measured in the same run:
// - steady state: JSON.parse, A and B interleaved in short blocks (5 passes of the mix each, the order reversed
//   every round) after a warm-up, each block timed by the process's CPU time, which a preemption by another
//   process does not inflate as it does wall clock; medians of the per-round ratios, with their interquartile
//   range (on a machine others share, single blocks stray far);
// - first 1,000 events of a process: fresh processes (bench/_decode-cold-child.mjs) that load one decoder and
//   time their first pass over the mix, rotating; medians.
// Not run by `npm run bench` (a helper, like the other `_` files).
//   node bench/_ab-decode.ts --a <source> --b <source> [--rounds 61] [--cold-rounds 15]
// <source> is what BENCH_SOURCE takes: a commit, HEAD, or `worktree`.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const hooks = './_ts-sources.ts';
await import(hooks);
const { conversationMix, writeTextsFile } = await import('./_corpus.js');
const { median } = await import('./_stats.js');
const { argument } = await import('./_ab-builds.js');
type Models = typeof import('../src/models/index.js');

const texts = conversationMix().texts;
let sink = 0;

/** Nanoseconds of CPU time per event over `passes` passes of the mix. */
function cpuTime(decode: (text: string) => unknown, passes: number): number {
  const start = process.cpuUsage();
  for (let pass = 0; pass < passes; pass++)
    for (const text of texts) sink += ((decode(text) as { kind?: string }).kind ?? '').length;
  const used = process.cpuUsage(start);
  return ((used.user + used.system) * 1000) / (passes * texts.length);
}

const { abBuilds } = await import('./_ab-builds.js');
const { entryA, entryB } = await abBuilds(import.meta.url);
const models = { a: entryA.replace(/index\.js$/, 'models.js'), b: entryB.replace(/index\.js$/, 'models.js') };
const A = (await import(models.a)) as Models;
const B = (await import(models.b)) as Models;
const ROUNDS = Number(argument('rounds') ?? 61);
const COLD_ROUNDS = Number(argument('cold-rounds') ?? 15);

const child = fileURLToPath(new URL('./_decode-cold-child.mjs', import.meta.url));
const textsFile = writeTextsFile(texts);
const coldRuns = { json: [] as number[], a: [] as number[], b: [] as number[] };
const coldNames = ['json', 'a', 'b'] as const;
for (let round = 0; round < COLD_ROUNDS; round++) {
  for (let i = 0; i < coldNames.length; i++) {
    const name = coldNames[(i + round) % coldNames.length]!;
    const args = [child, textsFile, name === 'json' ? 'json' : models[name]];
    const out = execFileSync(process.execPath, args, { encoding: 'utf8' });
    coldRuns[name].push((JSON.parse(out) as { ns: number }).ns);
  }
}
rmSync(dirname(textsFile), { recursive: true });

const decoders = {
  json: (text: string) => JSON.parse(text),
  a: (text: string) => A.parseEvent(text),
  b: (text: string) => B.parseEvent(text),
};
const names = Object.keys(decoders) as (keyof typeof decoders)[];
for (let i = 0; i < 10; i++) for (const name of names) cpuTime(decoders[name], 10);
const samples = { json: [] as number[], a: [] as number[], b: [] as number[] };
for (let round = 0; round < ROUNDS; round++) {
  for (const name of round % 2 ? [...names].reverse() : names) samples[name].push(cpuTime(decoders[name], 5));
}
const quartiles = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  const at = (q: number) => sorted[Math.floor(q * (sorted.length - 1))]!.toFixed(2);
  return `${median(values).toFixed(3)}× (IQR ${at(0.25)}–${at(0.75)})`;
};
const over = (series: number[], base: number[]) => series.map((value, i) => value / base[i]!);
const µs = (ns: number) => `${(ns / 1000).toFixed(2)} µs`;
console.log(
  `A ${argument('a') ?? 'HEAD'}, B ${argument('b') ?? 'worktree'}; ${texts.length} events of the mix; load average ${(
    await import('node:os')
  )
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')}`,
);
console.log(
  `steady (${ROUNDS} rounds of 5 passes, CPU time): JSON.parse ${µs(median(samples.json))}, A ${µs(median(samples.a))}, B ${µs(median(samples.b))} per event`,
);
console.log(`  A / JSON.parse ${quartiles(over(samples.a, samples.json))}`);
console.log(`  B / JSON.parse ${quartiles(over(samples.b, samples.json))}`);
console.log(`  B's speed over A's ${quartiles(over(samples.a, samples.b))}`);
const coldJson = median(coldRuns.json);
console.log(
  `first ${texts.length} events (${COLD_ROUNDS} fresh processes each, wall clock, medians): JSON.parse ${µs(coldJson)}, A ${µs(median(coldRuns.a))} (${(median(coldRuns.a) / coldJson).toFixed(2)}×), B ${µs(median(coldRuns.b))} (${(median(coldRuns.b) / coldJson).toFixed(2)}×)`,
);
if (sink === 0) console.log('(no output)');
