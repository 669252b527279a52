import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { EventsClient } from '../../src/agent-server/index.js';
import { main as warmPools } from '../../src/cli/warm-pools-cli.js';
import type { Logger } from '../../src/core/logger.js';
import { GatewayAdminClient } from '../../src/gateway/index.js';
import { PlatformClient } from '../../src/platform/index.js';
import { RuntimeAdminClient } from '../../src/runtime/index.js';
import { hostileServer } from './servers.js';

/** Recognisable secrets, one per credential kind. */
const SECRET = {
  session: 'PLANTED-session-key-7f3a9c',
  admin: 'PLANTED admin "pass/word" é-7f3a9c',
  apiKey: 'PLANTED-api-key-7f3a9c',
  master: 'sk-PLANTED-master-key-7f3a9c',
  envKey: 'PLANTED-lmnr-project-key-7f3a9c',
  encrypted: 'PLANTED-encrypted-content-7f3a9c',
  jwt: `eyJhbGciOiJIUzI1NiJ9.${Buffer.from('{"sub":"admin","planted":"7f3a9c"}').toString('base64url')}.UExBTlRFRC1zaWduYXR1cmU`,
};
const PLANTED = Object.values(SECRET);

/** A server that echoes everything it was sent (headers and body, raw and JSON-escaped) in error bodies. */
async function echoServer(status: number) {
  return hostileServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      const echo = {
        detail:
          status === 422
            ? [
                {
                  loc: ['body', 'environment'],
                  msg: `bad value in ${body}`,
                  type: 'value_error',
                  input: body,
                },
              ]
            : `refused ${JSON.stringify(req.headers)} ${body} ${SECRET.jwt}`,
        headers: req.headers,
        encrypted_content: SECRET.encrypted,
        received: body,
        url: req.url,
      };
      res.writeHead(status, {
        'content-type': 'application/json',
        'x-echo-auth': String(req.headers.authorization ?? ''),
        'x-echo-key': String(req.headers['x-api-key'] ?? req.headers['x-session-api-key'] ?? ''),
      });
      res.end(JSON.stringify(echo));
    });
  });
}

/** Everything a user could see of a value: message, stack, JSON, inspect (hidden fields too). */
function everything(value: unknown): string {
  const e = value as Error & Record<string, unknown>;
  const parts = [
    String(e?.message),
    String(e?.stack),
    JSON.stringify(e),
    inspect(e, { depth: 10, showHidden: true }),
  ];
  if (typeof e === 'object' && e) parts.push(...Object.values(e).map((v) => JSON.stringify(v) ?? ''));
  return parts.join('\n');
}

function recordingLogger() {
  const lines: string[] = [];
  const log = (...args: unknown[]) =>
    lines.push(args.map((a) => (typeof a === 'string' ? a : inspect(a, { depth: 10 }))).join(' '));
  const logger: Logger = { error: log, warn: log, info: log, debug: log };
  return { logger, lines };
}

function expectNoSecret(text: string): void {
  for (const secret of PLANTED) {
    expect(text).not.toContain(secret);
    expect(text).not.toContain(JSON.stringify(secret).slice(1, -1));
  }
}

const CONVERSATION = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const SAVE_BODY = {
  image: 'repo/img:1',
  working_dir: '/w',
  command: ['agent'],
  environment: { LMNR_PROJECT_API_KEY: SECRET.envKey },
};

describe.each([401, 422, 500])('every client, with a server echoing secrets in a %i', (status) => {
  it('shows none in errors, toJSON, inspect or logs', async () => {
    const server = await echoServer(status);
    const { logger, lines } = recordingLogger();
    const common = { logger, logLevel: 'debug' as const, maxRetries: 1, maxRetryDelay: 5 };
    const events = new EventsClient({ baseUrl: server.url, sessionApiKey: SECRET.session, ...common });
    const runtime = new RuntimeAdminClient({
      baseUrl: server.url,
      adminToken: SECRET.jwt,
      apiKey: SECRET.apiKey,
      env: false,
      ...common,
    });
    const runtimeLogin = new RuntimeAdminClient({
      baseUrl: server.url,
      adminPassword: SECRET.admin,
      env: false,
      ...common,
    });
    const platform = new PlatformClient({ baseUrl: server.url, sessionApiKey: SECRET.session, ...common });
    const gateway = new GatewayAdminClient({ baseUrl: server.url, masterKey: SECRET.master, ...common });
    const calls: Promise<unknown>[] = [
      events.get(CONVERSATION, 'e1'),
      runtime.listWarmRuntimeConfigs(),
      runtime.saveWarmRuntimeConfig('pool', SAVE_BODY),
      runtime.deleteWarmRuntimeConfig('pool'),
      runtimeLogin.login(),
      platform.getLlmProfile('p1'),
      platform.updateConversationTags(`${server.url}/api/conversations/${CONVERSATION}`, { team: 'a' }),
      gateway.listModels(),
    ];
    const errors = (await Promise.allSettled(calls)).map((result) =>
      result.status === 'rejected' ? result.reason : new Error('unexpectedly fulfilled'),
    );
    expect(errors.length).toBe(calls.length);
    for (const error of errors) expectNoSecret(everything(error));
    for (const client of [events, runtime, runtimeLogin, platform, gateway])
      expectNoSecret(everything(client));
    expect(lines.length).toBeGreaterThan(0);
    expectNoSecret(lines.join('\n'));
  });
});

