/**
 * The root of the SDK's error hierarchy and its brand, on their own so that every entry point (`./tracing`
 * included, which must stay small and free of zod and ky) throws errors that `isAgentPlatformError`
 * recognises.
 *
 * `instanceof` fails when two copies of the package are loaded (ESM and CJS side by side), so every class is
 * branded with a `Symbol.for` key and the `is…()` guards check the brand, not the class identity.
 */

const BRAND = Symbol.for('agent-platform-sdk.error');

type Branded = { [BRAND]?: string };

/** Levels of a value kept in an error's JSON; deeper values become `TOO_DEEP`. */
export const MAX_SHOWN_DEPTH = 32;
/** What stands for a value nested deeper than `MAX_SHOWN_DEPTH` (dropped, never shown). */
export const TOO_DEEP = '[nested too deep]';

/** Brands and names a class; both properties are not enumerable (the default of `defineProperties`). */
export function brand(ctor: { prototype: object }, name: string): void {
  Object.defineProperties(ctor.prototype, {
    [BRAND]: { value: name },
    name: { value: name, writable: true },
  });
}

/** True when `value` is an instance (from any copy of this package) of the error class called `name`. */
function hasBrand(value: unknown, name: string): boolean {
  if (typeof value !== 'object' || value === null) return false;
  for (let proto = Object.getPrototypeOf(value); proto; proto = Object.getPrototypeOf(proto)) {
    if (Object.hasOwn(proto, BRAND) && (proto as Branded)[BRAND] === name) return true;
  }
  return false;
}

export function guard<T>(name: string): (value: unknown) => value is T {
  return (value: unknown): value is T => hasBrand(value, name);
}

/** Base class of every error thrown by this SDK. */
export class AgentPlatformError extends Error {
  /** A stable, machine-readable code where one exists (e.g. `AGENT_SERVER_VERSION_TOO_OLD`). */
  declare code?: string;

  /** Name, message and own fields (never `cause`: it may quote what a request carried). */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, message: this.message };
    for (const [key, value] of Object.entries(this)) {
      if (key !== 'cause') out[key] = value;
    }
    return out;
  }
}
brand(AgentPlatformError, 'AgentPlatformError');

export const isAgentPlatformError = /* @__PURE__ */ guard<AgentPlatformError>('AgentPlatformError');

/**
 * A copy of a JSON-like tree with everything below `MAX_SHOWN_DEPTH` replaced by `TOO_DEEP`; keys are
 * copied as own properties (`Object.fromEntries` defines them: a `__proto__` key stays data). Other objects
 * (a `Date`, a class instance) are kept as they are.
 */
export function cutDeep(value: unknown, depth = 0): unknown {
  const tree =
    Array.isArray(value) ||
    (value !== null &&
      typeof value === 'object' &&
      [Object.prototype, null].includes(Object.getPrototypeOf(value)));
  if (!tree) return value;
  if (depth >= MAX_SHOWN_DEPTH) return TOO_DEEP;
  return Array.isArray(value)
    ? value.map((item) => cutDeep(item, depth + 1))
    : Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cutDeep(item, depth + 1)]));
}
