import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

const DIR = new URL('../fixtures/gateway-runtime-tracing/', import.meta.url);

/**
 * The fixtures keep the real product names; the SDK uses the spec's neutral ones (spec naming note, notes
 * header): `litellm_params` → `gateway_params`, `litellm_proxy/` → `gateway_proxy/`, `openai/` → `compat/`,
 * `x-litellm-*` → `x-gateway-*`. Placeholder hosts such as `<bifrost>` become plain host names.
 */
export function neutral(value: unknown): unknown {
  if (typeof value === 'string') {
    return value
      .replace(/^litellm_proxy\//, 'gateway_proxy/')
      .replace(/^openai\//, 'compat/')
      .replace(/^x-litellm-/i, 'x-gateway-')
      .replace(/<([a-z-]+)>/g, '$1');
  }
  if (Array.isArray(value)) return value.map(neutral);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key === 'litellm_params' ? 'gateway_params' : (neutral(key) as string),
        neutral(item),
      ]),
    );
  }
  return value;
}

export function readJsonFixture(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(name, DIR), 'utf8'));
}

/** The YAML blocks of the external-gateway doc fixture, by block number, parsed and neutralised. */
export function configBlocks(): Map<number, unknown> {
  const text = readFileSync(new URL('litellm-external-gateway-config.ohe-docs.yaml', DIR), 'utf8');
  const blocks = new Map<number, unknown>();
  for (const part of text
    .split(/^# --- block (\d+) ---$/m)
    .slice(1)
    .reduce<[number, string][]>((acc, item, i, all) => {
      if (i % 2 === 0) acc.push([Number(item), all[i + 1] ?? '']);
      return acc;
    }, [])) {
    blocks.set(part[0], neutral(parse(part[1])));
  }
  return blocks;
}
