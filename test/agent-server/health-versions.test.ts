// `/health` on servers before 1.31 answers a bare JSON string ("OK"); later ones `{"status": "ok"}`
// (test/fixtures/openapi/<version>.json). Both decode to `{status}`.
import { HttpResponse, http } from 'msw/http';
import { describe, expect, it } from 'vitest';
import { AgentServerClient } from '../../src/index.js';
import { agentServerApiHandlers } from '../../src/testing.js';
import { useMswServer } from '../helpers/msw.js';

useMswServer(
  http.get('http://old-health.test/health', () => HttpResponse.json('OK')),
  http.get('http://new-health.test/health', () => HttpResponse.json({ status: 'ok' })),
  ...agentServerApiHandlers({ baseUrl: 'http://double-1-18.test', version: '1.18.1' }),
  ...agentServerApiHandlers({ baseUrl: 'http://double-newest.test' }),
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

  it('the doubles answer as the simulated version does', async () => {
    const raw = await fetch('http://double-1-18.test/health').then((response) => response.json());
    expect(raw).toBe('OK');
    expect(await health('http://double-1-18.test')).toEqual({ status: 'OK' });
    expect(await health('http://double-newest.test')).toEqual({ status: 'ok' });
  });
});
