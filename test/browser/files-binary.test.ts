// The browser uploads and downloads a binary file through AgentServerClient (bytes, Blob and stream), against
// the loopback doubles of the agent server's file routes: what comes back is byte for byte what was sent.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentServerApiHandlers, type LoopbackServer, serveHandlers } from '../../src/testing.js';
import { chromiumUnavailable, launchChromium } from './chromium.js';

const skipReason = chromiumUnavailable();

describe.skipIf(skipReason !== undefined)('binary files in headless Chromium', () => {
  const sessionApiKey = `files-${crypto.randomUUID()}`;
  let api: LoopbackServer;
  let pageServer: Server;
  let pageUrl: string;

  beforeAll(async () => {
    api = await serveHandlers(agentServerApiHandlers({ sessionApiKey }));
    const bundle = await build({
      entryPoints: [new URL('./files-page.ts', import.meta.url).pathname],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      write: false,
      logLevel: 'error',
    });
    const script = bundle.outputFiles[0]?.text ?? '';
    const html = `<!doctype html><meta charset="utf-8"><script>window.__filesConfig = ${JSON.stringify({ url: api.url, sessionApiKey })};</script><script type="module" src="/page.js"></script>`;
    pageServer = createServer((req, res) => {
      if (req.url === '/page.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
      else res.writeHead(200, { 'content-type': 'text/html' }).end(html);
    });
    await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
    pageUrl = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}/`;
  }, 60_000);

  afterAll(async () => {
    await api?.close();
    await new Promise((resolve) => pageServer?.close(resolve));
  });

  it('uploads 3 MB of random bytes and gets the same bytes back as Uint8Array, Blob and stream', async () => {
    const { context, close } = await launchChromium();
    try {
      const page = await context.newPage();
      const lines: string[] = [];
      page.on('console', (message) => lines.push(message.text()));
      await page.goto(pageUrl);
      await page.waitForFunction(() => window.__filesResult !== undefined, undefined, { timeout: 30_000 });
      const result = (await page.evaluate(() => window.__filesResult)) as Record<string, unknown>;
      expect(result, lines.join('\n')).toMatchObject({ ok: true, uploaded: 3 * 1024 * 1024 });
      expect(result.back).toBe(result.sent);
      expect(result.blob).toBe(result.sent);
      expect(result.streamed).toBe(result.sent);
    } finally {
      await close();
    }
  }, 60_000);
});
