import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isRequestValidationError, type RequestValidationError } from '../../src/core/errors.js';
import type { GatewayConfigNote } from '../../src/gateway/index.js';
import {
  explainGatewayModelEntry,
  type GatewayModelEntryInput,
  gatewayModelEntry,
} from '../../src/gateway/index.js';
import { configBlocks } from './fixtures.js';

const blocks = configBlocks();

const sameKind = (over: Partial<GatewayModelEntryInput> = {}): GatewayModelEntryInput => ({
  modelName: 'claude-sonnet-4-5-via-gateway',
  upstreamModel: 'claude-sonnet-4-5-20250929',
  gatewayKind: 'same-kind',
  apiBase: 'http://external-gateway:4000',
  apiKey: { env: 'EXTERNAL_GATEWAY_KEY' },
  ...over,
});

const compat = (over: Partial<GatewayModelEntryInput> = {}): GatewayModelEntryInput => ({
  modelName: 'claude-sonnet-4-5-via-bifrost',
  upstreamModel: 'claude-sonnet-4-5-20250929',
  gatewayKind: 'openai-compatible',
  provider: 'anthropic',
  apiBase: 'http://bifrost:8080/v1',
  apiKey: { env: 'BIFROST_KEY' },
  ...over,
});

function rejection(input: unknown): RequestValidationError {
  try {
    gatewayModelEntry(input as GatewayModelEntryInput);
  } catch (error) {
    expect(isRequestValidationError(error)).toBe(true);
    return error as RequestValidationError;
  }
  throw new Error('expected a RequestValidationError');
}

const codes = (notes: GatewayConfigNote[]) => notes.map((n) => n.code);

describe('gatewayModelEntry, row gateway_params.model', () => {
  it('same-kind gateway: gateway_proxy/<model-on-gateway>', () => {
    expect(gatewayModelEntry(sameKind()).gateway_params.model).toBe(
      'gateway_proxy/claude-sonnet-4-5-20250929',
    );
  });

  it('OpenAI-compatible gateway: compat/<provider>/<model-on-gateway>', () => {
    expect(gatewayModelEntry(compat()).gateway_params.model).toBe(
      'compat/anthropic/claude-sonnet-4-5-20250929',
    );
  });

  it('builds exactly the two entries of the docs example (fixture block 3)', () => {
    const expected = (blocks.get(3) as { proxy_config: { model_list: unknown[] } }).proxy_config.model_list;
    expect([gatewayModelEntry(sameKind()), gatewayModelEntry(compat())]).toEqual(expected);
  });

  it('matches the per-kind templates of the docs (fixture blocks 5 and 6)', () => {
    expect([
      gatewayModelEntry({
        modelName: 'any-friendly-name-for-openhands',
        upstreamModel: 'model-name-on-external-gateway',
        gatewayKind: 'same-kind',
        apiBase: 'http://external-gateway:4000',
        apiKey: 'external-gateway-key',
      }),
    ]).toEqual(blocks.get(5));
    expect([
      gatewayModelEntry({
        modelName: 'any-friendly-name-for-openhands',
        upstreamModel: 'model-on-bifrost',
        gatewayKind: 'openai-compatible',
        provider: 'provider',
        apiBase: 'http://bifrost:8080/v1',
        apiKey: 'bifrost-key',
      }),
    ]).toEqual(blocks.get(6));
  });

  it('keeps slashes of a same-kind model name verbatim (the gateway names it)', () => {
    expect(gatewayModelEntry(sameKind({ upstreamModel: 'team/claude' })).gateway_params.model).toBe(
      'gateway_proxy/team/claude',
    );
  });
});

