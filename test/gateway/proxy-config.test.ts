import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { isRequestValidationError, type RequestValidationError } from '../../src/core/errors.js';
import type { GatewayConfigNote } from '../../src/gateway/index.js';
import {
  buildProxyConfig,
  gatewayModelEntry,
  lintGatewayModelEntry,
  PATTERN_B_WARNINGS,
  patternAEntries,
  perTeamModelEntries,
  wildcardGatewayEntry,
} from '../../src/gateway/index.js';
import { configBlocks } from './fixtures.js';

const blocks = configBlocks();
const codes = (notes: GatewayConfigNote[]) => notes.map((n) => n.code);

const patternA = () =>
  patternAEntries({
    gatewayKind: 'same-kind',
    apiBase: 'http://external-gateway:4000',
    apiKey: { env: 'EXTERNAL_GW_KEY' },
    models: [
      { modelName: 'claude-sonnet-4-5', upstreamModel: 'claude-sonnet-4-5-20250929' },
      { modelName: 'claude-haiku-4-5', upstreamModel: 'claude-haiku-4-5-20251001' },
      { modelName: 'gpt-4o', upstreamModel: 'gpt-4o' },
    ],
  });

function rejection(run: () => unknown): RequestValidationError {
  try {
    run();
  } catch (error) {
    expect(isRequestValidationError(error)).toBe(true);
    return error as RequestValidationError;
  }
  throw new Error('expected a RequestValidationError');
}

describe('Pattern A', () => {
  it('one entry per exposed model sharing base and key, as the docs example (fixture block 7)', () => {
    const { config, yaml } = buildProxyConfig({ entries: patternA() });
    expect(config).toEqual(blocks.get(7));
    expect(parse(yaml)).toEqual(blocks.get(7));
  });

  it('users see exactly the configured model_name values', () => {
    const names = patternA().map((e) => e.model_name);
    expect(names).toEqual(['claude-sonnet-4-5', 'claude-haiku-4-5', 'gpt-4o']);
  });

  it('a shared base fix is reported once, not once per model', () => {
    const notes: GatewayConfigNote[] = [];
    patternAEntries(
      {
        gatewayKind: 'openai-compatible',
        provider: 'anthropic',
        apiBase: 'http://bifrost:8080',
        apiKey: { env: 'K' },
        models: [
          { modelName: 'a', upstreamModel: 'a1' },
          { modelName: 'b', upstreamModel: 'b1', provider: 'openai' },
        ],
      },
      { onNote: (n) => notes.push(n) },
    );
    expect(codes(notes).filter((c) => c === 'api-base-v1-added')).toHaveLength(1);
  });

  it('a model may override the provider', () => {
    const [a, b] = patternAEntries({
      gatewayKind: 'openai-compatible',
      provider: 'anthropic',
      apiBase: 'https://gw.example.com/v1',
      apiKey: { env: 'K' },
      models: [
        { modelName: 'a', upstreamModel: 'claude' },
        { modelName: 'b', upstreamModel: 'gpt-4o', provider: 'openai' },
      ],
    });
    expect([a!.gateway_params.model, b!.gateway_params.model]).toEqual([
      'compat/anthropic/claude',
      'compat/openai/gpt-4o',
    ]);
  });

  it('names each bad model by index, and a shared field once', () => {
    const error = rejection(() =>
      patternAEntries({
        gatewayKind: 'same-kind',
        apiBase: 'ftp://x',
        apiKey: { env: 'K' },
        models: [
          { modelName: 'ok', upstreamModel: 'ok' },
          { modelName: '', upstreamModel: 'gateway_proxy/x' },
          { modelName: 'ok', upstreamModel: 'y' },
        ],
      }),
    );
    const paths = error.issues.map((i) => i.path.join('.'));
    expect(paths).toContain('models.1.modelName');
    expect(paths).toContain('models.1.upstreamModel');
    expect(paths).toContain('models.2.modelName');
    expect(paths.filter((p) => p === 'apiBase')).toHaveLength(1);
  });

  it('needs at least one model', () => {
    expect(rejection(() => patternAEntries({ models: [] } as never)).issues[0]!.path).toEqual(['models']);
  });
});

