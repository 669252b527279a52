// Starts a real `openhands-agent-server` (from the venv `npm run peers` made) on a loopback port, with its
// conversations persisted in a folder of ours, so that a test can kill it and start it again on the same data.
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PeerProcess, spawnPeerProcess, waitForPeer } from './peer-process.js';

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
  let peer: PeerProcess | undefined;

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
    peer = spawnPeerProcess(
      join(venv, 'bin/python'),
      ['-m', 'openhands.agent_server', '--host', '127.0.0.1', '--port', String(port)],
      { cwd: dataDir, env },
    );
    // /health answers on every version (1.11 "OK", later {"status":"ok"}); /server_info needs the app routes.
    await waitForPeer(
      'agent server',
      peer,
      async () => (await fetch(`${url}/server_info`, { signal: AbortSignal.timeout(2000) })).status < 500,
      { timeoutMs: options.readyTimeoutMs ?? 90_000, intervalMs: 250 },
    );
  }

  async function kill() {
    await peer?.kill();
  }

  await start();
  return {
    version,
    url,
    sessionApiKey,
    dataDir,
    workspaceDir,
    log: () => peer?.output() ?? '',
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
