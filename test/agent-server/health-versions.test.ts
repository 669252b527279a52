// `/health` on servers before 1.31 answers a bare JSON string ("OK"); later ones `{"status": "ok"}`
// (test/fixtures/openapi/<version>.json). Both decode to `{status}`.
import { HttpResponse, http } from 'msw/http';
import { describe, expect, it } from 'vitest';
import { AgentServerClient } from '../../src/index.js';
import { useMswServer } from '../helpers/msw.js';

useMswServer(
  http.get('http://old-health.test/health', () => HttpResponse.json('OK')),
  http.get('http://new-health.test/health', () => HttpResponse.json({ status: 'ok' })),
);
const health = (baseUrl: string) =>
  new AgentServerClient({ baseUrl, logLevel: 'off', maxRetries: 0 }).server.health();

describe('server.health answers by server version', () => {
  it('before 1.31: the bare string becomes {status}', async () => {
    expect(await health('http://old-health.test')).toEqual({ status: 'OK' });
  });

  it('1.31 and later: {status} as sent', async () => {
    expect(await health('http://new-health.test')).toEqual({ status: 'ok' });
  });
});
