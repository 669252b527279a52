import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AgentServerLoopback,
  AgentServerStore,
  type LoopbackServer,
  runtimeApiHandlers,
  serveAgentServer,
  serveHandlers,
} from '../../src/testing.js';
import { chromiumUnavailable, launchChromium } from './chromium.js';

const skipReason = chromiumUnavailable();
if (skipReason) console.warn(`Skipping browser tests: ${skipReason}`);

describe.skipIf(skipReason !== undefined)('in headless Chromium', () => {
  const conversationId = crypto.randomUUID();
  const eventId = crypto.randomUUID();
  const sessionApiKey = `browser-${crypto.randomUUID()}`;
  const adminPassword = `pw-${crypto.randomUUID()}`;
  let agentServer: AgentServerLoopback;
  let runtimeApi: LoopbackServer;
  let pageServer: Server;
  let pageUrl: string;

  beforeAll(async () => {
    const store = new AgentServerStore();
    store.appendEvent(conversationId, {
      id: eventId,
      timestamp: '2026-02-05T11:24:45.292853',
      source: 'user',
      kind: 'PauseEvent',
    });
    // A server new enough for first-message websocket auth (browsers cannot set headers).
    agentServer = await serveAgentServer({ sessionApiKey, store, version: '1.20.0' });
    runtimeApi = await serveHandlers(runtimeApiHandlers({ adminPassword }));

    const bundle = await build({
      entryPoints: [new URL('./page.ts', import.meta.url).pathname],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      write: false,
      logLevel: 'error',
    });
    const script = bundle.outputFiles[0]!.text;
    const config = {
      agentServerUrl: agentServer.url,
      runtimeApiUrl: runtimeApi.url,
      sessionApiKey,
      adminPassword,
      conversationId,
      eventId,
    };
    const html = `<!doctype html><meta charset="utf-8"><script>window.__config = ${JSON.stringify(config)};</script><script type="module" src="/page.js"></script>`;
    pageServer = createServer((req, res) => {
      if (req.url === '/page.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
      else res.writeHead(200, { 'content-type': 'text/html' }).end(html);
    });
    await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
    pageUrl = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}/`;
  }, 60_000);

  afterAll(async () => {
    await agentServer?.close();
    await runtimeApi?.close();
    await new Promise((resolve) => pageServer?.close(resolve));
  });

  it('the ESM bundle fetches an event, follows a live conversation over a websocket and logs in with PBKDF2', async () => {
    const { context, close } = await launchChromium();
    try {
      const page = await context.newPage();
      const consoleLines: string[] = [];
      page.on('console', (message) => consoleLines.push(message.text()));
      await page.goto(pageUrl);
      await page.waitForFunction(() => window.__result !== undefined, undefined, { timeout: 30_000 });
      const result = await page.evaluate(() => window.__result);
      if (process.env.SHOW_BROWSER_RESULT) console.log(JSON.stringify(result));
      expect(result, consoleLines.join('\n')).toMatchObject({
        ok: true,
        eventKind: 'PauseEvent',
        eventId,
        missingIsNotFound: true,
        socketOpened: true,
        tokenParts: 3,
        apiKeyNames: ['default'],
      });
      const kinds = (result as { liveKinds: string[] }).liveKinds;
      // The scripted agent's turn, in order: the user's message, actions and observations, the final status.
      expect(kinds[0]).toBe('MessageEvent');
      expect(kinds).toContain('ActionEvent');
      expect(kinds).toContain('ObservationEvent');
      expect(kinds.at(-1)).toBe('ConversationStateUpdateEvent');
      // The secret never reaches the page's own logs.
      expect(consoleLines.join('\n')).not.toContain(adminPassword);
    } finally {
      await close();
    }
  }, 60_000);
});
