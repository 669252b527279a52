// The gateway chain with a database: the SDK → bridge (neutral ↔ real names) → a real built-in LiteLLM that
// keeps its models in PostgreSQL (./database.ts) → recorder → a real external LiteLLM → the fake upstream.
// The built-in gateway starts with no configured model: every model of the run is added through the API.
import { randomBytes } from 'node:crypto';
import { toYaml, type YamlValue } from '../../../src/core/yaml.js';
import { freePort } from '../support/agent-server.js';
import { type Bridge, startBridge } from './bridge.js';
import { EXTERNAL_MASTER_KEY, externalConfig, UPSTREAM_KEY } from './chain.js';
import { type GatewayDatabase, startGatewayDatabase } from './database.js';
import { type FakeUpstream, startFakeUpstream } from './fake-upstream.js';
import { type RealGateway, startRealGateway } from './litellm.js';

export interface DatabaseChain {
  readonly version: string;
  readonly masterKey: string;
  readonly database: GatewayDatabase;
  readonly upstream: FakeUpstream;
  /** Requests the external gateway received from the built-in one. */
  readonly external: Bridge;
  /** The built-in gateway as the SDK sees it (neutral names). */
  readonly builtin: Bridge;
  /** Milliseconds from spawn to ready, per part. */
  readonly timings: Record<string, number>;
  logs(): string;
  close(): Promise<void>;
}

export async function startDatabaseChain(venv: string, version: string): Promise<DatabaseChain> {
  const masterKey = `sk-builtin-${randomBytes(12).toString('hex')}`;
  const started: { close(): Promise<void> }[] = [];
  const gateways: RealGateway[] = [];
  const timings: Record<string, number> = {};
  const closeAll = async () => {
    await Promise.allSettled(started.reverse().map((item) => item.close()));
  };
  try {
    let t0 = Date.now();
    const database = await startGatewayDatabase(venv);
    started.push(database);
    timings.database = Date.now() - t0;
    const upstream = await startFakeUpstream(UPSTREAM_KEY);
    started.push(upstream);
    const [externalPort, builtinPort] = [await freePort(), await freePort()];
    const external = await startBridge(`http://127.0.0.1:${externalPort}`, { map: false });
    started.push(external);
    t0 = Date.now();
    const launched = await Promise.allSettled([
      startRealGateway(venv, {
        name: `external-${version}`,
        port: externalPort,
        configYaml: externalConfig(upstream.url),
        masterKey: EXTERNAL_MASTER_KEY,
        env: { UPSTREAM_KEY },
      }),
      startRealGateway(venv, {
        name: `builtin-db-${version}`,
        port: builtinPort,
        configYaml: toYaml({
          model_list: [],
          general_settings: { store_model_in_db: true, forward_client_headers_to_llm_api: true },
          litellm_settings: { num_retries: 0 },
        } as YamlValue),
        masterKey,
        env: {
          ...database.proxyEnv,
          // Encrypts the stored parameters (keys included).
          LITELLM_SALT_KEY: `sk-salt-${randomBytes(12).toString('hex')}`,
        },
        readyTimeoutMs: 300_000,
      }),
    ]);
    for (const result of launched) {
      if (result.status === 'fulfilled') {
        gateways.push(result.value);
        started.push(result.value);
      }
    }
    const failed = launched.find((result) => result.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    timings.gateways = Date.now() - t0;
    const builtin = await startBridge(gateways[1]!.url, { map: true });
    started.push(builtin);
    return {
      version,
      masterKey,
      database,
      upstream,
      external,
      builtin,
      timings,
      logs: () => gateways.map((g) => `--- ${g.name}\n${g.log().slice(-6000)}`).join('\n'),
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
