// One real peer's process (agent server, LiteLLM proxy, platform app): spawned in its own process group, its
// output kept (the tail, for failure messages), and killed with everything it started.
import { type ChildProcess, spawn } from 'node:child_process';

export interface PeerProcess {
  readonly child: ChildProcess;
  /** The last 200,000 characters of stdout and stderr. */
  output(): string;
  /** Ends the process group (the shells, workers and children it started too). */
  kill(): Promise<void>;
}

export function spawnPeerProcess(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): PeerProcess {
  let output = '';
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so that kill() ends every process it started.
    detached: true,
  });
  const append = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-200_000);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  return {
    child,
    output: () => output,
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        try {
          process.kill(-(child.pid as number), 'SIGKILL');
        } catch {
          child.kill('SIGKILL');
        }
      });
    },
  };
}

/**
 * Polls `isReady` until it answers true; throws (with the output's tail) when the process exits first or
 * `timeoutMs` passes. A probe that throws counts as "not listening yet".
 */
export async function waitForPeer(
  name: string,
  peer: PeerProcess,
  isReady: () => Promise<boolean>,
  options: { timeoutMs: number; intervalMs: number },
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if (peer.child.exitCode !== null) {
      throw new Error(`${name} exited with ${peer.child.exitCode}:\n${peer.output().slice(-3000)}`);
    }
    if (await isReady().catch(() => false)) return;
    if (Date.now() > deadline) {
      throw new Error(`${name} not ready after ${options.timeoutMs} ms:\n${peer.output().slice(-3000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs));
  }
}
