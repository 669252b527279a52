/**
 * Issue 23 item 6: a credential holding CR, LF or NUL is a `RequestValidationError` naming the header,
 * before any request; never an `APIConnectionError` "network error", and never quoted.
 */
import { describe, expect, it } from 'vitest';
import { EventsClient } from '../../src/agent-server/index.js';
import { isAPIConnectionError, isRequestValidationError } from '../../src/core/errors.js';
import { GatewayAdminClient } from '../../src/gateway/index.js';
import { PlatformClient } from '../../src/platform/index.js';
import { RuntimeAdminClient } from '../../src/runtime/index.js';
import { hostileServer } from './servers.js';

const ID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const common = { logLevel: 'off' as const, maxRetries: 0, env: false };

describe.each([
  ['CR LF', 'PLANTED-key\r\nX-Injected: 1'],
  ['LF', 'PLANTED-key\nmore'],
  ['NUL', 'PLANTED-key\u0000more'],
])('a credential holding %s', (_label, bad) => {
  it('is a RequestValidationError naming the header in every client; nothing is sent', async () => {
    const server = await hostileServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('[]');
    });
    const calls: Array<[() => Promise<unknown>, string]> = [
      [
        () => new EventsClient({ baseUrl: server.url, sessionApiKey: bad, ...common }).get(ID, 'e1'),
        'x-session-api-key',
      ],
      [
        () => new EventsClient({ baseUrl: server.url, sessionApiKey: () => bad, ...common }).get(ID, 'e1'),
        'x-session-api-key',
      ],
      [
        () => new PlatformClient({ baseUrl: server.url, sessionApiKey: bad, ...common }).getLlmProfile('p'),
        'x-session-api-key',
      ],
      [
        () => new GatewayAdminClient({ baseUrl: server.url, masterKey: bad, ...common }).listModels(),
        'authorization',
      ],
      [
        () =>
          new RuntimeAdminClient({ baseUrl: server.url, apiKey: bad, ...common }).listWarmRuntimeConfigs(),
        'x-api-key',
      ],
      [
        () => new RuntimeAdminClient({ baseUrl: server.url, adminToken: bad, ...common }).listApiKeys(),
        'authorization',
      ],
      [
        () =>
          new EventsClient({ baseUrl: server.url, ...common }).get(ID, 'e1', { headers: { 'X-Extra': bad } }),
        'x-extra',
      ],
    ];
    for (const [call, header] of calls) {
      const error = await call().catch((e: unknown) => e);
      expect(isAPIConnectionError(error)).toBe(false);
      expect(isRequestValidationError(error), String(error)).toBe(true);
      const { path } = (error as { issues: { path: string[] }[] }).issues[0]!;
      expect(path[0]).toBe('headers');
      expect(path[1]?.toLowerCase()).toBe(header);
      expect(String((error as Error).message)).not.toContain('PLANTED');
    }
    expect(server.stats.requests).toBe(0);
  });
});