describe('gatewayModelEntry, row gateway_params.api_base', () => {
  it.each([
    ['http://external-gateway:4000', 'http://external-gateway:4000', []],
    ['http://external-gateway:4000/', 'http://external-gateway:4000', ['api-base-trailing-slash-removed']],
    ['http://external-gateway:4000/v1', 'http://external-gateway:4000', ['api-base-v1-removed']],
    [
      'http://external-gateway:4000/v1/',
      'http://external-gateway:4000',
      ['api-base-trailing-slash-removed', 'api-base-v1-removed'],
    ],
    ['https://gw.example.com/llm/v1', 'https://gw.example.com/llm', ['api-base-v1-removed']],
    ['https://gw.example.com/llm', 'https://gw.example.com/llm', []],
  ])('same-kind: %s → %s (no /v1 suffix; /v1/chat/completions is appended)', (input, expected, noteCodes) => {
    const notes: GatewayConfigNote[] = [];
    const entry = gatewayModelEntry(sameKind({ apiBase: input }), { onNote: (n) => notes.push(n) });
    expect(entry.gateway_params.api_base).toBe(expected);
    expect(entry.gateway_params.api_base.endsWith('/v1')).toBe(false);
    expect(codes(notes)).toEqual(noteCodes);
  });

  it.each([
    ['http://bifrost:8080/v1', 'http://bifrost:8080/v1', []],
    ['http://bifrost:8080/v1/', 'http://bifrost:8080/v1', ['api-base-trailing-slash-removed']],
    ['http://bifrost:8080', 'http://bifrost:8080/v1', ['api-base-v1-added']],
    [
      'http://bifrost:8080/',
      'http://bifrost:8080/v1',
      ['api-base-trailing-slash-removed', 'api-base-v1-added'],
    ],
    ['https://api.example.com/openai', 'https://api.example.com/openai/v1', ['api-base-v1-added']],
  ])('OpenAI-compatible: %s → %s (must end in /v1, not auto-appended)', (input, expected, noteCodes) => {
    const { entry, notes } = explainGatewayModelEntry(compat({ apiBase: input }));
    expect(entry.gateway_params.api_base).toBe(expected);
    expect(entry.gateway_params.api_base.endsWith('/v1')).toBe(true);
    expect(codes(notes).filter((c) => c.startsWith('api-base'))).toEqual(noteCodes);
  });

  it('each correction note names the field and says why', () => {
    const { notes } = explainGatewayModelEntry(sameKind({ apiBase: 'http://gw:4000/v1' }));
    expect(notes[0]).toMatchObject({ level: 'info', path: ['apiBase'] });
    expect(notes[0]!.message).toMatch(/without \/v1.*\/chat\/completions/);
  });
});

describe('gatewayModelEntry, row preserved features', () => {
  it('an OpenAI-compatible entry says same-kind features are not preserved', () => {
    const { notes } = explainGatewayModelEntry(compat());
    const note = notes.find((n) => n.code === 'compat-standard-calls-only');
    expect(note?.message).toMatch(/virtual-key headers, spend tracking and team\/org metadata/);
  });

  it('a same-kind entry has no such note', () => {
    expect(codes(explainGatewayModelEntry(sameKind()).notes)).not.toContain('compat-standard-calls-only');
  });
});

describe('gatewayModelEntry — api_key', () => {
  it('{ env } becomes os.environ/VAR', () => {
    expect(gatewayModelEntry(sameKind({ apiKey: { env: 'GW_KEY_2' } })).gateway_params.api_key).toBe(
      'os.environ/GW_KEY_2',
    );
  });

  it('a string os.environ/VAR is a reference, as LiteLLM reads it (config file and /model/new alike)', () => {
    const { entry } = explainGatewayModelEntry(sameKind({ apiKey: 'os.environ/GW_KEY' }));
    expect(entry.gateway_params.api_key).toBe('os.environ/GW_KEY');
  });

  it('a literal key and an existing reference are kept', () => {
    expect(gatewayModelEntry(sameKind({ apiKey: 'sk-abc123' })).gateway_params.api_key).toBe('sk-abc123');
    expect(gatewayModelEntry(sameKind({ apiKey: 'os.environ/K' })).gateway_params.api_key).toBe(
      'os.environ/K',
    );
  });

  it.each([
    [{ env: '' }],
    [{ env: '1ABC' }],
    [{ env: 'A-B' }],
    [{}],
    [''],
    ['   '],
    ['sk abc'],
    ['os.environ/'],
    ['os.environ/bad-name'],
    // LiteLLM would fetch an OIDC token for this one, not read a variable.
    ['os.environ/oidc/google/https://gw.example'],
    // Read by LiteLLM as literal keys, though they look like references (issue 23 item 12).
    ['OS.ENVIRON/GW_KEY'],
    ['os.environ.GW_KEY'],
    [`\${GW_KEY}`],
    ['$GW_KEY'],
    ['env:GW_KEY'],
    [42],
    [null],
  ])('rejects %j', (apiKey) => {
    const error = rejection(sameKind({ apiKey: apiKey as never }));
    expect(error.issues.map((i) => i.path)).toEqual([['apiKey']]);
  });

  it('never puts a literal key in the error message', () => {
    const error = rejection(sameKind({ apiKey: 'sk-secret value' }));
    expect(error.message).not.toContain('sk-secret');
  });
});

