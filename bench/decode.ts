// Decode benchmark: events per second of `parseEvent` (lenient and strict) on the real sample events of
// test/fixtures/anchor-events, against `JSON.parse` alone on the same strings, in the same run.
// Targets: lenient <= 1.3x and strict <= 1.6x the time of JSON.parse alone.
//
// Run with Node 24 (strips TypeScript types; runs the sources directly, no build needed):
//   node bench/decode.ts [--rounds 21] [--passes 400] [--jitless]
// `--jitless` measures zod's runtime parser (what runs where code generation is not allowed, e.g. under a CSP).
// The last line, `decode: lenient <x>× strict <y>× JSON.parse`, is what `npm run bench` collects.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { fileURLToPath } from 'node:url';

// The sources import siblings as `./x.js` (TypeScript's NodeNext convention); map those to the `.ts` files.
registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier.startsWith('.') && specifier.endsWith('.js') && context.parentURL?.endsWith('.ts')) {
      const url = new URL(`${specifier.slice(0, -3)}.ts`, context.parentURL);
      if (existsSync(fileURLToPath(url))) return nextResolve(url.href, context);
    }
    return nextResolve(specifier, context);
  },
});

const JITLESS = process.argv.includes('--jitless');
if (JITLESS) (await import('zod/mini')).config({ jitless: true });
const { parseEvent, isUnknownEvent, enableCompiledParsers } = await import('../src/models/index.js');
// Compiled parsers, as the package's Node entry points enable them.
enableCompiledParsers((await import('zod/mini')).compile);

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : Number.NaN;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}
const ROUNDS = option('rounds', 21);
const PASSES = option('passes', 400);

const dir = fileURLToPath(new URL('../test/fixtures/anchor-events/', import.meta.url));
const corpus = readdirSync(dir)
  .filter((file) => file.endsWith('.json'))
  .sort()
  .map((file) => readFileSync(`${dir}${file}`, 'utf8'));
const bytes = corpus.reduce((sum, text) => sum + text.length, 0);

// Every sample must decode to a known event in both modes, or the timing means nothing.
for (const text of corpus) {
  for (const mode of ['lenient', 'strict'] as const) {
    if (isUnknownEvent(parseEvent(text, { mode })))
      throw new Error(`sample decoded as unknown in ${mode} mode`);
  }
}

type Decoder = (text: string) => unknown;
const decoders: Record<'json' | 'lenient' | 'strict', Decoder> = {
  json: (text) => JSON.parse(text),
  lenient: (text) => parseEvent(text),
  strict: (text) => parseEvent(text, { mode: 'strict' }),
};

let sink = 0;
/** Nanoseconds per event over `passes` passes of `texts`. */
function time(decode: Decoder, passes: number, texts: string[] = corpus): number {
  const start = process.hrtime.bigint();
  for (let pass = 0; pass < passes; pass++) {
    for (const text of texts) {
      const value = decode(text) as { kind?: string };
      sink += value.kind?.length ?? 0;
    }
  }
  return Number(process.hrtime.bigint() - start) / (passes * texts.length);
}

// Warm up every path (JIT, zod's compiled parsers).
for (let i = 0; i < 5; i++) for (const decode of Object.values(decoders)) time(decode, PASSES);

// Rounds alternate the order of the three decoders; each round yields one ratio per mode, the median is reported.
const orders: (keyof typeof decoders)[][] = [
  ['json', 'lenient', 'strict'],
  ['strict', 'json', 'lenient'],
  ['lenient', 'strict', 'json'],
];
function measure(texts: string[], passes: number) {
  const samples = { json: [] as number[], lenient: [] as number[], strict: [] as number[] };
  const ratios = { lenient: [] as number[], strict: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    const t: Record<string, number> = {};
    for (const name of orders[round % orders.length] ?? []) t[name] = time(decoders[name], passes, texts);
    const json = t.json ?? Number.NaN;
    samples.json.push(json);
    samples.lenient.push(t.lenient ?? Number.NaN);
    samples.strict.push(t.strict ?? Number.NaN);
    ratios.lenient.push((t.lenient ?? Number.NaN) / json);
    ratios.strict.push((t.strict ?? Number.NaN) / json);
  }
  return { samples, ratios };
}
const { samples, ratios } = measure(corpus, PASSES);
// For information: the corpus time is dominated by the two large SystemPromptEvents; small events alone.
const small = corpus.filter((text) => text.length < 4096);
const smallRatios = measure(small, PASSES * 2).ratios;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}
const perSecond = (ns: number) => Math.round(1e9 / ns).toLocaleString('en-US');
const fixed = (n: number) => n.toFixed(2);

console.log(
  `node ${process.version}${JITLESS ? ' (jitless: zod runtime parser)' : ''}; corpus: ${corpus.length} real events, ${bytes} characters`,
);
console.log(`${ROUNDS} rounds x ${PASSES} passes; medians:`);
for (const name of ['json', 'lenient', 'strict'] as const) {
  const ns = median(samples[name]);
  const label = name === 'json' ? 'JSON.parse alone' : `parseEvent ${name}`;
  console.log(
    `  ${label.padEnd(20)} ${perSecond(ns).padStart(12)} events/s  ${(ns / 1000).toFixed(3)} µs/event`,
  );
}
const lenient = median(ratios.lenient);
const strict = median(ratios.strict);
console.log(
  `  lenient / JSON.parse: ${fixed(lenient)}× (target <= 1.3×) ${lenient <= 1.3 ? 'ok' : 'MISSED'}`,
);
console.log(`  strict  / JSON.parse: ${fixed(strict)}× (target <= 1.6×) ${strict <= 1.6 ? 'ok' : 'MISSED'}`);
console.log(
  `  small events only (${small.length} under 4 KB): lenient ${fixed(median(smallRatios.lenient))}×, strict ${fixed(median(smallRatios.strict))}× (information, no target)`,
);
if (sink === 0) console.log('(no output)');
console.log(`decode: lenient ${fixed(lenient)}× strict ${fixed(strict)}× JSON.parse`);