describe('Pattern B', () => {
  it('the wildcard entry is model_name "*" and compat/*, as the docs example (fixture block 8)', () => {
    const { config, yaml } = buildProxyConfig({
      wildcard: { apiBase: 'http://bifrost:8080/v1', apiKey: { env: 'BIFROST_KEY' } },
    });
    expect(config).toEqual(blocks.get(8));
    expect(parse(yaml)).toEqual(blocks.get(8));
    expect(yaml).toContain('model_name: "*"');
  });

  it('reports every warning of the spec', () => {
    const { notes } = buildProxyConfig({
      wildcard: { apiBase: 'http://bifrost:8080/v1', apiKey: { env: 'K' } },
    });
    const warnings = notes.filter((n) => n.level === 'warning');
    expect(codes(warnings)).toEqual(
      expect.arrayContaining([
        'pattern-b-not-recommended',
        'pattern-b-model-list-size',
        'pattern-b-bare-name-400',
        'pattern-b-unknown-forwarded',
      ]),
    );
    const text = warnings.map((n) => n.message).join('\n');
    expect(text).toMatch(/not recommended/);
    expect(text).toMatch(/200 or more entries/);
    expect(text).toMatch(/literal "\*"/);
    expect(text).toMatch(/bare model name yields HTTP 400/);
    expect(text).toMatch(/forwarded verbatim/);
    expect(text).toMatch(/compat\/<model>/);
  });

  it('wildcardGatewayEntry reports the warnings through onNote and adds /v1', () => {
    const notes: GatewayConfigNote[] = [];
    const entry = wildcardGatewayEntry(
      { apiBase: 'https://gw.example.com', apiKey: 'k-1' },
      { onNote: (n) => notes.push(n) },
    );
    expect(entry).toEqual({
      model_name: '*',
      gateway_params: { model: 'compat/*', api_base: 'https://gw.example.com/v1', api_key: 'k-1' },
    });
    expect(codes(notes)).toEqual([...PATTERN_B_WARNINGS.map((w) => w.code), 'api-base-v1-added']);
  });

  it('can sit beside Pattern A entries', () => {
    const { config } = buildProxyConfig({
      entries: patternA(),
      wildcard: { apiBase: 'http://bifrost:8080/v1', apiKey: { env: 'K' } },
    });
    expect(config.proxy_config.model_list.map((e) => e.model_name)).toEqual([
      'claude-sonnet-4-5',
      'claude-haiku-4-5',
      'gpt-4o',
      '*',
    ]);
  });

  it('refuses a wildcard hidden among the entries', () => {
    const error = rejection(() =>
      buildProxyConfig({
        entries: [wildcardGatewayEntry({ apiBase: 'https://gw.example.com/v1', apiKey: 'k' })],
      }),
    );
    expect(error.issues[0]!.path).toEqual(['entries', 0]);
  });

  it('a bad wildcard base is named under wildcard', () => {
    const error = rejection(() => buildProxyConfig({ wildcard: { apiBase: 'ftp://x', apiKey: 'k' } }));
    expect(error.issues[0]!.path).toEqual(['wildcard', 'apiBase']);
  });
});

describe('Recipe 1 — per-team keys', () => {
  it('one entry per team key, as the docs example (fixture block 10)', () => {
    const notes: GatewayConfigNote[] = [];
    const entries = perTeamModelEntries(
      {
        modelName: 'claude-sonnet-4-5',
        upstreamModel: 'claude-sonnet-4-5-20250929',
        gatewayKind: 'same-kind',
        apiBase: 'http://external-gateway:4000',
        teams: [
          { team: 'alpha', apiKey: { env: 'TEAM_ALPHA_KEY' } },
          { team: 'beta', apiKey: { env: 'TEAM_BETA_KEY' } },
        ],
      },
      { onNote: (n) => notes.push(n) },
    );
    expect(buildProxyConfig({ entries }).config).toEqual(blocks.get(10));
    expect(codes(notes)).toContain('recipe-1-scaling');
  });

  it('names a bad team and a bad team key by index', () => {
    const error = rejection(() =>
      perTeamModelEntries({
        modelName: 'm',
        upstreamModel: 'u',
        gatewayKind: 'same-kind',
        apiBase: 'http://gw:4000',
        teams: [
          { team: 'bad team', apiKey: { env: 'A' } },
          { team: 'ok', apiKey: { env: '9' } },
        ],
      }),
    );
    expect(error.issues.map((i) => i.path.join('.'))).toEqual(['teams.0.team', 'teams.1.apiKey']);
  });
});

describe('header forwarding switch ("Deployment switches")', () => {
  it('forwardClientHeaders writes general_settings.forward_client_headers_to_llm_api: true (fixture block 11)', () => {
    const { config, yaml } = buildProxyConfig({ entries: patternA(), forwardClientHeaders: true });
    const expected = blocks.get(11) as { proxy_config: { general_settings: unknown } };
    expect(config.proxy_config.general_settings).toEqual(expected.proxy_config.general_settings);
    expect(yaml).toMatch(/general_settings:\n {4}forward_client_headers_to_llm_api: true\n/);
  });

  it('without it, the setting is absent and a note says headers are not forwarded', () => {
    const { config, notes } = buildProxyConfig({ entries: patternA() });
    expect(config.proxy_config.general_settings).toBeUndefined();
    expect(codes(notes)).toContain('headers-not-forwarded');
  });
});

