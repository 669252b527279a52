// A fresh process of the decode benchmarks (bench/decode.ts, bench/_ab-decode.ts): reads the texts of the mix
// from the parent's file without parsing any (bench/_corpus.ts, writeTextsFile), loads one decoder, then times
// its first pass over them and prints `{ ns, cpu }` per event (wall clock, and the main thread's CPU time).
//   node bench/_decode-cold-child.mjs <texts file> json
//   node bench/_decode-cold-child.mjs <texts file> <models entry of a build>   (its parseEvent, lenient)
// Plain JavaScript and nothing else loaded: the process has parsed no event and compiled no other code before
// its timed pass, as an app's process before its first events.
import { readFileSync } from 'node:fs';

const [file, decoder] = process.argv.slice(2);
const texts = readFileSync(file, 'utf8').split('\n');
const decode = decoder === 'json' ? (text) => JSON.parse(text) : (await import(decoder)).parseEvent;

let sink = 0;
const cpu = process.threadCpuUsage();
const start = process.hrtime.bigint();
for (const text of texts) sink += (decode(text).kind ?? '').length;
const ns = Number(process.hrtime.bigint() - start) / texts.length;
const used = process.threadCpuUsage(cpu);
process.stdout.write(
  `${JSON.stringify({ ns, cpu: ((used.user + used.system) * 1000) / texts.length, sink })}\n`,
);
