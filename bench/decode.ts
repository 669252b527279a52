// Decode benchmark: `parseEvent` (lenient, the default, and strict) against `JSON.parse` alone on the same
// strings, on the 1,000-event conversation mix of bench/_corpus.ts (real recorded frames, every version).
// Two figures, each against its own baseline measured in the same run:
// - steady state: rounds of passes over the mix after a warm-up, in rotating order; median of per-round ratios;
// - first 1,000 events of a fresh process: child processes (bench/_decode-cold-child.mjs) that load the
//   decoder, then time their first pass over the mix; lenient and JSON.parse children alternate, medians.
// Targets: lenient <= 1.2x JSON.parse steady, <= 1.5x for the first 1,000 events.
//
// The package is the committed sources transpiled as tsup does (bench/_build.ts; BENCH_SOURCE to pick another).
// Run with Node 24:
//   node bench/decode.ts [--rounds 15] [--passes 40] [--cold-rounds 21]
// The last lines, `decode steady: <ratio>× JSON.parse …; target ≤ 1.2×: ok|MISSED` and the others, are what
// `npm run bench` collects.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

// The resolve hook for the TypeScript sources, first (a variable: tsc rejects `.ts` specifiers).
const hooks = './_ts-sources.ts';
await import(hooks);
const { conversationMix, writeTextsFile } = await import('./_corpus.js');
const { median, option, spread } = await import('./_stats.js');

type Name = 'json' | 'lenient' | 'strict';
const mix = conversationMix();
const corpus = mix.texts;

type Models = typeof import('../src/models/index.js');
const { nodeDir, builtFrom } = await import('./_build.js');
const sdk = await nodeDir();

// Loads the decoders as an app on Node gets them: `agent-platform-sdk/models`, its Node entry.
async function decoders(): Promise<Record<Name, (text: string) => unknown>> {
  const models = (await import(`${sdk}/models.js`)) as Models;
  return {
    json: (text) => JSON.parse(text),
    lenient: (text) => models.parseEvent(text),
    strict: (text) => models.parseEvent(text, { mode: 'strict' }),
  };
}

let sink = 0;
/** Nanoseconds per event over `passes` passes of the mix. */
function time(decode: (text: string) => unknown, passes: number): number {
  const start = process.hrtime.bigint();
  for (let pass = 0; pass < passes; pass++) {
    for (const text of corpus) sink += ((decode(text) as { kind?: string }).kind ?? '').length;
  }
  return Number(process.hrtime.bigint() - start) / (passes * corpus.length);
}

const ROUNDS = option('rounds', 15);
const PASSES = option('passes', 40);
const COLD_ROUNDS = option('cold-rounds', 21);
const all = await decoders();

// Every event of the mix must decode to a known event in both modes, or the timing means nothing.
const { isUnknownEvent, parseEvent } = (await import(`${sdk}/models.js`)) as Models;
for (const text of corpus) {
  for (const mode of ['lenient', 'strict'] as const) {
    if (isUnknownEvent(parseEvent(text, { mode })))
      throw new Error(`a ${JSON.parse(text).kind} decoded as unknown in ${mode} mode`);
  }
}

// First 1,000 events of fresh processes, before the steady state (so the machine state is comparable).
const child = fileURLToPath(new URL('./_decode-cold-child.mjs', import.meta.url));
const textsFile = writeTextsFile(corpus);
const coldRuns = { json: [] as number[], lenient: [] as number[] };
const coldCpu = { json: [] as number[], lenient: [] as number[] };
for (let round = 0; round < COLD_ROUNDS; round++) {
  for (const name of round % 2 ? (['lenient', 'json'] as const) : (['json', 'lenient'] as const)) {
    const args = [child, textsFile, name === 'json' ? 'json' : `${sdk}/models.js`];
    const out = execFileSync(process.execPath, args, { encoding: 'utf8' });
    const run = JSON.parse(out) as { ns: number; cpu: number };
    coldRuns[name].push(run.ns);
    coldCpu[name].push(run.cpu);
  }
}
rmSync(dirname(textsFile), { recursive: true });

