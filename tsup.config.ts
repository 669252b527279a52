import { defineConfig, type Options } from 'tsup';

// Entry points match the subpath exports in package.json.
const entry = {
  index: 'src/index.ts',
  models: 'src/models.ts',
  tracing: 'src/tracing.ts',
  testing: 'src/testing.ts',
  react: 'src/react.ts',
};

const common = {
  entry,
  target: 'es2022',
  sourcemap: true,
  dts: true,
  splitting: false,
  treeshake: true,
  external: ['msw', 'ws', '@opentelemetry/api', 'react'],
} satisfies Options;

export default defineConfig([
  // ESM JavaScript, one file per source module: with `sideEffects: false`, an app's bundler drops every
  // module it does not use (a single bundled file would keep every top-level schema of every service).
  {
    entry: ['src/**/*.ts', '!src/cli/**'],
    outDir: 'dist/esm',
    format: ['esm'],
    target: 'es2022',
    sourcemap: true,
    bundle: false,
    dts: false,
    clean: true,
  },
  // Type declarations, one bundle per entry point. The root entry is bundled on its own: bundled with
  // `./models`, it would share a chunk with the zod schemas `./models` exports, and every app importing a client
  // would type-check zod's types (docs/performance.md, "Type-checking"). The .d.cts files are copies made by
  // scripts/finish-declarations.mjs (same declarations; one TypeScript program less in the build).
  { ...common, entry: { index: entry.index }, format: ['esm'], dts: { only: true } },
  {
    ...common,
    entry: { models: entry.models, testing: entry.testing },
    format: ['esm'],
    dts: { only: true },
  },
  // `./tracing` on its own too: sharing a chunk with `./models`, its declarations named the base error class from
  // there without exporting it (rollup-plugin-dts warned on every build); alone, the class is declared in it.
  { ...common, entry: { tracing: entry.tracing }, format: ['esm'], dts: { only: true } },
  // `./react` on its own: its declarations hold only the view's plain data types and the hooks (docs/react.md).
  { ...common, entry: { react: entry.react }, format: ['esm'], dts: { only: true } },
  // ky and @noble/hashes are ESM-only: inline them so require() works in loaders
  // that cannot require ESM (Jest's module runtime). CJS means Node (or Jest): its entries are the Node ones,
  // with compiled event parsers.
  {
    ...common,
    entry: { ...entry, index: 'src/index.node.ts', models: 'src/models.node.ts' },
    format: ['cjs'],
    dts: false,
    noExternal: ['ky', /^@noble\/hashes/],
  },
  // The `warm-pools` bin (package.json "bin"): ESM only, no types. Its source starts with the
  // `#!/usr/bin/env node` line, which esbuild keeps as the first line of the output.
  {
    entry: {
      'cli/warm-pools': 'src/cli/warm-pools.ts',
      // The `agent-platform` bin, and the demo and simulator it loads when a command runs (msw and ws stay
      // external: optional peer dependencies).
      'cli/agent-platform': 'src/cli/agent-platform.ts',
      'cli/demo': 'src/cli/demo.ts',
    },
    format: ['esm'],
    target: 'es2022',
    platform: 'node',
    sourcemap: true,
    dts: false,
    splitting: false,
    treeshake: true,
    // `follow` and `events` use the SDK's public API (src/cli/follow.ts imports `../index.js`): the bin imports
    // the package itself (a self-reference) instead of carrying a second copy of the SDK in its bundle.
    esbuildPlugins: [
      {
        name: 'sdk-self-reference',
        setup(build) {
          build.onResolve({ filter: /^\.\.\/index\.js$/ }, (args) =>
            args.importer.includes('/src/cli/') ? { path: 'agent-platform-sdk', external: true } : undefined,
          );
        },
      },
    ],
  },
]);
