// The package as the benchmarks load it: every source file of the COMMITTED tree (`git archive HEAD src`)
// transpiled on its own by esbuild, target es2022, exactly as tsup writes `dist/esm/` (tsup.config.ts,
// `bundle: false`), into `.cache/bench/<tree hash of src>/`. Committed, so that edits in progress in the working
// tree never break or colour a figure; its own directory, so that no benchmark rewrites the `dist/` that other
// runs use. `BENCH_SOURCE=<commit>` builds another commit (to compare two), `BENCH_SOURCE=worktree` the working
// tree (to measure a change before committing it).
import { execFileSync } from 'node:child_process';
import { existsSync, globSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

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

let built: Promise<string> | undefined;
/** The directory of the ESM build (`index.node.js` is the package's Node entry); built once per source tree. */
export function sdkDir(): Promise<string> {
  built ??= (async () => {
    const base = `${root}.cache/bench/${WORKTREE ? 'worktree' : srcTree()}`;
    const out = `${base}/esm`;
    if (!WORKTREE && existsSync(`${base}/done`)) return out;
    rmSync(base, { recursive: true, force: true });
    mkdirSync(`${base}/src`, { recursive: true });
    let sources = root;
    if (!WORKTREE) {
      sources = `${base}/`;
      execFileSync('sh', ['-c', `git -C "${root}" archive "${srcTree()}" | tar -x -C "${base}/src"`]);
    }
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
    rmSync(`${base}/src`, { recursive: true, force: true });
    writeFileSync(`${base}/done`, '');
    return out;
  })();
  return built;
}

/** The package's Node entry (package.json `exports["."].import.node`). */
export const nodeEntry = async () => `${await sdkDir()}/index.node.js`;
