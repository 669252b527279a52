import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { toYaml } from '../../src/core/yaml.js';

describe('toYaml', () => {
  it('writes block mappings and sequences the installer reads', () => {
    expect(
      toYaml({
        proxy_config: { model_list: [{ model_name: 'a', gateway_params: { model: 'compat/*' } }], count: 1 },
      }),
    ).toBe(
      [
        'proxy_config:',
        '  model_list:',
        '    - model_name: a',
        '      gateway_params:',
        '        model: "compat/*"',
        '  count: 1',
        '',
      ].join('\n'),
    );
  });

  it.each([
    ['os.environ/EXTERNAL_GW_KEY', 'os.environ/EXTERNAL_GW_KEY'],
    ['http://gw:4000/v1', 'http://gw:4000/v1'],
    ['gateway_proxy/claude-sonnet-4-5-20250929', 'gateway_proxy/claude-sonnet-4-5-20250929'],
    ['*', '"*"'],
    ['yes', '"yes"'],
    ['Off', '"Off"'],
    ['null', '"null"'],
    ['~', '"~"'],
    ['n', '"n"'],
    ['Y', '"Y"'],
    ['4000', '"4000"'],
    ['1e3', '"1e3"'],
    ['.inf', '".inf"'],
    ['2026-01-01', '"2026-01-01"'],
    ['a: b', '"a: b"'],
    ['a #b', '"a #b"'],
    ['key:', '"key:"'],
    ['', '""'],
    ['line\nbreak', '"line\\nbreak"'],
  ])('%j is written as %s', (input, expected) => {
    expect(toYaml(input).trimEnd()).toBe(expected);
  });

  it('writes empty nodes inline and skips undefined', () => {
    expect(toYaml({ a: [], b: {}, c: undefined, d: null })).toBe('a: []\nb: {}\nd: null\n');
  });

  it('refuses numbers YAML cannot carry', () => {
    expect(() => toYaml({ a: Number.NaN })).toThrow(/cannot write NaN as YAML/);
  });

  it('any JSON value parses back equal (property)', () => {
    const value = fc
      .jsonValue()
      .map((v) => JSON.parse(JSON.stringify(v, (_k, x) => (Object.is(x, -0) ? 0 : x))));
    fc.assert(
      fc.property(fc.dictionary(fc.string(), value), (doc) => {
        expect(parse(toYaml(doc))).toEqual(doc);
      }),
      { numRuns: 300 },
    );
  });

  it('any grapheme string parses back equal, as key and as value (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }), (key, value) => {
        expect(parse(toYaml({ [key]: [value, { [value]: key }] }))).toEqual({
          [key]: [value, { [value]: key }],
        });
      }),
      { numRuns: 300 },
    );
  });
});