describe('gatewayModelEntry — bad input is a RequestValidationError naming the field', () => {
  it.each<[string, Partial<GatewayModelEntryInput>, (string | number)[]]>([
    ['empty model name', { modelName: '' }, ['modelName']],
    ['blank model name', { modelName: '   ' }, ['modelName']],
    ['padded model name', { modelName: ' gpt-4o' }, ['modelName']],
    ['wildcard model name', { modelName: '*' }, ['modelName']],
    ['empty upstream model', { upstreamModel: '' }, ['upstreamModel']],
    ['upstream model with a space', { upstreamModel: 'claude sonnet' }, ['upstreamModel']],
    [
      'upstream model already prefixed gateway_proxy/',
      { upstreamModel: 'gateway_proxy/claude' },
      ['upstreamModel'],
    ],
    [
      'upstream model already prefixed compat/',
      { upstreamModel: 'compat/anthropic/claude' },
      ['upstreamModel'],
    ],
    ['unknown gateway kind', { gatewayKind: 'bifrost' as never }, ['gatewayKind']],
    ['ftp base', { apiBase: 'ftp://gw:21' }, ['apiBase']],
    ['relative base', { apiBase: 'gw:4000' }, ['apiBase']],
    ['placeholder base', { apiBase: 'http://<external-gateway>:4000' }, ['apiBase']],
    ['base with credentials', { apiBase: 'https://user:pw@gw.example.com' }, ['apiBase']],
    ['base with a query', { apiBase: 'https://gw.example.com?key=1' }, ['apiBase']],
    ['an endpoint, not a base', { apiBase: 'https://gw.example.com/v1/chat/completions' }, ['apiBase']],
    ['plain http outside the cluster', { apiBase: 'http://gw.example.com:4000' }, ['apiBase']],
    ['plain http to a public IP', { apiBase: 'http://203.0.113.7:4000' }, ['apiBase']],
  ])('%s', (_label, over, path) => {
    const error = rejection(sameKind(over));
    expect(error.issues.map((i) => i.path)).toContainEqual(path);
    expect(error.message).toContain(path.join('.'));
  });

  it.each<[string, Partial<GatewayModelEntryInput>, (string | number)[]]>([
    ['missing provider', { provider: undefined }, ['provider']],
    ['provider with a slash', { provider: 'anthropic/claude' }, ['provider']],
    [
      'model already carrying the provider',
      { upstreamModel: 'anthropic/claude-sonnet-4-5' },
      ['upstreamModel'],
    ],
  ])('OpenAI-compatible: %s', (_label, over, path) => {
    expect(rejection(compat(over)).issues.map((i) => i.path)).toContainEqual(path);
  });

  it('names every bad field at once', () => {
    const error = rejection({
      modelName: '',
      upstreamModel: 'compat/x',
      gatewayKind: 'x',
      apiBase: 'nope',
      apiKey: '',
    });
    expect(error.issues.map((i) => i.path[0]).sort()).toEqual(
      ['apiBase', 'apiKey', 'gatewayKind', 'modelName', 'upstreamModel'].sort(),
    );
  });

  it('rejects a non-object', () => {
    expect(isRequestValidationError(rejection(null))).toBe(true);
  });
});

