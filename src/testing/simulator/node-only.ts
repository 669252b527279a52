/**
 * Loads a Node-only module (`node:http`, `ws`, `msw/node`) when it is first needed. The specifier is not a
 * literal, so bundlers leave the import alone and `agent-platform-sdk/testing` still bundles for browsers,
 * where the simulator's msw mode works without them.
 */
export function importNodeOnly<T>(specifier: string): Promise<T> {
  return import(/* webpackIgnore: true */ /* @vite-ignore */ specifier) as Promise<T>;
}
