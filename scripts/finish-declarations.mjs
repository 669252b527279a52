// Last step of `npm run build`, after tsup: finishes the declaration files of dist/.
// - Writes the .d.cts twin of every .d.ts (the declarations are the same for both formats; relative imports
//   point at the .d.cts twins).
// - Drops bare imports of packages (`import 'zod/mini';`) that tsup's declaration bundler leaves behind when
//   it removes every declaration that used them: they would make an app's type check load those packages.
// - Checks that the root entry's declarations name neither zod nor a chunk shared with `./models` (the reason
//   they are light: docs/performance.md, "Type-checking"), and that `./tracing`'s do not need the optional
//   peer `@opentelemetry/api`.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dist = join(import.meta.dirname, '..', 'dist');
const declarations = readdirSync(dist).filter((file) => file.endsWith('.d.ts'));
for (const file of declarations) {
  const text = readFileSync(join(dist, file), 'utf8').replace(/^import '[^.][^']*';\n/gm, '');
  writeFileSync(join(dist, file), text);
  const cjs = text.replace(/(from '\.\/[^']+)\.js'/g, "$1.cjs'");
  writeFileSync(join(dist, file.replace(/\.d\.ts$/, '.d.cts')), cjs);
}
const root = readFileSync(join(dist, 'index.d.ts'), 'utf8');
const imports = [...root.matchAll(/^import .* from '([^']+)';$/gm)].map((match) => match[1]);
const heavy = imports.filter((from) => from.startsWith('zod') || from.startsWith('.'));
if (heavy.length) {
  console.error(`dist/index.d.ts must not import ${heavy.join(', ')} (docs/performance.md, "Type-checking")`);
  process.exit(1);
}
// `./tracing` takes `@opentelemetry/api` as an argument: an app without that optional peer must type-check it.
const tracing = readFileSync(join(dist, 'tracing.d.ts'), 'utf8');
if (/^import .* from '@opentelemetry\//m.test(tracing)) {
  console.error('dist/tracing.d.ts must not import @opentelemetry/* (an optional peer dependency)');
  process.exit(1);
}
console.log(`declarations: ${declarations.length} .d.ts files and their .d.cts twins`);
