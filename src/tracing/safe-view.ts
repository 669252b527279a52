/**
 * Keeps header values (credentials) out of `JSON.stringify(x)` and `util.inspect(x)` (hence `console.log`) of a
 * resolved configuration, while leaving `x.headers` usable for configuring an exporter. `String(x)` is the
 * default `[object Object]`.
 */

/** Adds a non-enumerable `toJSON` and Node's inspect hook, both showing the config with `[redacted]` header values. */
export function hideSecrets<T extends { headers: Record<string, string> }>(value: T): T {
  const view = {
    value: () => ({
      ...value,
      headers: Object.fromEntries(Object.keys(value.headers).map((k) => [k, '[redacted]'])),
    }),
  };
  return Object.defineProperties(value, { toJSON: view, [Symbol.for('nodejs.util.inspect.custom')]: view });
}
