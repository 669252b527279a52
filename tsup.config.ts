import { defineConfig, type Options } from 'tsup';

// Entry points match the subpath exports in package.json.
const entry = {
  index: 'src/index.ts',
  models: 'src/models.ts',
  tracing: 'src/tracing.ts',
  testing: 'src/testing.ts',
};

const common = {
  entry,
  target: 'es2022',
  sourcemap: true,
  dts: true,
  splitting: false,
  treeshake: true,
  external: ['msw', 'ws', '@opentelemetry/api'],
} satisfies Options;

export default defineConfig([
  { ...common, format: ['esm'], clean: true },
  // ky and @noble/hashes are ESM-only: inline them so require() works in loaders
  // that cannot require ESM (Jest's module runtime).
  { ...common, format: ['cjs'], noExternal: ['ky', /^@noble\/hashes/] },
  // The `warm-pools` bin (package.json "bin"): ESM only, no types. Its source starts with the
  // `#!/usr/bin/env node` line, which esbuild keeps as the first line of the output.
  {
    entry: { 'cli/warm-pools': 'src/cli/warm-pools.ts' },
    format: ['esm'],
    target: 'es2022',
    platform: 'node',
    sourcemap: true,
    dts: false,
    splitting: false,
    treeshake: true,
  },
]);
