// The two builds an in-process A/B loads (bench/_ab-stream.ts, bench/_ab-overhead.ts): each is built by a child
// process of the script with BENCH_SOURCE set (bench/_build.ts caches builds by source tree), which prints the
// build's Node entry.
import { execFileSync } from 'node:child_process';

/** `--name value` from the command line. */
export function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

/** The Node entry of `source` (what BENCH_SOURCE takes: a commit, HEAD or `worktree`), built by `script`. */
export function entryOf(script: string, source: string): string {
  return execFileSync(process.execPath, [script, '--print-entry'], {
    encoding: 'utf8',
    env: { ...process.env, BENCH_SOURCE: source, BENCH_SDK_DIR: '' },
  }).trim();
}

/** In the child `entryOf` starts: builds, prints the Node entry and exits. Nothing otherwise. */
export async function answerPrintEntry(): Promise<void> {
  if (!process.argv.includes('--print-entry')) return;
  const { nodeEntry } = await import('./_build.js');
  console.log(await nodeEntry());
  process.exit(0);
}
