// The two-gateway chain of the conformance run, all on loopback:
//
//   SDK → bridge (neutral ↔ real names) → built-in gateway (real LiteLLM, config built by the SDK)
//       → recorder → external gateway (a second real LiteLLM) → fake upstream (records what it receives)
//
// Two built-in gateways run side by side: one with Pattern A entries only (so that a missing model is the
// built-in gateway's own answer), one with the Pattern B wildcard as well. Entries of the `compat/` kind also
// go straight to the fake upstream, without the external gateway.
import { randomBytes } from 'node:crypto';
import { toYaml, type YamlValue } from '../../../src/core/yaml.js';
import {
  buildProxyConfig,
  type GatewayModelEntry,
  gatewayModelEntry,
  type ProxyConfigResult,
} from '../../../src/gateway/index.js';
import { freePort } from '../support/agent-server.js';
import { type Bridge, mapNames, startBridge } from './bridge.js';
import { type FakeUpstream, startFakeUpstream } from './fake-upstream.js';
import { type RealGateway, startRealGateway } from './litellm.js';

export const UPSTREAM_KEY = 'sk-upstream-key';
export const EXTERNAL_MASTER_KEY = 'sk-external-master';

export interface GatewayChain {
  readonly version: string;
  /** The built-in gateway's master key (random per run, so that a leak is recognisable). */
  readonly masterKey: string;
  readonly upstream: FakeUpstream;
  /** Requests the external gateway received from the built-in ones. */
  readonly external: Bridge;
  /** Pattern A built-in gateway, as the SDK sees it (neutral names). */
  readonly builtin: Bridge;
  /** Pattern A + B (wildcard) built-in gateway, as the SDK sees it. */
  readonly wildcard: Bridge;
  /** The configs the SDK built for the two built-in gateways. */
  readonly configs: { builtin: ProxyConfigResult; wildcard: ProxyConfigResult };
  /** Outputs of the three proxies, for failure messages. */
  logs(): string;
  close(): Promise<void>;
}

/** The external gateway's own config: a company gateway, written by hand with the real names. */
export function externalConfig(upstreamUrl: string): string {
  const model = (name: string) => ({
    model_name: name,
    litellm_params: {
      model: `openai/${name}`,
      api_base: `${upstreamUrl}/v1`,
      api_key: 'os.environ/UPSTREAM_KEY',
    },
  });
  return toYaml({
    model_list: [model('up-model'), model('anthropic/claude-z')],
    general_settings: { forward_client_headers_to_llm_api: true },
    litellm_settings: { num_retries: 0 },
  } as YamlValue);
}

/**
 * The built-in gateway's config file: the SDK's `proxy_config` document rendered with the real names (what
 * the installer does with `proxy_config`), plus settings a test run needs (no retries).
 */
export function realProxyConfig(result: ProxyConfigResult): string {
  const { model_list, general_settings } = result.config.proxy_config;
  return toYaml({
    model_list: mapNames(model_list, 'toReal'),
    ...(general_settings ? { general_settings } : {}),
    litellm_settings: { num_retries: 0 },
  } as YamlValue);
}

export function builtinEntries(externalUrl: string, upstreamUrl: string): GatewayModelEntry[] {
  const toExternal = { apiBase: externalUrl, apiKey: { env: 'EXT_GW_KEY' } } as const;
  const toUpstream = { apiBase: upstreamUrl, apiKey: { env: 'UPSTREAM_KEY' } } as const;
  return [
    gatewayModelEntry({
      modelName: 'chained-same-kind',
      upstreamModel: 'up-model',
      gatewayKind: 'same-kind',
      ...toExternal,
    }),
    gatewayModelEntry({
      modelName: 'chained-compat',
      upstreamModel: 'claude-z',
      provider: 'anthropic',
      gatewayKind: 'openai-compatible',
      ...toExternal,
    }),
    gatewayModelEntry({
      modelName: 'chained-unknown',
      upstreamModel: 'not-on-the-external-gateway',
      gatewayKind: 'same-kind',
      ...toExternal,
    }),
    gatewayModelEntry({
      modelName: 'direct-compat',
      upstreamModel: 'model-d',
      provider: 'acme',
      gatewayKind: 'openai-compatible',
      ...toUpstream,
    }),
    gatewayModelEntry({
      modelName: 'direct-bad-key',
      upstreamModel: 'model-d',
      provider: 'acme',
      gatewayKind: 'openai-compatible',
      apiBase: upstreamUrl,
      apiKey: { env: 'WRONG_UPSTREAM_KEY' },
    }),
  ];
}

export async function startGatewayChain(venv: string, version: string): Promise<GatewayChain> {
  const masterKey = `sk-builtin-${randomBytes(12).toString('hex')}`;
  const started: { close(): Promise<void> }[] = [];
  const gateways: RealGateway[] = [];
  const closeAll = async () => {
    await Promise.allSettled(started.reverse().map((item) => item.close()));
  };
  try {
    const upstream = await startFakeUpstream(UPSTREAM_KEY);
    started.push(upstream);
    const [externalPort, builtinPort, wildcardPort] = [await freePort(), await freePort(), await freePort()];
    const external = await startBridge(`http://127.0.0.1:${externalPort}`, { map: false });
    started.push(external);

    const entries = builtinEntries(external.url, upstream.url);
    const builtinConfig = buildProxyConfig({ entries, forwardClientHeaders: true });
    const wildcardConfig = buildProxyConfig({
      entries: entries.slice(0, 1),
      wildcard: { apiBase: external.url, apiKey: { env: 'EXT_GW_KEY' } },
      forwardClientHeaders: true,
    });
    const env = {
      EXT_GW_KEY: EXTERNAL_MASTER_KEY,
      UPSTREAM_KEY,
      WRONG_UPSTREAM_KEY: 'sk-not-the-upstream-key',
    };
    const launched = await Promise.allSettled([
      startRealGateway(venv, {
        name: `external-${version}`,
        port: externalPort,
        configYaml: externalConfig(upstream.url),
        masterKey: EXTERNAL_MASTER_KEY,
        env,
      }),
      startRealGateway(venv, {
        name: `builtin-${version}`,
        port: builtinPort,
        configYaml: realProxyConfig(builtinConfig),
        masterKey,
        env,
      }),
      startRealGateway(venv, {
        name: `wildcard-${version}`,
        port: wildcardPort,
        configYaml: realProxyConfig(wildcardConfig),
        masterKey,
        env,
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
    const builtin = await startBridge(gateways[1]!.url, { map: true });
    started.push(builtin);
    const wildcard = await startBridge(gateways[2]!.url, { map: true });
    started.push(wildcard);
    return {
      version,
      masterKey,
      upstream,
      external,
      builtin,
      wildcard,
      configs: { builtin: builtinConfig, wildcard: wildcardConfig },
      logs: () => gateways.map((g) => `--- ${g.name}\n${g.log().slice(-4000)}`).join('\n'),
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
