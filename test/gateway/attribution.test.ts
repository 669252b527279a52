import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isRequestValidationError, type RequestValidationError } from '../../src/core/errors.js';
import { SESSION_ID_HEADER, SPEND_LOGS_METADATA_HEADER } from '../../src/gateway/attribution-headers.js';
import type { GatewayConfigNote } from '../../src/gateway/index.js';
import {
  forwardedClientHeaders,
  isForwardedClientHeader,
  parseSpendLogsMetadataHeader,
  profileExtraHeaders,
  spendLogsMetadataHeader,
  staticAuthHeadersOption,
} from '../../src/gateway/index.js';
import { neutral, readJsonFixture } from './fixtures.js';

const bodies = neutral(readJsonFixture('ohe-request-bodies.ohe-docs.json')) as {
  llm_profile_post_bodies: { llm: { extra_headers: Record<string, string> } }[];
  custom_llm_extra_headers_example: Record<string, string>;
};
const codes = (notes: GatewayConfigNote[]) => notes.map((n) => n.code);

function rejection(run: () => unknown): RequestValidationError {
  try {
    run();
  } catch (error) {
    expect(isRequestValidationError(error)).toBe(true);
    return error as RequestValidationError;
  }
  throw new Error('expected a RequestValidationError');
}

describe('header forwarding rule ("Deployment switches")', () => {
  it.each([
    ['x-team-id', true],
    ['X-OpenHands-User-Id', true],
    ['x-gateway-session-id', true],
    ['x-gateway-spend-logs-metadata', true],
    ['X-Tenant-Id', true],
    ['x-', true],
    ['x-stainless-os', false],
    ['X-Stainless-Retry-Count', false],
    ['x-stainless-', false],
    ['authorization', false],
    ['Content-Type', false],
    ['user-agent', false],
    ['Ocp-Apim-Subscription-Key', false],
    ['anthropic-beta', true],
    ['anthropic-version', false],
    ['x-api-key', false],
    ['X-Goog-Api-Key', false],
    ['x-gateway-api-key', false],
    ['x-mcp-auth', false],
    ['x-mcp-servers', false],
    ['x-mcp-access-groups', false],
    ['x-stainlessfoo', false],
    ['xstainless', false],
    ['x_team', false],
  ])('%s → forwarded: %s', (name, expected) => {
    expect(isForwardedClientHeader(name)).toBe(expected);
  });

  it('forwards nothing when forwarding is off', () => {
    expect(forwardedClientHeaders({ 'x-a': '1' }, { forwardingEnabled: false })).toEqual({});
  });

  it('keeps exactly the x-* headers that are not x-stainless* or denied, plus anthropic-beta, in any case (property)', () => {
    const name = fc.oneof(
      fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,20}$/),
      fc.stringMatching(/^[xX]-[A-Za-z0-9-]{0,20}$/),
      fc.stringMatching(/^[xX]-[sS][tT][aA][iI][nN][lL][eE][sS][sS]-[a-z-]{0,10}$/),
      fc.constantFrom('x-api-key', 'X-MCP-Servers', 'anthropic-beta', 'Anthropic-Beta-2', 'x-goog-api-key'),
    );
    fc.assert(
      fc.property(fc.dictionary(name, fc.string()), (headers) => {
        const kept = forwardedClientHeaders(headers);
        for (const [key, value] of Object.entries(headers)) {
          const lower = key.toLowerCase();
          const denied = [
            'x-api-key',
            'x-goog-api-key',
            'x-gateway-api-key',
            'x-mcp-auth',
            'x-mcp-servers',
            'x-mcp-access-groups',
          ];
          const expected =
            (lower.startsWith('x-') && !lower.startsWith('x-stainless') && !denied.includes(lower)) ||
            lower.startsWith('anthropic-beta');
          expect(key in kept).toBe(expected);
          if (expected) expect(kept[key]).toBe(value);
        }
      }),
    );
  });
});

