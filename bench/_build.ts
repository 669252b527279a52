// The package's ESM build for the benchmarks that load it as an app does (bench/cold.ts, bench/memory.ts,
// bench/import.ts): every source file transpiled on its own by esbuild, target es2022, exactly as tsup writes
// `dist/esm/` (tsup.config.ts, `bundle: false`), but into `.cache/bench/esm/` and from the sources as they are
// now, so the figures never come from a stale `dist/` and no benchmark rewrites the `dist/` other runs use.
import { globSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = `${root}.cache/bench/esm`;

/** Builds once per process; returns the path of the Node entry (`index.node.js`, package.json `node` condition). */
let built: Promise<string> | undefined;
export function nodeEntry(): Promise<string> {
  built ??= (async () => {
    rmSync(out, { recursive: true, force: true });
    await build({
      entryPoints: globSync('src/**/*.ts', { cwd: root })
        .filter((file) => !file.startsWith('src/cli/'))
        .map((file) => `${root}${file}`),
      outdir: out,
      outbase: `${root}src`,
      format: 'esm',
      target: 'es2022',
      platform: 'neutral',
      bundle: false,
      logLevel: 'error',
    });
    return `${out}/index.node.js`;
  })();
  return built;
}
