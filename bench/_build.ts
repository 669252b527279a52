// The package as the benchmarks load it, from the COMMITTED tree (`git archive` of HEAD's src), into
// `.cache/bench/<tree hash of src>/`: `node/`, the Node bundle exactly as `npm run build` writes `dist/node/`
// (build/node-bundle.ts; what an app on Node imports), and `esm/`, every source file transpiled on its own as
// tsup writes `dist/esm/` (the benchmarks' servers use its internals). Committed, so that edits in progress in the working
// tree never break or colour a figure; its own directory, so that no benchmark rewrites the `dist/` that other
// runs use. `BENCH_SOURCE=<commit>` builds another commit (to compare two), `BENCH_SOURCE=worktree` the working
// tree (to measure a change before committing it).
import { execFileSync } from 'node:child_process';
import { existsSync, globSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildNodeBundle } from '../build/node-bundle.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const SOURCE = process.env.BENCH_SOURCE || 'HEAD';
const WORKTREE = SOURCE === 'worktree';

const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
const srcTree = () => git('rev-parse', `${SOURCE}:src`);
/** What was built: `<commit> (src tree <hash>)` or `working tree`. */
export function builtFrom(): string {
  return WORKTREE
    ? 'working tree'
    : `${git('rev-parse', '--short', SOURCE)} (src tree ${srcTree().slice(0, 10)})`;
}

/** Transpiles `<sources>src/**` (the CLIs aside) into `<base>/esm` and bundles its Node entries into `<base>/node`. */
async function transpile(sources: string, base: string): Promise<string> {
  const out = `${base}/esm`;
  await build({
    entryPoints: globSync('src/**/*.ts', { cwd: sources })
      .filter((file) => !file.startsWith('src/cli/'))
      .map((file) => `${sources}${file}`),
    outdir: out,
    outbase: `${sources}src`,
    format: 'esm',
    target: 'es2022',
    platform: 'neutral',
    bundle: false,
    logLevel: 'error',
  });
  await buildNodeBundle(`${sources}src`, `${base}/node`);
  return out;
}

async function buildOnce(): Promise<string> {
  // The working tree gets a directory per build: a run still using an earlier one keeps it.
  if (WORKTREE) return transpile(root, `${root}.cache/bench/worktree-${process.pid}-${Date.now()}`);
  const base = `${root}.cache/bench/${srcTree()}`;
  if (existsSync(`${base}/done`)) return `${base}/esm`;
  rmSync(base, { recursive: true, force: true });
  mkdirSync(`${base}/src`, { recursive: true });
  execFileSync('sh', ['-c', `git -C "${root}" archive "${srcTree()}" | tar -x -C "${base}/src"`]);
  const out = await transpile(`${base}/`, base);
  rmSync(`${base}/src`, { recursive: true, force: true });
  writeFileSync(`${base}/done`, '');
  return out;
}

let built: Promise<string> | undefined;
/**
 * The directory of the ESM build (`index.node.js` is the package's Node entry), built once per source tree.
 * The first process to build it hands it to every process it starts (`BENCH_SDK_DIR`), so that a run measures
 * one build even while the working tree changes under it.
 */
export function sdkDir(): Promise<string> {
  const inherited = process.env.BENCH_SDK_DIR;
  if (inherited) return Promise.resolve(inherited);
  built ??= buildOnce().then((out) => {
    process.env.BENCH_SDK_DIR = out;
    return out;
  });
  return built;
}

/** The directory of the Node bundle (package.json `node` conditions: `index.js`, `models.js`, …). */
export const nodeDir = async () => (await sdkDir()).replace(/esm$/, 'node');
/** The package's Node entry (package.json `exports["."].import.node`). */
export const nodeEntry = async () => `${await nodeDir()}/index.js`;
