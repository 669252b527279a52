// Starts the real platform app (`openhands-ai`, from the venv `npm run peers` made) on a loopback port, without
// Docker: `RUNTIME=process`, its settings, secrets and profiles as files in a folder of ours, no frontend, HOME
// and TMPDIR inside that folder. Start-up takes about a minute on two cores (it migrates its SQLite database).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/agent-server.js';

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
  let output = '';
  const started = Date.now();
  const child: ChildProcess = spawn(
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
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so that close() ends every process it started.
      detached: true,
    },
  );
  const append = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-200_000);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);

  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        try {
          process.kill(-(child.pid as number), 'SIGKILL');
        } catch {
          child.kill('SIGKILL');
        }
      });
    }
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  };

  const timeout = options.readyTimeoutMs ?? 240_000;
  for (;;) {
    if (child.exitCode !== null) {
      await close();
      throw new Error(`platform app exited with ${child.exitCode}:\n${output.slice(-3000)}`);
    }
    try {
      // Any answer means the routes are up: a fresh app answers 404 "Settings not found".
      const response = await fetch(`${url}/api/v1/settings`, { signal: AbortSignal.timeout(2000) });
      if (response.status < 500) break;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > timeout) {
      await close();
      throw new Error(`platform app not ready after ${timeout} ms:\n${output.slice(-3000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return { url, startedInMs: Date.now() - started, log: () => output, close };
}
