// Starts a real LiteLLM proxy (from the venv `npm run peers` made) on a loopback port, without a database and
// without network access at start (the bundled model cost map, no admin UI), with a config file of ours.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnPeerProcess, waitForPeer } from '../support/peer-process.js';

export interface RealGateway {
  readonly name: string;
  readonly url: string;
  /** Output of the process (for failure messages). */
  log(): string;
  close(): Promise<void>;
}

export interface StartGatewayOptions {
  name: string;
  port: number;
  /** The config file's text (real names). */
  configYaml: string;
  masterKey: string;
  /** Variables the config reads through `os.environ/<VAR>`. */
  env?: Record<string, string>;
  readyTimeoutMs?: number;
}

/** The environment of a proxy that must never reach the network (no remote cost map, no UI, no proxy). */
function offlineEnv(venv: string, home: string, options: StartGatewayOptions): NodeJS.ProcessEnv {
  return {
    PATH: `${join(venv, 'bin')}:/usr/bin:/bin`,
    HOME: home,
    LITELLM_LOCAL_MODEL_COST_MAP: 'True',
    LITELLM_MASTER_KEY: options.masterKey,
    DISABLE_ADMIN_UI: 'True',
    LITELLM_TELEMETRY: 'False',
    NO_PROXY: '*',
    no_proxy: '*',
    PYTHONUNBUFFERED: '1',
    PYTHONDONTWRITEBYTECODE: '1',
    ...options.env,
  };
}

export async function startRealGateway(venv: string, options: StartGatewayOptions): Promise<RealGateway> {
  const dir = mkdtempSync(join(tmpdir(), `gateway-${options.name}-`));
  const configPath = join(dir, 'config.yaml');
  writeFileSync(configPath, options.configYaml);
  const url = `http://127.0.0.1:${options.port}`;
  const peer = spawnPeerProcess(
    join(venv, 'bin/litellm'),
    ['--config', configPath, '--host', '127.0.0.1', '--port', String(options.port), '--num_workers', '1'],
    { cwd: dir, env: offlineEnv(venv, dir, options) },
  );
  const close = async () => {
    await peer.kill();
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  };
  try {
    await waitForPeer(
      `gateway ${options.name}`,
      peer,
      async () => (await fetch(`${url}/health/liveliness`, { signal: AbortSignal.timeout(2000) })).ok,
      { timeoutMs: options.readyTimeoutMs ?? 120_000, intervalMs: 250 },
    );
  } catch (error) {
    await close();
    throw error;
  }
  return { name: options.name, url, log: peer.output, close };
}
