// The two builds an in-process A/B loads (bench/_ab-stream.ts, bench/_ab-overhead.ts): each is built by a child
// process of the script with BENCH_SOURCE set (bench/_build.ts caches builds by source tree), which prints the
// build's Node entry.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** `--name value` from the command line. */
export function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

/** The Node entry of `source` (what BENCH_SOURCE takes: a commit, HEAD or `worktree`), built by `script`. */
function entryOf(script: string, source: string): string {
  return execFileSync(process.execPath, [script, '--print-entry'], {
    encoding: 'utf8',
    env: { ...process.env, BENCH_SOURCE: source, BENCH_SDK_DIR: '' },
  }).trim();
}

/** In the child `entryOf` starts: builds, prints the Node entry and exits. Nothing otherwise. */
async function answerPrintEntry(): Promise<void> {
  if (!process.argv.includes('--print-entry')) return;
  const { nodeEntry } = await import('./_build.js');
  console.log(await nodeEntry());
  process.exit(0);
}

/**
 * The A/B script's two builds (`--a`, default HEAD; `--b`, default the working tree), as Node entries. In the
 * child that builds one, this builds, prints and exits instead. BENCH_SDK_DIR is set to A's build, whose
 * simulator store the stream server uses (bench/_stream-clients.ts).
 */
export async function abBuilds(scriptUrl: string): Promise<{ entryA: string; entryB: string }> {
  await answerPrintEntry();
  const script = fileURLToPath(scriptUrl);
  const entryA = entryOf(script, argument('a') ?? 'HEAD');
  const entryB = entryOf(script, argument('b') ?? 'worktree');
  process.env.BENCH_SDK_DIR = entryA.replace(/node\/index\.js$/, 'esm');
  return { entryA, entryB };
}
