// Starts the real platform app (`openhands-ai`, from the venv `npm run peers` made) on a loopback port, without
// Docker: `RUNTIME=process`, its settings, secrets and profiles as files in a folder of ours, no frontend, HOME
// and TMPDIR inside that folder. Start-up takes about a minute on two cores (it migrates its SQLite database).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/agent-server.js';
import { spawnPeerProcess, waitForPeer } from '../support/peer-process.js';

export interface RealPlatformApp {
  readonly url: string;
  /** Milliseconds from spawn to the first answer. */
  readonly startedInMs: number;
  log(): string;
  close(): Promise<void>;
}

export async function startRealPlatformApp(
  venv: string,
  options: { readyTimeoutMs?: number } = {},
): Promise<RealPlatformApp> {
  const dir = mkdtempSync(join(tmpdir(), 'platform-app-'));
  for (const sub of ['home', 'tmp', 'persistence']) mkdirSync(join(dir, sub));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  const peer = spawnPeerProcess(
    join(venv, 'bin/python'),
    ['-m', 'uvicorn', 'openhands.app_server.app:app', '--host', '127.0.0.1', '--port', String(port)],
    {
      cwd: dir,
      env: {
        PATH: `${join(venv, 'bin')}:/usr/bin:/bin`,
        HOME: join(dir, 'home'),
        TMPDIR: join(dir, 'tmp'),
        RUNTIME: 'process',
        OH_PERSISTENCE_DIR: join(dir, 'persistence'),
        SERVE_FRONTEND: 'false',
        LITELLM_LOCAL_MODEL_COST_MAP: 'True',
        PYTHONUNBUFFERED: '1',
        PYTHONDONTWRITEBYTECODE: '1',
        NO_PROXY: '*',
      },
    },
  );
  const close = async () => {
    await peer.kill();
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  };
  try {
    // Any answer means the routes are up: a fresh app answers 404 "Settings not found".
    await waitForPeer(
      'platform app',
      peer,
      async () => (await fetch(`${url}/api/v1/settings`, { signal: AbortSignal.timeout(2000) })).status < 500,
      { timeoutMs: options.readyTimeoutMs ?? 240_000, intervalMs: 500 },
    );
  } catch (error) {
    await close();
    throw error;
  }
  return { url, startedInMs: Date.now() - started, log: peer.output, close };
}
