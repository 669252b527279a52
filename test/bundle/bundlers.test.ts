/**
 * Bundler proof: apps bundled with esbuild and with rollup, for Node and for browsers, keep the predicates compiled
 * at build time (src/models/compiled/checks.ts) and decode exactly as the sources do. The package's
 * `"sideEffects": false` once let bundlers drop the call that switched compiled parsers on; the predicates are
 * imported by the parsers themselves, and browsers get the same code as Node.
 *
 * The package is laid out as an app installs it: package.json as published (exports, browser, sideEffects),
 * dist/esm transpiled from the sources one file per module, as tsup does, and the Node bundle dist/node as
 * scripts/node-bundle.ts writes it, under .cache/bundle-proof/node_modules.
 * Each app reports whether zod's runtime parser ran for valid events (it does not when the fast path is in).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import { build } from 'esbuild';
import { rollup } from 'rollup';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildNodeBundle } from '../../build/node-bundle.js';
import { parseEvent } from '../../src/models/index.js';

const root = new URL('../../', import.meta.url).pathname;
const work = join(root, '.cache', 'bundle-proof');
const pkg = join(work, 'node_modules', 'agent-platform-sdk');

const anchors = join(root, 'test/fixtures/anchor-events');
const samples = readdirSync(anchors)
  .filter((file) => file.endsWith('.json'))
  .sort()
  .map((file) => readFileSync(join(anchors, file), 'utf8'));

/** The app: decodes every sample in both modes, counting runs of zod's runtime parser on the event schemas. */
const app = (entry: string) => `
import { parseEvent } from '${entry}';
import { EventSchema, LenientEventSchema } from 'agent-platform-sdk/models';
let runtimeRuns = 0;
for (const schema of [EventSchema, LenientEventSchema]) {
  const run = schema._zod.run;
  schema._zod.run = (...args) => { runtimeRuns++; return run(...args); };
}
const samples = ${JSON.stringify(samples)};
const decoded = samples.flatMap((text) => ['lenient', 'strict'].map((mode) => parseEvent(text, { mode })));
console.log(JSON.stringify({ runtimeRuns, decoded }));
`;

// Compared as values: key order is not part of a result (an event decoded from text that needs no change keeps
// the server's order; zod's copy, which browsers make, has the schema's).
const expected: unknown = JSON.parse(
  JSON.stringify(
    samples.flatMap((text) => (['lenient', 'strict'] as const).map((mode) => parseEvent(text, { mode }))),
  ),
);

function sourcesOf(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.startsWith('cli'))
    .map((file) => join(dir, file));
}

beforeAll(async () => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(pkg, { recursive: true });
  // The apps' own package scope: without it the nearest package.json is the repository's, whose name makes
  // `agent-platform-sdk` resolve to the repository's own dist/ (a package may import itself by name), which
  // does not exist before the build.
  writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'bundle-proof-app', private: true }));
  cpSync(join(root, 'package.json'), join(pkg, 'package.json'));
  await build({
    entryPoints: sourcesOf(join(root, 'src')),
    outdir: join(pkg, 'dist/esm'),
    outbase: join(root, 'src'),
    format: 'esm',
    target: 'es2022',
    bundle: false,
    logLevel: 'error',
  });
  await buildNodeBundle(join(root, 'src'), join(pkg, 'dist/node'));
  writeFileSync(join(work, 'node-app.js'), app('agent-platform-sdk'));
  writeFileSync(join(work, 'models-app.js'), app('agent-platform-sdk/models'));
}, 60_000);

interface Run {
  runtimeRuns: number;
  decoded: unknown[];
}

/** Runs a bundle in a fresh Node process; `minified` and `gzip` sizes in bytes. */
function run(code: string, name: string): Run & { minified: number; gzip: number } {
  const file = join(work, name);
  writeFileSync(file, code);
  const out = execFileSync(process.execPath, [file], { encoding: 'utf8' });
  return {
    ...(JSON.parse(out) as Run),
    minified: Buffer.byteLength(code),
    gzip: gzipSync(code, { level: 9 }).length,
  };
}

async function esbuildBundle(entry: string, platform: 'node' | 'browser'): Promise<string> {
  const result = await build({
    entryPoints: [join(work, entry)],
    bundle: true,
    minify: true,
    format: 'esm',
    platform,
    write: false,
    external: ['@opentelemetry/api', 'msw', 'ws'],
    logLevel: 'error',
  });
  return result.outputFiles[0]!.text;
}

async function rollupBundle(entry: string, platform: 'node' | 'browser'): Promise<string> {
  const bundle = await rollup({
    input: join(work, entry),
    plugins: [
      nodeResolve({
        browser: platform === 'browser',
        exportConditions: platform === 'node' ? ['node'] : ['browser'],
        preferBuiltins: true,
      }),
    ],
    onwarn: () => {},
  });
  const { output } = await bundle.generate({ format: 'esm' });
  await bundle.close();
  return output[0].code;
}

describe('bundled apps', () => {
  it('esbuild, Node target, main entry: predicates in, zod is not asked, same values', async () => {
    const result = run(await esbuildBundle('node-app.js', 'node'), 'esbuild-node.mjs');
    expect(result.runtimeRuns).toBe(0);
    expect(result.decoded).toEqual(expected);
    console.log(`esbuild node (main entry): ${(result.gzip / 1000).toFixed(1)} kB gzip`);
  }, 60_000);

  it('esbuild, Node target, models subpath: the same', async () => {
    const result = run(await esbuildBundle('models-app.js', 'node'), 'esbuild-node-models.mjs');
    expect(result.runtimeRuns).toBe(0);
    expect(result.decoded).toEqual(expected);
  }, 60_000);

  it('rollup with node-resolve, Node target: predicates in, same values', async () => {
    const result = run(await rollupBundle('models-app.js', 'node'), 'rollup-node.mjs');
    expect(result.runtimeRuns).toBe(0);
    expect(result.decoded).toEqual(expected);
  }, 60_000);

  for (const [bundler, bundle] of [
    ['esbuild', esbuildBundle],
    ['rollup', rollupBundle],
  ] as const) {
    it(`${bundler}, browser target: the same predicates, zod is not asked, same values, small`, async () => {
      const code = await bundle('models-app.js', 'browser');
      const result = run(code, `${bundler}-browser.mjs`);
      expect(result.runtimeRuns).toBe(0);
      expect(result.decoded).toEqual(expected);
      // The whole models subpath stays in its budget (scripts/check-size.mjs: 45 kB minified); rollup's output
      // here is not minified (58.8 kB gzip with the predicates).
      expect(result.gzip).toBeLessThan(bundler === 'esbuild' ? 45_000 : 65_000);
    }, 60_000);
  }
});
