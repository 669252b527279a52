// The hooks with a real DOM: React in development mode in headless Chromium (StrictMode runs every effect
// twice there), over fake views that count listeners and closes (test/react/hooks-page.ts).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumUnavailable, launchChromium } from '../browser/chromium.js';

/** What test/react/hooks-page.ts reports. */
interface HooksResult {
  error?: string;
  burst: { afterBurst: number; listenersMounted: number; listenersAfterUnmount: number };
  opening: Record<string, unknown>;
}

const skipReason = chromiumUnavailable();
if (skipReason) console.warn(`Skipping the React hooks in Chromium: ${skipReason}`);

describe.skipIf(skipReason !== undefined)('the React hooks in headless Chromium', () => {
  let server: Server;
  let url: string;

  beforeAll(async () => {
    const bundle = await build({
      entryPoints: [new URL('./hooks-page.ts', import.meta.url).pathname],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      define: { 'process.env.NODE_ENV': '"development"' },
      write: false,
      logLevel: 'error',
    });
    const script = bundle.outputFiles[0]!.text;
    const html = '<!doctype html><meta charset="utf-8"><script type="module" src="/page.js"></script>';
    server = createServer((req, res) => {
      if (req.url === '/page.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
      else res.writeHead(200, { 'content-type': 'text/html' }).end(html);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  }, 60_000);

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });

  it('renders once per burst, opens one view under StrictMode, closes it on unmount and on a new id', async () => {
    const { context, close } = await launchChromium();
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(String(error)));
      await page.goto(url);
      await page.waitForFunction(() => window.__result !== undefined, undefined, { timeout: 30_000 });
      const result = (await page.evaluate(() => window.__result)) as unknown as HooksResult;
      expect(result.error).toBeUndefined();
      expect(errors).toEqual([]);

      // 100 synchronous notifications in one task: one render (StrictMode renders each render twice in
      // development; the counter sees both calls of that one render).
      expect(result.burst.afterBurst).toBe(2);
      expect(result.burst.listenersMounted).toBe(1);
      expect(result.burst.listenersAfterUnmount).toBe(0);

      const opening = result.opening;
      expect(opening.shown).toBe('live:0');
      expect(opening.openedInStrictMode).toBe(1);
      expect(opening.closedInStrictMode).toEqual([0]);
      expect(opening.shownAfterPush).toBe('live:1');
      expect(opening.afterSwitch).toEqual([
        { id: 'c-1', closed: 1 },
        { id: 'c-2', closed: 0 },
      ]);
      expect(opening.shownAfterSwitch).toBe('live:0');
      expect(opening.afterUnmount).toEqual([
        { id: 'c-1', closed: 1, listeners: 0 },
        { id: 'c-2', closed: 1, listeners: 0 },
      ]);
    } finally {
      await close();
    }
  }, 60_000);
});
