// Builds the chat page (app.tsx and its components, React included) with esbuild and serves it on loopback.
// esbuild reads ./tsconfig.json: `agent-platform-sdk` and `agent-platform-sdk/react` are this repository's
// sources, so the page needs no `npm run build`. Used by serve.mjs (`npm run example:chat`) and the browser
// tests (test/browser/chat-example.test.ts, test/conformance/chat-web.test.ts).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { build } from 'esbuild';

const here = new URL('.', import.meta.url).pathname;

/** The page's script, one ESM bundle. `production: true` builds React's production mode (no StrictMode checks). */
export async function buildChatScript({ production = false } = {}) {
  const result = await build({
    entryPoints: [`${here}app.tsx`],
    tsconfig: `${here}tsconfig.json`,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    define: { 'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development') },
    minify: production,
    write: false,
    logLevel: 'error',
  });
  return result.outputFiles[0].text;
}

/** The HTML of the page, with its configuration (the agent server, the conversation) written into it. */
export function chatHtml(config) {
  const css = readFileSync(`${here}chat.css`, 'utf8');
  // `<` escaped: the configuration cannot close the script element.
  const json = JSON.stringify(config).replaceAll('<', '\\u003c');
  return `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Agent chat</title>
<style>${css}</style>
<div id="root"></div>
<script>window.__CHAT__ = ${json};</script>
<script type="module" src="/app.js"></script>
</html>`;
}

/**
 * Serves the page on `host:port` (127.0.0.1 and a free port by default) and resolves once it listens.
 * The session API key is written into the page: keep it on loopback (a real app keeps the key on its server
 * and proxies, docs/runtimes.md).
 */
export async function serveChatPage({ config, host = '127.0.0.1', port = 0, production = false }) {
  const script = await buildChatScript({ production });
  const html = chatHtml(config);
  const server = createServer((request, response) => {
    if (request.url === '/app.js') {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script);
    } else if (request.url === '/' || request.url?.startsWith('/?')) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const address = server.address();
  return {
    url: `http://${host}:${address.port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
