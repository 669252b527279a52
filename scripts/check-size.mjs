// Size budget of `npm test`: bundles entry points of the built package for the browser with esbuild,
// minified, and checks their gzip size. Also checks that `./tracing` pulls in neither zod nor ky.
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const BUDGETS = [
  { name: 'EventsClient alone', code: "export { EventsClient } from './dist/index.js';", maxGzip: 45_000 },
  {
    name: './tracing subpath',
    code: "export * from './dist/tracing.js';",
    maxGzip: 6_000,
    forbid: ['zod', 'ky'],
  },
  { name: './models subpath', code: "export * from './dist/models.js';", maxGzip: 45_000, forbid: ['ky'] },
];

let failed = false;
for (const budget of BUDGETS) {
  const result = await build({
    stdin: { contents: budget.code, resolveDir: process.cwd(), loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    metafile: true,
    external: ['@opentelemetry/api'],
    logLevel: 'error',
  });
  const bytes = result.outputFiles[0].contents;
  const gzip = gzipSync(bytes, { level: 9 }).length;
  const inputs = Object.keys(result.metafile.inputs);
  const offending = (budget.forbid ?? []).filter((pkg) =>
    inputs.some((path) => path.includes(`node_modules/${pkg}/`)),
  );
  const ok = gzip <= budget.maxGzip && offending.length === 0;
  if (!ok || process.argv.includes('--explain')) explain(result.metafile);
  failed ||= !ok;
  console.log(
    `${ok ? '✔' : '✘'} ${budget.name}: ${(bytes.length / 1000).toFixed(1)} kB min, ${(gzip / 1000).toFixed(1)} kB gzip (budget ${budget.maxGzip / 1000} kB)` +
      (offending.length ? ` — must not include ${offending.join(', ')}` : ''),
  );
}
if (failed) {
  console.error('size budget exceeded');
  process.exit(1);
}

/** The biggest contributors to a bundle, by package (or by file for our own code). */
function explain(metafile) {
  const sizes = new Map();
  for (const [path, input] of Object.entries(Object.values(metafile.outputs)[0].inputs)) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)(\/.*)?/.exec(path);
    const key = match ? `${match[1]}${match[2]?.includes('/locales/') ? ' (locales)' : ''}` : path;
    sizes.set(key, (sizes.get(key) ?? 0) + input.bytesInOutput);
  }
  for (const [key, bytes] of [...sizes].sort((a, b) => b[1] - a[1]).slice(0, 12)) {
    console.log(`    ${(bytes / 1000).toFixed(1).padStart(7)} kB min  ${key}`);
  }
}
