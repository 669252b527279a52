import { execFile } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Like `shutil.which`: the path of an executable `command` on `PATH`, or undefined. */
export function which(command: string, path: string | undefined): string | undefined {
  for (const dir of (path ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, command);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

export interface KubectlResult {
  ok: boolean;
  stdout: string;
  stderr: string;
}

/** Runs `kubectl args…` (the one on `PATH` of `env`) and collects its output. */
export function runKubectl(args: string[], env: NodeJS.ProcessEnv): Promise<KubectlResult> {
  return new Promise((resolve) => {
    execFile(
      'kubectl',
      args,
      { env, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({ ok: !error, stdout, stderr: stderr || (error && !stderr ? error.message : '') });
      },
    );
  });
}