describe('buildProxyConfig checks', () => {
  it('warns about a key written in plaintext', () => {
    const entry = gatewayModelEntry({
      modelName: 'm',
      upstreamModel: 'u',
      gatewayKind: 'same-kind',
      apiBase: 'http://gw:4000',
      apiKey: 'sk-literal-1',
    });
    const { notes } = buildProxyConfig({ entries: [entry] });
    expect(notes.find((n) => n.code === 'plaintext-api-key')?.path).toEqual([
      'model_list',
      0,
      'gateway_params',
      'api_key',
    ]);
  });

  it('warns when two entries share a model_name', () => {
    const [a] = patternA();
    const { notes } = buildProxyConfig({ entries: [a!, { ...a! }] });
    expect(codes(notes)).toContain('duplicate-model-name');
  });

  it('rejects an empty model list and malformed entries', () => {
    expect(rejection(() => buildProxyConfig({})).issues[0]!.path).toEqual(['entries']);
    const error = rejection(() =>
      buildProxyConfig({ entries: [{ model_name: 'x', gateway_params: { model: 'm' } } as never] }),
    );
    expect(error.issues[0]!.path).toEqual(['entries', 0]);
  });
});

describe('lintGatewayModelEntry on hand-written entries', () => {
  const entry = (model: string, apiBase: string) => ({
    model_name: 'm',
    gateway_params: { model, api_base: apiBase, api_key: 'os.environ/K' },
  });

  it.each([
    ['gateway_proxy/x', 'http://gw:4000', []],
    ['gateway_proxy/x', 'http://gw:4000/v1', ['same-kind-api-base-v1']],
    ['gateway_proxy/x', 'http://gw:4000/v1/', ['same-kind-api-base-v1']],
    ['compat/p/x', 'http://gw:8080/v1', []],
    ['compat/p/x', 'http://gw:8080', ['compat-api-base-missing-v1']],
    ['compat/x', 'http://gw:8080/v1', ['compat-missing-provider']],
    ['compat/*', 'http://gw:8080/v1', []],
    ['anthropic/claude', 'https://api.example.com', []],
  ])('%s at %s → %j', (model, apiBase, expected) => {
    expect(codes(lintGatewayModelEntry(entry(model, apiBase)))).toEqual(expected);
  });
});

describe('YAML output', () => {
  it('is parsed back to the same object for the whole recipe set', () => {
    const { config, yaml } = buildProxyConfig({
      entries: [
        ...patternA(),
        gatewayModelEntry({
          modelName: 'claude-sonnet-4-5-via-bifrost',
          upstreamModel: 'claude-sonnet-4-5-20250929',
          gatewayKind: 'openai-compatible',
          provider: 'anthropic',
          apiBase: 'http://bifrost:8080/v1',
          apiKey: { env: 'BIFROST_KEY' },
        }),
      ],
      wildcard: { apiBase: 'http://bifrost:8080/v1', apiKey: { env: 'BIFROST_KEY' } },
      forwardClientHeaders: true,
    });
    expect(parse(yaml)).toEqual(config);
    expect(yaml.startsWith('proxy_config:\n  model_list:\n    - model_name: claude-sonnet-4-5\n')).toBe(true);
  });

  it('round-trips any model names and keys (property)', () => {
    const text = fc.oneof(
      fc.string(),
      fc.string({ unit: 'grapheme' }),
      fc.constantFrom(
        'yes',
        'No',
        'null',
        '~',
        'true',
        '1.5',
        '0x1F',
        '-',
        '- a',
        'a: b',
        '#x',
        '*',
        '&a',
        '!t',
        '"',
        "'",
        '',
      ),
    );
    fc.assert(
      fc.property(text, text, text, (name, model, key) => {
        // A "*" name or a model ending in "/*" is Pattern B, refused among the entries (tested above).
        fc.pre(name.trim() !== '' && name !== '*' && !`/${model}`.endsWith('/*'));
        const entry = {
          model_name: name,
          gateway_params: {
            model: `compat/p/${model}`,
            api_base: 'https://gw.example.com/v1',
            api_key: key || 'k',
          },
        };
        const { config, yaml } = buildProxyConfig({ entries: [entry], forwardClientHeaders: true });
        expect(parse(yaml)).toEqual(config);
      }),
      { numRuns: 300 },
    );
  });
});
