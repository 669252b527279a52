/**
 * A tiny YAML emitter for configuration documents (gateway proxy config, collector config, Helm values): block
 * mappings and sequences, and scalars that are plain only when no YAML 1.1 or 1.2 parser can misread them
 * (everything else is a JSON string, which is valid YAML). No dependencies: `./tracing` uses it too.
 */
import { AgentPlatformError } from './error-base.js';

export type YamlValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | readonly YamlValue[]
  | { readonly [key: string]: YamlValue };

const PLAIN = /^[A-Za-z_/]([\w./:@+-]*[\w./@+-])?$/;
const RESERVED = /^(true|false|yes|no|on|off|null|y|n)$/i;

function scalar(value: YamlValue): string {
  if (typeof value === 'number' && !Number.isFinite(value))
    // An AgentPlatformError like every error of the package (`./tracing` renders YAML too).
    throw new AgentPlatformError(`cannot write ${value} as YAML`);
  if (typeof value !== 'string') return String(value ?? null);
  return PLAIN.test(value) && !RESERVED.test(value) ? value : JSON.stringify(value);
}

const isNode = (v: YamlValue): v is readonly YamlValue[] | { readonly [key: string]: YamlValue } =>
  v !== null && typeof v === 'object';

function inline(value: YamlValue): string | undefined {
  if (!isNode(value)) return scalar(value);
  return Object.keys(value).length ? undefined : Array.isArray(value) ? '[]' : '{}';
}

function block(value: readonly YamlValue[] | { readonly [key: string]: YamlValue }, pad: string): string[] {
  if (Array.isArray(value)) {
    return value.flatMap((item) => {
      const text = inline(item);
      if (text !== undefined) return [`${pad}- ${text}`];
      const [first = '', ...rest] = block(item as readonly YamlValue[], `${pad}  `);
      return [`${pad}- ${first.trimStart()}`, ...rest];
    });
  }
  return Object.entries(value).flatMap(([key, item]) => {
    if (item === undefined) return [];
    const text = inline(item);
    return text === undefined
      ? [`${pad}${scalar(key)}:`, ...block(item as readonly YamlValue[], `${pad}  `)]
      : [`${pad}${scalar(key)}: ${text}`];
  });
}

/** The YAML text of `value`, ending with a newline. Keys whose value is `undefined` are left out. */
export function toYaml(value: YamlValue): string {
  return `${inline(value) ?? block(value as readonly YamlValue[], '').join('\n')}\n`;
}
