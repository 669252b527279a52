// React renders per burst (issue 32, "one React render per burst"): a ConversationView of the package's build
// (bench/_build.ts) shown by `useConversationView` in React's production build in headless Chromium, against
// the simulator's agent server (1.58.0, `/sockets/session`) in this process. Each round appends a burst of
// agent messages to the simulated store in one synchronous loop (the server writes one websocket frame per
// event), waits until the page shows them all and counts React's commits, the view's notifications and the
// animation frames those came in. A browser runs each websocket message as a task of its own, so a burst may
// arrive over several frames; the target is one render per frame in which events came in (the hooks fold the
// view's notifications into one per frame: src/react/use-conversation-view.ts). Counts, not times.
//
//   node bench/react-renders.ts [--rounds 10] [--burst 50]
// The last line, `react renders per burst: …`, is what `npm run bench` collects. Needs Chromium
// (/usr/bin/chromium or CHROMIUM_PATH, as test/browser/chromium.ts).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';

const hooks = './_ts-sources.ts';
await import(hooks);
const { median, option, spread } = await import('./_stats.js');
const { nodeDir, sdkDir } = await import('./_build.js');

const ROUNDS = option('rounds', 10);
const BURST = option('burst', 50);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(CHROMIUM)) {
  console.log(`react renders per burst: not measured (no Chromium at ${CHROMIUM})`);
  process.exit(0);
}

const sdk = (await import(`${await nodeDir()}/index.js`)) as typeof import('../src/index.js');
const testing = (await import(`${await nodeDir()}/testing.js`)) as typeof import('../src/testing.js');
const sim = await testing.startSimulator({ agentServerVersion: '1.58.0' });
const { url, sessionApiKey } = sim.info.agentServer;
const { id } = await new sdk.ConversationsClient({ baseUrl: url, sessionApiKey }).create({
  agent: { llm: { model: 'bench' } },
  workspace: { working_dir: 'w' },
});

const esm = await sdkDir();
const bundle = await build({
  entryPoints: [new URL('./_react-burst-page.mjs', import.meta.url).pathname],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  alias: { 'agent-platform-sdk/react': `${esm}/react.js`, 'agent-platform-sdk': `${esm}/index.js` },
  define: { 'process.env.NODE_ENV': '"production"' },
  write: false,
  logLevel: 'error',
});
const script = bundle.outputFiles[0]!.text;
const html = `<!doctype html><meta charset="utf-8"><div id="root"></div><script>window.__config = ${JSON.stringify(
  { url, sessionApiKey, conversationId: id },
)};</script><script type="module" src="/page.js"></script>`;
const server = createServer((req, res) => {
  if (req.url === '/page.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
  else res.writeHead(200, { 'content-type': 'text/html' }).end(html);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

// The flags test/browser/chromium.ts launches Chromium with on this machine.
const profile = mkdtempSync(join(tmpdir(), 'bench-react-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
  headless: true,
  executablePath: CHROMIUM,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
type Counters = { commits: number; notifications: number; items: number; ready: boolean; frames: number[] };
try {
  const page = await context.newPage();
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  await page.waitForFunction(() => (window as unknown as { __bench: Counters }).__bench?.ready, undefined, {
    timeout: 30_000,
  });
  const counters = () =>
    page.evaluate(() => {
      const bench = (window as unknown as { __bench: Counters }).__bench;
      return { ...bench, frames: [...bench.frames] };
    });
  const settled = () =>
    page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50))));
  await settled();
  const renders: number[] = [];
  const notifications: number[] = [];
  /** Animation frames in which some of the burst's events came in. */
  const frames: number[] = [];
  let serial = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const before = await counters();
    for (let i = 0; i < BURST; i++) {
      sim.stores.agentServer.appendEvent(id, {
        id: crypto.randomUUID(),
        timestamp: new Date().toISOString().replace('Z', ''),
        source: 'agent',
        kind: 'MessageEvent',
        llm_message: { role: 'assistant', content: [{ type: 'text', text: `message ${serial++}` }] },
        activated_skills: [],
        extended_content: [],
      });
    }
    await page.waitForFunction(
      (wanted) => (window as unknown as { __bench: Counters }).__bench.items >= wanted,
      before.items + BURST,
      { timeout: 30_000 },
    );
    await settled();
    const after = await counters();
    renders.push(after.commits - before.commits);
    notifications.push(after.notifications - before.notifications);
    frames.push(after.frames.length - before.frames.length);
  }
  console.log(`  renders per burst of ${BURST} events, each round: ${renders.join(' ')}`);
  console.log(`  view notifications per burst, each round: ${notifications.join(' ')}`);
  console.log(`  animation frames the burst came in over, each round: ${frames.join(' ')}`);
  // A screen shows one frame at a time: the target is one render per frame in which events came in.
  const perFrame = renders.map((count, round) => count / Math.max(1, frames[round]!));
  const figure = Math.max(...perFrame);
  console.log(
    `react renders per burst: ${median(renders)} (median of ${ROUNDS} bursts of ${BURST} events, ${spread(renders)}, arriving over ${median(frames)} frames; the view notified ${median(notifications)} times); renders per frame with events, worst round: ${figure.toFixed(2)}; target 1: ${figure <= 1 ? 'ok' : 'MISSED'}`,
  );
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
  server.close();
  await sim.close();
}
