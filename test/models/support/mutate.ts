// Random one-place changes of sample events, for the property tests of the parsers (parse-paths,
// compiled-checks): every path of a value, and one change applied at one of them.

export type Path = (string | number)[];

/** Every path inside `value` (object keys and array indexes), parents before children. */
export function paths(value: unknown, prefix: Path = [], out: Path[] = []): Path[] {
  if (typeof value !== 'object' || value === null) return out;
  for (const [key, child] of Object.entries(value)) {
    const step = Array.isArray(value) ? Number(key) : key;
    out.push([...prefix, step]);
    paths(child, [...prefix, step], out);
  }
  return out;
}

/** The changes `mutateAt` makes: a null, a deletion, a value of another type. */
export const VALUE_CHANGES = ['null', 'delete', 'number', 'string', 'boolean', 'array', 'object'] as const;
export type ValueChange = (typeof VALUE_CHANGES)[number];

/** The object or array that holds `path` of `sample`, and the key there. */
export function parentOf(
  sample: unknown,
  path: Path,
): { parent: Record<string | number, unknown>; key: string | number } {
  let parent = sample as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  return { parent, key: path.at(-1)! };
}

/** Applies `change` at `path` of `sample` (in place). */
export function mutateAt(sample: unknown, path: Path, change: ValueChange): void {
  const { parent, key } = parentOf(sample, path);
  if (change === 'delete') {
    if (Array.isArray(parent) && typeof key === 'number') parent.splice(key, 1);
    else delete parent[key];
    return;
  }
  parent[key] = { null: null, number: 42.5, string: 'surprise', boolean: true, array: [], object: {} }[
    change
  ];
}
