/**
 * Issue 23 item 1: a redirect never carries a credential or a body to another origin, https is never
 * followed down to http, and a write answered with 301/302/303 never turns into a GET that resolves.
 */
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { AgentServerClient, EventsClient } from '../../src/agent-server/index.js';
import { isAgentPlatformError, isAPIError, isRedirectError } from '../../src/core/errors.js';
import { GatewayAdminClient } from '../../src/gateway/index.js';
import { PlatformClient } from '../../src/platform/index.js';
import { RuntimeAdminClient } from '../../src/runtime/index.js';
import { hostileServer } from './servers.js';

const ID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const SESSION = 'PLANTED-session-key-redirect';
const API_KEY = 'PLANTED-api-key-redirect';
const MASTER = 'sk-PLANTED-master-redirect';
const ENV_SECRET = 'PLANTED-env-secret-redirect';
const common = { logLevel: 'off' as const, maxRetries: 0, env: false };

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A server that records everything it receives and answers 200 `{}`. */
async function recorder() {
  const seen: Seen[] = [];
  const server = await hostileServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(req.url?.includes('warm-runtime-configs') && req.method === 'GET' ? '[]' : '{}');
    });
  });
  return { server, seen };
}

/** A server that answers every request with `status` and a Location on `target` (same path). */
async function redirector(status: number, target: string) {
  return hostileServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(status, { location: `${target}${req.url}` });
      res.end();
    });
  });
}

function callsAgainst(base: string): Array<[string, () => Promise<unknown>]> {
  const events = new EventsClient({ baseUrl: base, sessionApiKey: SESSION, ...common });
  const agent = new AgentServerClient({ baseUrl: base, sessionApiKey: SESSION, ...common });
  const platform = new PlatformClient({ baseUrl: base, sessionApiKey: SESSION, ...common });
  const runtime = new RuntimeAdminClient({ baseUrl: base, apiKey: API_KEY, adminToken: 'x.y.z', ...common });
  const gateway = new GatewayAdminClient({ baseUrl: base, masterKey: MASTER, ...common });
  return [
    ['EventsClient.get', () => events.get(ID, 'e1')],
    ['EventsClient.send', () => events.send(ID, 'hello')],
    ['AgentServerClient.conversations.get', () => agent.conversations.get(ID)],
    ['PlatformClient.getLlmProfile', () => platform.getLlmProfile('p1')],
    [
      'PlatformClient.updateConversationTags',
      () => platform.updateConversationTags(`${base}/api/conversations/${ID}`, { team: 'a' }),
    ],
    ['RuntimeAdminClient.listApiKeys', () => runtime.listApiKeys()],
    [
      'RuntimeAdminClient.saveWarmRuntimeConfig',
      () =>
        runtime.saveWarmRuntimeConfig('pool', {
          image: 'repo/img:1',
          working_dir: '/w',
          command: ['a'],
          environment: { SECRET_X: ENV_SECRET },
        }),
    ],
    ['GatewayAdminClient.listModels', () => gateway.listModels()],
  ];
}

describe.each([301, 302, 303, 307, 308])('a %i to another origin', (status) => {
  it('is refused with RedirectError by every client; the other origin receives nothing', async () => {
    const { server: elsewhere, seen } = await recorder();
    const hop = await redirector(status, elsewhere.url);
    for (const [name, call] of callsAgainst(hop.url)) {
      const error = await call().then(
        () => new Error(`${name} resolved`),
        (e: unknown) => e,
      );
      expect(isRedirectError(error), `${name}: ${String(error)}`).toBe(true);
      expect(isAPIError(error) && isAgentPlatformError(error)).toBe(true);
      const redirect = error as import('../../src/core/errors.js').RedirectError;
      expect(redirect.reason).toBe('cross-origin');
      expect(redirect.status).toBe(status);
      expect(redirect.location).toContain(elsewhere.url);
    }
    expect(seen).toEqual([]);
  });
});

describe('redirects within the configured origin', () => {
  it('are followed with method, credential and body (307)', async () => {
    const seen: Seen[] = [];
    const server = await hostileServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => {
        body += chunk;
      });
      req.on('end', () => {
        if (!req.url?.startsWith('/moved')) {
          res.writeHead(307, { location: `/moved${req.url}` });
          res.end();
          return;
        }
        seen.push({ method: req.method ?? '', url: req.url, headers: req.headers, body });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      });
    });
    const events = new EventsClient({ baseUrl: server.url, sessionApiKey: SESSION, ...common });
    await events.send(ID, 'hello');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.method).toBe('POST');
    expect(seen[0]?.url).toBe(`/moved/api/conversations/${ID}/events`);
    expect(seen[0]?.headers['x-session-api-key']).toBe(SESSION);
    expect(seen[0]?.body).toContain('hello');
  });

  it.each([301, 302, 303])('a POST answered with %i fails instead of becoming a GET', async (status) => {
    const seen: string[] = [];
    const server = await hostileServer((req, res) => {
      req.resume();
      req.on('end', () => {
        seen.push(`${req.method} ${req.url}`);
        if (req.url?.startsWith('/moved')) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{}');
          return;
        }
        res.writeHead(status, { location: `/moved${req.url}` });
        res.end();
      });
    });
    const events = new EventsClient({ baseUrl: server.url, sessionApiKey: SESSION, ...common });
    const error = await events.send(ID, 'hello').catch((e: unknown) => e);
    expect(isRedirectError(error)).toBe(true);
    expect((error as { reason: string }).reason).toBe('method-change');
    expect(seen).toEqual([`POST /api/conversations/${ID}/events`]);
  });

  it('an endless loop ends after a few hops', async () => {
    const server = await hostileServer((req, res) => {
      res.writeHead(302, { location: `${req.url}x` });
      res.end();
    });
    const events = new EventsClient({ baseUrl: server.url, sessionApiKey: SESSION, ...common });
    const error = await events.get(ID, 'e1').catch((e: unknown) => e);
    expect(isRedirectError(error) && error.reason).toBe('too-many');
    expect(server.stats.requests).toBeLessThanOrEqual(6);
  });
});

describe('redirects the transport cannot see through a real server', () => {
  it('https → http is refused, even to the same host', async () => {
    const sent: string[] = [];
    const fetch: typeof globalThis.fetch = async (input) => {
      const request = input as Request;
      sent.push(request.url);
      return new Response(null, { status: 308, headers: { location: 'http://agent.example/api/x' } });
    };
    const events = new EventsClient({
      baseUrl: 'https://agent.example',
      sessionApiKey: SESSION,
      fetch,
      ...common,
    });
    const error = await events.get(ID, 'e1').catch((e: unknown) => e);
    expect(isRedirectError(error) && error.reason).toBe('downgrade');
    expect(sent).toHaveLength(1);
  });

  it("a browser's opaque redirect (status 0) is a RedirectError, not a resolved call", async () => {
    const fetch: typeof globalThis.fetch = async (input) => {
      expect((input as Request).redirect).toBe('manual');
      const response = new Response(null, { status: 200 });
      Object.defineProperty(response, 'type', { value: 'opaqueredirect' });
      Object.defineProperty(response, 'status', { value: 0 });
      return response;
    };
    const events = new EventsClient({
      baseUrl: 'https://agent.example',
      sessionApiKey: SESSION,
      fetch,
      ...common,
    });
    const error = await events.send(ID, 'hello').catch((e: unknown) => e);
    expect(isRedirectError(error) && error.reason).toBe('hidden');
  });
});