describe('recipe 2 — per-profile headers', () => {
  it('builds the docs example extra_headers unchanged (fixture profile body 1)', () => {
    const expected = bodies.llm_profile_post_bodies[0]!.llm.extra_headers;
    const { extra_headers, notes } = profileExtraHeaders({ headers: expected });
    expect(extra_headers).toEqual(expected);
    expect(codes(notes)).toEqual(['forwarding-required']);
  });

  it('warns about headers the gateway will not forward', () => {
    const { notes } = profileExtraHeaders({
      headers: { 'Team-Id': 'a', 'x-stainless-arch': 'x', 'x-ok': '1' },
    });
    const notForwarded = notes.filter((n) => n.code === 'header-not-forwarded').map((n) => n.path);
    expect(notForwarded).toEqual([
      ['headers', 'Team-Id'],
      ['headers', 'x-stainless-arch'],
    ]);
  });

  it('warns that x-gateway-session-id is overwritten at call time', () => {
    const { extra_headers, notes } = profileExtraHeaders({ headers: { 'X-Gateway-Session-Id': 'mine' } });
    const note = notes.find((n) => n.code === 'session-id-overwritten');
    expect(note?.level).toBe('warning');
    expect(note?.message).toMatch(/overwritten at call time with the conversation id/);
    expect(note?.message).toMatch(/tracing, not attribution/);
    expect(extra_headers).toEqual({ 'X-Gateway-Session-Id': 'mine' });
  });

  it('G10: warns that x-gateway-trace-id replaces the conversation id as the spend-log session id', () => {
    const { notes } = profileExtraHeaders({ headers: { 'X-Gateway-Trace-Id': 'team-trace' } });
    const note = notes.find((n) => n.code === 'trace-id-replaces-session-id');
    expect(note).toMatchObject({ level: 'warning', path: ['headers', 'X-Gateway-Trace-Id'] });
    expect(note?.message).toMatch(/spend logs/);
  });

  it('G10: says another x-*-session-id is only the fallback the platform SDK never leaves to it', () => {
    const { notes } = profileExtraHeaders({
      headers: { 'x-acme-session-id': 'abcdefgh12', 'x-short-session-id': 'abc' },
    });
    const fallback = notes.filter((n) => n.code === 'session-id-fallback-unused');
    expect(fallback.map((n) => n.path)).toEqual([['headers', 'x-acme-session-id']]);
    expect(fallback[0]?.level).toBe('info');
  });

  it("warns that x-gateway-api-key replaces the caller's key at the built-in gateway", () => {
    const { notes } = profileExtraHeaders({ headers: { 'X-Gateway-Api-Key': 'sk-team' } });
    const note = notes.find((n) => n.code === 'gateway-key-header');
    expect(note).toMatchObject({ level: 'warning', path: ['headers', 'X-Gateway-Api-Key'] });
    expect(note?.message).toMatch(/caller's key/);
    expect(codes(notes)).not.toContain('header-not-forwarded');
  });

  it('says nothing is forwarded when forwarding is off', () => {
    const { notes } = profileExtraHeaders({ headers: { 'x-a': '1' } }, { forwardingEnabled: false });
    expect(codes(notes)).toEqual(['forwarding-disabled']);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a name with a space', { 'x team': 'a' }, 'x team'],
    ['an empty name', { '': 'a' }, ''],
    ['a name with a colon', { 'x-a:': 'a' }, 'x-a:'],
    ['a value with CRLF', { 'x-a': 'a\r\nx-b: 1' }, 'x-a'],
    ['a value with NUL', { 'x-a': 'a\0' }, 'x-a'],
    ['a number value', { 'x-a': 1 }, 'x-a'],
    ['an object value', { 'x-a': { b: 1 } }, 'x-a'],
    ['a name repeated in another case', { 'x-a': '1', 'X-A': '2' }, 'X-A'],
  ])('rejects %s', (_label, headers, name) => {
    const error = rejection(() => profileExtraHeaders({ headers: headers as Record<string, string> }));
    expect(error.issues.map((i) => i.path)).toEqual([['headers', name]]);
  });

  it('names every bad header at once', () => {
    const error = rejection(() =>
      profileExtraHeaders({ headers: { 'a b': 'x', 'x-c': 2 as never, 'x-d': 'ok' } }),
    );
    expect(error.issues.map((i) => i.path[1])).toEqual(['a b', 'x-c']);
  });
});

describe('recipe 4 — spend metadata header', () => {
  it('serialises the metadata to a JSON string, as the docs example (fixture profile body 2)', () => {
    const expected = bodies.llm_profile_post_bodies[1]!.llm.extra_headers;
    const { extra_headers, notes } = profileExtraHeaders({
      spendLogsMetadata: { openhands_user_id: 'alice', project: 'trade-confirm-demo' },
    });
    expect(extra_headers).toEqual(expected);
    expect(typeof extra_headers[SPEND_LOGS_METADATA_HEADER]).toBe('string');
    expect(codes(notes)).toContain('spend-metadata-same-kind-only');
  });

  it('accepts the header already serialised, and validates it', () => {
    const value = '{"team":"alpha"}';
    expect(profileExtraHeaders({ headers: { [SPEND_LOGS_METADATA_HEADER]: value } }).extra_headers).toEqual({
      [SPEND_LOGS_METADATA_HEADER]: value,
    });
  });

  it.each<[string, unknown]>([
    ['a nested object', { team: 'alpha' }],
    ['an array', ['a']],
    ['JSON text of an array', '["a"]'],
    ['JSON text of a string', '"a"'],
    ['text that is not JSON', '{team: alpha}'],
    ['null', null],
  ])('rejects %s as the header value', (_label, value) => {
    const error = rejection(() =>
      profileExtraHeaders({ headers: { [SPEND_LOGS_METADATA_HEADER]: value as string } }),
    );
    expect(error.issues[0]!.path).toEqual(['headers', SPEND_LOGS_METADATA_HEADER]);
  });

  it('the nested-object mistake says to serialise', () => {
    expect(() => parseSpendLogsMetadataHeader({ a: 1 })).toThrow(
      /must be a JSON string, not a nested object/,
    );
  });

  it.each<[string, unknown, (string | number)[]]>([
    ['NaN', { a: Number.NaN }, ['spendLogsMetadata', 'a']],
    ['Infinity deep inside', { a: [1, { b: Number.POSITIVE_INFINITY }] }, ['spendLogsMetadata', 'a', 1, 'b']],
    ['undefined', { a: undefined }, ['spendLogsMetadata', 'a']],
    ['a function', { a: () => 1 }, ['spendLogsMetadata', 'a']],
    ['a bigint', { a: 1n }, ['spendLogsMetadata', 'a']],
    ['a Date', { a: new Date(0) }, ['spendLogsMetadata', 'a']],
    ['a Map', { a: new Map() }, ['spendLogsMetadata', 'a']],
  ])('rejects metadata holding %s', (_label, metadata, path) => {
    const error = rejection(() => profileExtraHeaders({ spendLogsMetadata: metadata as never }));
    expect(error.issues.map((i) => i.path)).toEqual([path]);
  });

  it('rejects a cycle and a non-object', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(rejection(() => spendLogsMetadataHeader(cyclic as never)).message).toMatch(/cycle/);
    expect(rejection(() => spendLogsMetadataHeader([] as never)).issues[0]!.path).toEqual([
      'spendLogsMetadata',
    ]);
    expect(rejection(() => spendLogsMetadataHeader('{}' as never)).issues[0]!.path).toEqual([
      'spendLogsMetadata',
    ]);
  });

  it('rejects the metadata given twice', () => {
    const error = rejection(() =>
      profileExtraHeaders({ headers: { [SPEND_LOGS_METADATA_HEADER]: '{}' }, spendLogsMetadata: { a: 1 } }),
    );
    expect(error.issues[0]!.path).toEqual(['spendLogsMetadata']);
  });

  it('serialise then parse gives the metadata back (property)', () => {
    const metadata = fc.dictionary(fc.string(), fc.jsonValue()).map((v) => JSON.parse(JSON.stringify(v)));
    fc.assert(
      fc.property(metadata, (value) => {
        const text = spendLogsMetadataHeader(value);
        expect(typeof text).toBe('string');
        expect(parseSpendLogsMetadataHeader(text)).toEqual(value);
      }),
    );
  });

  it('the session header constant is the neutral name', () => {
    expect(SESSION_ID_HEADER).toBe('x-gateway-session-id');
  });
});

describe('recipe 3 — static auth headers', () => {
  it('gives the installer option as JSON text, as the docs example, with its limits', () => {
    const headers = bodies.custom_llm_extra_headers_example;
    const { value, notes } = staticAuthHeadersOption(headers);
    expect(JSON.parse(value)).toEqual({ 'Ocp-Apim-Subscription-Key': 'abc123', 'X-Tenant-Id': 'prod' });
    expect(codes(notes)).toEqual(['recipe-3-custom-llm-only', 'recipe-3-same-for-all', 'recipe-3-plaintext']);
  });

  it('rejects bad names and values', () => {
    const error = rejection(() => staticAuthHeadersOption({ 'a b': 'x', ok: 'a\nb' }));
    expect(error.issues.map((i) => i.path[1])).toEqual(['a b', 'ok']);
  });
});