describe.each([301, 302, 303, 307, 308])(
  'every client, redirected with a %i to an echoing origin',
  (status) => {
    it('sends nothing there and shows no secret', async () => {
      const echo = await echoServer(401);
      const hop = await hostileServer((req, res) => {
        req.resume();
        req.on('end', () => {
          res.writeHead(status, { location: `${echo.url}${req.url}?key=${SECRET.apiKey}` });
          res.end();
        });
      });
      const { logger, lines } = recordingLogger();
      const common = { logger, logLevel: 'debug' as const, maxRetries: 1, maxRetryDelay: 5, env: false };
      const events = new EventsClient({ baseUrl: hop.url, sessionApiKey: SECRET.session, ...common });
      const runtime = new RuntimeAdminClient({
        baseUrl: hop.url,
        adminToken: SECRET.jwt,
        apiKey: SECRET.apiKey,
        ...common,
      });
      const runtimeLogin = new RuntimeAdminClient({
        baseUrl: hop.url,
        adminPassword: SECRET.admin,
        ...common,
      });
      const platform = new PlatformClient({ baseUrl: hop.url, sessionApiKey: SECRET.session, ...common });
      const gateway = new GatewayAdminClient({ baseUrl: hop.url, masterKey: SECRET.master, ...common });
      const calls: Promise<unknown>[] = [
        events.get(CONVERSATION, 'e1'),
        events.send(CONVERSATION, 'hello'),
        runtime.listWarmRuntimeConfigs(),
        runtime.saveWarmRuntimeConfig('pool', SAVE_BODY),
        runtime.deleteWarmRuntimeConfig('pool'),
        runtimeLogin.login(),
        platform.getLlmProfile('p1'),
        platform.updateConversationTags(`${hop.url}/api/conversations/${CONVERSATION}`, { team: 'a' }),
        gateway.listModels(),
      ];
      const results = await Promise.allSettled(calls);
      for (const result of results) {
        expect(result.status).toBe('rejected');
        if (result.status === 'rejected') expectNoSecret(everything(result.reason));
      }
      expect(echo.stats.requests).toBe(0);
      expectNoSecret(lines.join('\n'));
    });
  },
);

describe('answers that break the schema and echo secrets (rawBody)', () => {
  it('shows none in ResponseValidationError', async () => {
    const server = await hostileServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      // Valid JSON, wrong shape, secrets raw, escaped and past the point where rawBody is cut.
      res.end(
        JSON.stringify({
          unexpected: `${'x'.repeat(9_990)}${SECRET.session}`,
          key: req.headers['x-session-api-key'],
          escaped: SECRET.admin,
        }),
      );
    });
    const events = new EventsClient({ baseUrl: server.url, sessionApiKey: SECRET.session, logLevel: 'off' });
    const error = await events.get(CONVERSATION, 'e1').catch((e: unknown) => e);
    expectNoSecret(everything(error));
    expect(everything(error)).not.toContain(SECRET.session.slice(0, 12));
  });
});

describe('the warm-pools CLI', () => {
  it.each([401, 422, 500])('prints no secret a server echoes back in a %i', async (status) => {
    const server = await echoServer(status);
    let stdout = '';
    let stderr = '';
    const io = {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text) },
      stdin: (async function* () {
        yield JSON.stringify(SAVE_BODY);
      })(),
      env: {
        RUNTIME_API_URL: server.url,
        ADMIN_TOKEN: SECRET.jwt,
        API_KEY: SECRET.apiKey,
        WARM_POOLS_LOG_LEVEL: 'debug',
      },
    };
    for (const argv of [['list'], ['save', 'pool', '--allow-shared-image'], ['delete', 'pool']]) {
      const code = await warmPools(argv, io);
      expect(code).not.toBe(0);
    }
    expect(stderr).not.toBe('');
    expectNoSecret(`${stdout}\n${stderr}`);
  });
});
