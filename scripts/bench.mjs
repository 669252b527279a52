// `npm run bench`: runs every benchmark under bench/ (each measures its own baseline in the same run) and
// prints one table of the ratios they report on their last `<name>: …` line.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const dir = join(import.meta.dirname, '..', 'bench');
const files = readdirSync(dir)
  .filter((f) => /\.(mjs|ts)$/.test(f) && !f.startsWith('_'))
  .sort();
const rows = [];
for (const file of files) {
  console.log(`\n=== bench/${file}`);
  let output = '';
  try {
    output = execFileSync(process.execPath, [join(dir, file)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
  } catch (error) {
    output = String(error.stdout ?? '');
    rows.push({ bench: file, result: `FAILED (exit ${error.status})` });
  }
  process.stdout.write(output);
  const summary = output
    .trim()
    .split('\n')
    .reverse()
    .find((line) => /^[\w-]+: /.test(line));
  if (summary && !rows.some((row) => row.bench === file)) rows.push({ bench: file, result: summary });
}
console.log('\n=== summary');
console.table(rows);
