/**
 * Keeps header values (credentials) out of `JSON.stringify(x)` and `util.inspect(x)` (hence `console.log`) of a
 * resolved configuration, while leaving `x.headers` usable for configuring an exporter. `String(x)` is the
 * default `[object Object]`.
 */

import { headerLabel } from './headers.js';

/** Adds a non-enumerable `toJSON` and Node's inspect hook, both showing the config with `[redacted]` header values. */
export function hideSecrets<T extends { headers: Record<string, string> }>(value: T): T {
  const view = {
    value: () => ({
      ...value,
      // A name that is no header name may be a credential (`Authorization: Basic …` written with ":").
      headers: Object.fromEntries(
        Object.keys(value.headers).map((k, i) => [headerLabel(k, i), '[redacted]']),
      ),
    }),
  };
  return Object.defineProperties(value, { toJSON: view, [Symbol.for('nodejs.util.inspect.custom')]: view });
}
