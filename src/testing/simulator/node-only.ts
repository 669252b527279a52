import { AgentPlatformError } from '../../core/errors.js';

/**
 * Loads a Node-only module (`node:http`, `ws`, `msw/node`) when it is first needed. The specifier is not a
 * literal, so bundlers leave the import alone and `agent-platform-sdk/testing` still bundles for browsers,
 * where the simulator's msw mode works without them. A missing optional peer (`ws`, `msw`) is one line that
 * names the package to install.
 */
export async function importNodeOnly<T>(specifier: string): Promise<T> {
  try {
    return (await import(/* webpackIgnore: true */ /* @vite-ignore */ specifier)) as T;
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code !== 'ERR_MODULE_NOT_FOUND' || specifier.startsWith('node:')) throw error;
    const name = specifier.split('/')[0] as string;
    const missing = new AgentPlatformError(
      `agent-platform-sdk/testing needs the optional peer dependency "${name}" for this: npm install --save-dev ${name}`,
    );
    missing.code = 'MISSING_PEER_DEPENDENCY';
    throw missing;
  }
}
