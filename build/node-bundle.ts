// The package's Node entries (package.json `node` condition) as one ESM bundle with shared chunks, dist/node/.
// Loading 240 small modules (ours, zod's and @noble/hashes') cost Node more than running them: a bundle
// imports in less than half the time (docs/performance.md, "Import"). zod, eventemitter3 and @noble/hashes
// are inlined; ky stays a dependency loaded on the first request, the optional peers stay external. The
// entries share their chunks, so an app importing several subpaths loads every module once.
//
// `npm run build` writes dist/node/ (scripts/node-bundle.ts); the benchmarks (bench/_build.ts) and the bundler
// proof (test/bundle) build the same bundle from the sources with this function. It lives here, not in scripts/
// or bench/, so that each of them imports a build helper rather than another's entry points.
import { join } from 'node:path';
import { build } from 'esbuild';

/** Output name → source file under src/. */
export const NODE_ENTRIES: Record<string, string> = {
  index: 'index.node.ts',
  models: 'models.node.ts',
  tracing: 'tracing.ts',
  testing: 'testing.ts',
  react: 'react.ts',
};

/** Bundles `<srcDir>/<entry>` into `<outDir>/<name>.js` (+ chunks). */
export function buildNodeBundle(srcDir: string, outDir: string, { sourcemap = false } = {}) {
  return build({
    entryPoints: Object.entries(NODE_ENTRIES).map(([out, file]) => ({ in: join(srcDir, file), out })),
    outdir: outDir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'es2022',
    // Maps give stack traces the source positions (`node --enable-source-maps`); the sources themselves are
    // left out of them, which keeps the package in its size budget (scripts/check-package.mjs).
    sourcemap,
    sourcesContent: false,
    external: ['ky', 'msw', 'ws', '@opentelemetry/api', 'react'],
    logLevel: 'error',
  });
}