describe('gatewayModelEntry — plain http (security facts: HTTPS outside the cluster)', () => {
  it.each([
    'http://gw:4000',
    'http://openhands-gateway:4000',
    'http://gw.team.svc:4000',
    'http://gw.team.svc.cluster.local:4000',
    'http://localhost:4000',
    'http://127.0.0.1:4000',
    'http://10.0.3.4:4000',
    'http://172.20.0.9:4000',
    'http://192.168.1.20:4000',
    'http://[::1]:4000',
  ])('accepts %s, inside the cluster or machine', (apiBase) => {
    const { notes } = explainGatewayModelEntry(sameKind({ apiBase }));
    expect(codes(notes)).not.toContain('plain-http-external');
  });

  it.each([
    'http://gw.svc.evil.com:4000',
    'http://svc.example.com:4000',
    'http://gw.team.svc.cluster.local.evil.com:4000',
    'http://gw.cluster.local.example:4000',
    'http://10.0.0.1.nip.io:4000',
  ])('refuses %s, a look-alike of a cluster host on the internet', (apiBase) => {
    expect(rejection(sameKind({ apiBase })).message).toMatch(/outside the cluster/);
  });

  it('allowPlainHttp turns the error into a warning', () => {
    const { entry, notes } = explainGatewayModelEntry(
      sameKind({ apiBase: 'http://gw.example.com:4000', allowPlainHttp: true }),
    );
    expect(entry.gateway_params.api_base).toBe('http://gw.example.com:4000');
    expect(notes.find((n) => n.code === 'plain-http-external')?.level).toBe('warning');
  });

  it('https anywhere is fine', () => {
    expect(explainGatewayModelEntry(sameKind({ apiBase: 'https://gw.example.com' })).notes).toEqual([]);
  });
});

describe('gatewayModelEntry — properties', () => {
  const name = fc.stringMatching(/^[a-z0-9][a-z0-9.-]{0,30}$/);
  const host = fc.constantFrom('gw', 'gateway.example.com', 'gw.ns.svc.cluster.local', '10.1.2.3');
  const scheme = fc.constantFrom('http', 'https');
  const suffix = fc.constantFrom('', '/', '/v1', '/v1/', '/proxy', '/proxy/v1');

  it('same-kind: prefix gateway_proxy/, api_base never ends in /v1 or a slash', () => {
    fc.assert(
      fc.property(name, name, scheme, host, suffix, (friendly, upstream, s, h, tail) => {
        const entry = gatewayModelEntry(
          sameKind({
            modelName: friendly,
            upstreamModel: upstream,
            apiBase: `${s}://${h}${tail}`,
            allowPlainHttp: true,
          }),
        );
        expect(entry.model_name).toBe(friendly);
        expect(entry.gateway_params.model).toBe(`gateway_proxy/${upstream}`);
        expect(entry.gateway_params.api_base).toMatch(/[^/]$/);
        expect(entry.gateway_params.api_base.endsWith('/v1')).toBe(false);
        expect(entry.gateway_params.api_base.startsWith(`${s}://${h}`)).toBe(true);
      }),
    );
  });

  it('OpenAI-compatible: prefix compat/<provider>/, api_base ends in exactly one /v1', () => {
    fc.assert(
      fc.property(name, name, name, scheme, host, suffix, (friendly, provider, upstream, s, h, tail) => {
        fc.pre(!upstream.startsWith(`${provider}/`));
        const entry = gatewayModelEntry(
          compat({
            modelName: friendly,
            provider,
            upstreamModel: upstream,
            apiBase: `${s}://${h}${tail}`,
            allowPlainHttp: true,
          }),
        );
        expect(entry.gateway_params.model).toBe(`compat/${provider}/${upstream}`);
        expect(entry.gateway_params.api_base.endsWith('/v1')).toBe(true);
        expect(entry.gateway_params.api_base.endsWith('/v1/v1')).toBe(false);
      }),
    );
  });

  it('is idempotent on its own output base', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<'same-kind' | 'openai-compatible'>('same-kind', 'openai-compatible'),
        suffix,
        (kind, tail) => {
          const build = (apiBase: string) =>
            gatewayModelEntry({ ...compat(), gatewayKind: kind, apiBase }).gateway_params.api_base;
          const once = build(`https://gw.example.com${tail}`);
          expect(build(once)).toBe(once);
        },
      ),
    );
  });
});
