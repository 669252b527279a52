// Import benchmark: how long `import` of the package's Node entry takes in a fresh process (the ESM build of
// bench/_build.ts, `dist/esm/index.node.js` as tsup writes it), against `openai` and `ky` (an HTTP client the
// package itself uses), each in fresh processes (bench/_import-child.mjs), rounds rotating the order, medians.
// Target: <= 1.0x openai.
//
// Run with Node 24:
//   node bench/import.ts [--rounds 9]
// The last line, `import: <ratio>× openai; target ≤ 1.0×: ok|MISSED`, is what `npm run bench` collects.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const hooks = './_ts-sources.ts';
await import(hooks);
const { median, option, spread } = await import('./_stats.js');
const { nodeEntry } = await import('./_build.js');

const ROUNDS = option('rounds', 9);
const child = fileURLToPath(new URL('./_import-child.mjs', import.meta.url));
const version = (name: string) =>
  (
    JSON.parse(readFileSync(new URL(`../node_modules/${name}/package.json`, import.meta.url), 'utf8')) as {
      version: string;
    }
  ).version;

// The child resolves the bare specifiers from the repository's node_modules, as an app with them installed would.
const targets = {
  sdk: await nodeEntry(),
  openai: 'openai',
  ky: 'ky',
};
type Name = keyof typeof targets;
const names = Object.keys(targets) as Name[];

function importTime(name: Name): number {
  const out = execFileSync(process.execPath, [child, targets[name]], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return (JSON.parse(out) as { ms: number }).ms;
}

for (const name of names) importTime(name); // the file system cache, as for every later round
const times = { sdk: [] as number[], openai: [] as number[], ky: [] as number[] };
for (let round = 0; round < ROUNDS; round++) {
  for (let i = 0; i < names.length; i++) {
    const name = names[(round + i) % names.length]!;
    times[name].push(importTime(name));
  }
}

const ratio = median(times.sdk) / median(times.openai);
const labels: Record<Name, string> = {
  sdk: 'agent-platform-sdk (Node entry)',
  openai: `openai ${version('openai')}`,
  ky: `ky ${version('ky')}`,
};
console.log(
  `node ${process.version}; import time in a fresh process, ${ROUNDS} processes each; median (min–max):`,
);
for (const name of names)
  console.log(
    `  ${labels[name].padEnd(32)} ${median(times[name]).toFixed(1).padStart(6)} ms (${spread(times[name])})`,
  );
console.log(
  `  agent-platform-sdk / openai: ${ratio.toFixed(2)}× (target <= 1.0×) ${ratio <= 1 ? 'ok' : 'MISSED'}`,
);
console.log(
  `  agent-platform-sdk / ky:     ${(median(times.sdk) / median(times.ky)).toFixed(2)}× (information)`,
);
console.log(`import: ${ratio.toFixed(2)}× openai; target ≤ 1.0×: ${ratio <= 1 ? 'ok' : 'MISSED'}`);
