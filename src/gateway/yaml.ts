/**
 * A small YAML emitter for configuration documents (block mappings and sequences of JSON-like values).
 * A string is written plain only when no YAML 1.1 or 1.2 parser can read it as anything else; every other
 * string is written as a JSON string, which is valid YAML double-quoted text.
 */

export type YamlValue = string | number | boolean | null | undefined | readonly YamlValue[] | YamlMapping;
export interface YamlMapping {
  readonly [key: string]: YamlValue;
}

const PLAIN = /^[A-Za-z_/][A-Za-z0-9_./@+-]*(:[A-Za-z0-9_./@+-]+)*$/;
// YAML 1.1 booleans and nulls (installers still use 1.1 parsers), and 1.2 core schema values.
const RESERVED = /^(true|false|yes|no|on|off|y|n|null|~)$/i;

export function toYaml(value: YamlValue): string {
  return `${block(value, 0).join('\n')}\n`;
}

function scalar(value: YamlValue): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`cannot write ${value} as YAML`);
    return String(value);
  }
  return quoteIfNeeded(value as string);
}

/** Plain when safe (`os.environ/KEY`, `http://gw:4000/v1`, `gpt-4o`), else a JSON string. */
export function quoteIfNeeded(text: string): string {
  return PLAIN.test(text) && !RESERVED.test(text) ? text : JSON.stringify(text);
}

function isNode(value: YamlValue): value is readonly YamlValue[] | YamlMapping {
  return typeof value === 'object' && value !== null;
}

function entriesOf(mapping: YamlMapping): [string, YamlValue][] {
  return Object.entries(mapping).filter(([, v]) => v !== undefined);
}

function isEmptyNode(value: readonly YamlValue[] | YamlMapping): boolean {
  return Array.isArray(value) ? value.length === 0 : entriesOf(value as YamlMapping).length === 0;
}

/** Lines of `value` at `indent` spaces; a scalar or empty node is one line. */
function block(value: YamlValue, indent: number): string[] {
  const pad = ' '.repeat(indent);
  if (!isNode(value)) return [`${pad}${scalar(value)}`];
  if (isEmptyNode(value)) return [`${pad}${Array.isArray(value) ? '[]' : '{}'}`];
  if (Array.isArray(value)) {
    return (value as readonly YamlValue[]).flatMap((item) => {
      const lines = block(item, indent + 2);
      // The first line of the item goes on the dash line.
      return [`${pad}- ${lines[0]!.slice(indent + 2)}`, ...lines.slice(1)];
    });
  }
  return entriesOf(value as YamlMapping).flatMap(([key, item]) => {
    const head = `${pad}${quoteIfNeeded(key)}:`;
    if (!isNode(item) || isEmptyNode(item)) return [`${head} ${block(item, 0)[0]}`];
    // Sequences under a key are indented like mappings: accepted by every parser and easier to read.
    return [head, ...block(item, indent + 2)];
  });
}
