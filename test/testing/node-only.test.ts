import { describe, expect, it } from 'vitest';
import { isAgentPlatformError } from '../../src/index.js';
import { importNodeOnly } from '../../src/testing/simulator/node-only.js';

describe('importNodeOnly', () => {
  it('loads a present module', async () => {
    const ws = await importNodeOnly<typeof import('ws')>('ws');
    expect(typeof ws.WebSocketServer).toBe('function');
  });

  it('a missing optional peer is one line naming the package to install', async () => {
    const error = await importNodeOnly('not-installed-peer-xyz/node').catch((caught: unknown) => caught);
    expect(isAgentPlatformError(error)).toBe(true);
    expect((error as Error).message).toBe(
      'agent-platform-sdk/testing needs the optional peer dependency "not-installed-peer-xyz" for this: npm install --save-dev not-installed-peer-xyz',
    );
    expect((error as { code?: string }).code).toBe('MISSING_PEER_DEPENDENCY');
  });
});