// Steady state: warm every path (JIT, the validators), then rounds in rotating order.
for (let i = 0; i < 5; i++) for (const decode of Object.values(all)) time(decode, PASSES);
const orders: Name[][] = [
  ['json', 'lenient', 'strict'],
  ['strict', 'json', 'lenient'],
  ['lenient', 'strict', 'json'],
];
const samples = { json: [] as number[], lenient: [] as number[], strict: [] as number[] };
const ratios = { lenient: [] as number[], strict: [] as number[] };
for (let round = 0; round < ROUNDS; round++) {
  const t = {} as Record<Name, number>;
  for (const name of orders[round % orders.length]!) t[name] = time(all[name], PASSES);
  for (const name of ['json', 'lenient', 'strict'] as const) samples[name].push(t[name]);
  ratios.lenient.push(t.lenient / t.json);
  ratios.strict.push(t.strict / t.json);
}

const perSecond = (ns: number) => Math.round(1e9 / ns).toLocaleString('en-US');
const fixed = (n: number) => n.toFixed(2);
const steady = median(ratios.lenient);
const strict = median(ratios.strict);
const coldRatio = median(coldRuns.lenient) / median(coldRuns.json);
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const coldCpuRatio = mean(coldCpu.lenient) / mean(coldCpu.json);

console.log(
  `node ${process.version}; package: ${builtFrom()}; corpus: ${corpus.length} events, ${mix.characters.toLocaleString('en-US')} characters, drawn from ${mix.recorded} recorded frames (bench/_corpus.ts):`,
);
console.log(
  `  ${[...mix.composition].map(([category, count]) => `${category.replace('ConversationStateUpdateEvent', 'StateUpdate')} ${count}`).join(', ')}`,
);
console.log(`steady state: ${ROUNDS} rounds x ${PASSES} passes after warm-up; medians (min–max):`);
for (const name of ['json', 'lenient', 'strict'] as const) {
  const label = name === 'json' ? 'JSON.parse alone' : `parseEvent ${name}`;
  const ns = median(samples[name]);
  console.log(
    `  ${label.padEnd(20)} ${perSecond(ns).padStart(10)} events/s  ${(ns / 1000).toFixed(2)} µs/event`,
  );
}
console.log(
  `  lenient / JSON.parse: ${fixed(steady)}× (${spread(ratios.lenient)}; target <= 1.2×) ${steady <= 1.2 ? 'ok' : 'MISSED'}`,
);
console.log(`  strict  / JSON.parse: ${fixed(strict)}× (${spread(ratios.strict)}; information)`);
console.log(
  `first ${corpus.length} events of a fresh process (${COLD_ROUNDS} processes each; median, min–max):`,
);
for (const name of ['json', 'lenient'] as const) {
  const label = name === 'json' ? 'JSON.parse alone' : 'parseEvent lenient';
  console.log(
    `  ${label.padEnd(20)} ${(median(coldRuns[name]) / 1000).toFixed(2)} µs/event (${spread(coldRuns[name].map((ns) => ns / 1000))})`,
  );
}
console.log(
  `  lenient / JSON.parse: ${fixed(coldRatio)}× (target <= 1.5×) ${coldRatio <= 1.5 ? 'ok' : 'MISSED'}`,
);
console.log(
  `  main-thread CPU time, means: JSON.parse ${(mean(coldCpu.json) / 1000).toFixed(2)}, parseEvent lenient ${(mean(coldCpu.lenient) / 1000).toFixed(2)} µs/event: ${fixed(coldCpuRatio)}× (information; steadier than wall clock when others share the machine)`,
);
if (sink === 0) console.log('(no output)');
// The summary lines `npm run bench` collects: `<name>: <figure>; target <target>: ok|MISSED`.
console.log(
  `decode steady: ${fixed(steady)}× JSON.parse (lenient); target ≤ 1.2×: ${steady <= 1.2 ? 'ok' : 'MISSED'}`,
);
console.log(`decode strict steady: ${fixed(strict)}× JSON.parse`);
console.log(
  `decode first 1,000: ${fixed(coldRatio)}× JSON.parse (lenient, fresh processes; main-thread CPU ${fixed(coldCpuRatio)}×); target ≤ 1.5×: ${coldRatio <= 1.5 ? 'ok' : 'MISSED'}`,
);
