// Starts a real `openhands-agent-server` (from the venv `npm run peers` made) on a loopback port, with its
// conversations persisted in a folder of ours, so that a test can kill it and start it again on the same data.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RealAgentServer {
  readonly version: string;
  readonly url: string;
  readonly sessionApiKey: string;
  /** Folder holding `conversations/` and the workspace; kept across restarts. */
  readonly dataDir: string;
  readonly workspaceDir: string;
  /** Output of the current process (for failure messages). */
  log(): string;
  /** SIGKILL the process: no shutdown hook runs, as in a crash. */
  kill(): Promise<void>;
  /** Start again on the same port and data. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function waitUntilReady(url: string, child: ChildProcess, output: () => string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`agent server exited with ${child.exitCode}:\n${output().slice(-3000)}`);
    try {
      // /health answers on every version (1.11 "OK", later {"status":"ok"}); /server_info needs the app routes.
      const response = await fetch(`${url}/server_info`, { signal: AbortSignal.timeout(2000) });
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`agent server not ready after ${timeoutMs} ms:\n${output().slice(-3000)}`);
}

export async function startRealAgentServer(
  venv: string,
  version: string,
  options: { sessionApiKey?: string; readyTimeoutMs?: number } = {},
): Promise<RealAgentServer> {
  const sessionApiKey = options.sessionApiKey ?? `conformance-key-${version}`;
  const dataDir = mkdtempSync(join(tmpdir(), `agent-server-${version}-`));
  const workspaceDir = join(dataDir, 'ws');
  mkdirSync(workspaceDir, { recursive: true });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  let output = '';

  const env: NodeJS.ProcessEnv = {
    PATH: `${join(venv, 'bin')}:${process.env.PATH ?? ''}`,
    HOME: dataDir,
    OH_SESSION_API_KEYS_0: sessionApiKey,
    SESSION_API_KEY: sessionApiKey,
    OH_ENABLE_VSCODE: 'false',
    OH_ENABLE_VNC: 'false',
    OH_PRELOAD_TOOLS: 'false',
    OH_CONVERSATIONS_PATH: join(dataDir, 'conversations'),
    OH_WORKSPACE_PATH: workspaceDir,
    OH_BASH_EVENTS_DIR: join(dataDir, 'bash_events'),
    // A restarted server waits for the dead process's conversation lease; keep the wait short in tests.
    OH_LEASE_TTL_SECONDS: '5',
    LITELLM_LOCAL_MODEL_COST_MAP: 'True',
    LMNR_PROJECT_API_KEY: '',
    PYTHONUNBUFFERED: '1',
  };

  async function start() {
    output = '';
    child = spawn(
      join(venv, 'bin/python'),
      ['-m', 'openhands.agent_server', '--host', '127.0.0.1', '--port', String(port)],
      {
        cwd: dataDir,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        // Its own process group, so that kill() also ends the shells the agent started.
        detached: true,
      },
    );
    const append = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-200_000);
    };
    child.stdout?.on('data', append);
    child.stderr?.on('data', append);
    await waitUntilReady(url, child, () => output, options.readyTimeoutMs ?? 90_000);
  }

  async function kill() {
    const current = child;
    if (!current || current.exitCode !== null || current.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      current.once('exit', () => resolve());
      try {
        process.kill(-(current.pid as number), 'SIGKILL');
      } catch {
        current.kill('SIGKILL');
      }
    });
  }

  await start();
  return {
    version,
    url,
    sessionApiKey,
    dataDir,
    workspaceDir,
    log: () => output,
    kill,
    restart: async () => {
      await kill();
      await start();
    },
    close: async () => {
      await kill();
      rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    },
  };
}

/**
 * The ids of a conversation's persisted events in the server's log order (its `event-<index>-<id>.json` files):
 * the order a subscription must deliver. REST search sorts by timestamp, which can differ for events stamped
 * within the same moment.
 */
export function persistedLogOrder(server: RealAgentServer, conversationId: string): string[] {
  const dir = join(server.dataDir, 'conversations', conversationId.replaceAll('-', ''), 'events');
  return readdirSync(dir)
    .filter((name) => /^event-\d+-/.test(name))
    .sort()
    .map((name) => name.replace(/^event-\d+-/, '').replace(/\.json$/, ''));
}
