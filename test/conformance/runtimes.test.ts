// The runtime smoke suite (test/runtimes/smoke.ts) against the real agent server, in headless Chromium and in
// Deno with only --allow-net --allow-read (scripts/test-runtimes.mjs runs every runtime against the simulator):
// REST with typed errors and a live run per socket protocol compared with the REST history, on the newest
// version of the run and the oldest. Then a page on a non-loopback origin: the server's CORS refuses its REST
// calls (the SDK says it may be CORS), its WebSocket does not check Origin (docs/runtimes.md).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BuiltApp,
  chromiumMissing,
  inChromiumPage,
  prepareApp,
  RUNTIMES,
  runCell,
} from '../../scripts/test-runtimes.mjs';
import { ConversationsClient } from '../../src/index.js';
import { requirePeer, versionsUnderTest } from '../peers/peers.js';
import type { CorsProbe } from '../runtimes/cors-probe.js';
import type { SmokeConfig } from '../runtimes/smoke.js';
import { type RealAgentServer, startRealAgentServer } from './support/agent-server.js';
import { type FakeLlm, startFakeLlm } from './support/fake-llm.js';
import { startBody } from './support/scenarios.js';

const all = versionsUnderTest('agent-server');
const versions = [...new Set([all.at(-1), all[0]].filter((entry) => entry !== undefined))];
const chromiumSkip = chromiumMissing();
if (chromiumSkip) console.log(`runtimes: the Chromium cells are skipped: ${chromiumSkip}`);
const cells = RUNTIMES.filter(
  (runtime) => runtime.label === 'deno' || (runtime.label === 'chromium' && !chromiumSkip),
);

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let work: string;
let built: BuiltApp;
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'runtime-smoke-real-'));
  built = await prepareApp(work);
});
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe.each(versions.map((entry) => entry.version))('the real agent server %s', (version) => {
  const venv = requirePeer('agent-server', version);
  let server: RealAgentServer;
  let llm: FakeLlm;
  let config: SmokeConfig;

  beforeAll(async () => {
    if (!venv) return;
    llm = await startFakeLlm();
    server = await startRealAgentServer(venv, version);
    const { initial_message: _first, ...conversation } = startBody(server, llm);
    config = {
      agentServer: { url: server.url, sessionApiKey: server.sessionApiKey, version },
      conversation,
      closedPort: await closedPort(),
      timeoutMs: 90_000,
    };
  });
  afterAll(async () => {
    await server?.close();
    await llm?.close();
  });

  it.skipIf(!venv).each(cells.map((runtime) => [runtime.label, runtime] as const))(
    '%s: every check of the smoke suite',
    async (label, runtime) => {
      const result = await runCell(runtime, built, config, `${label} real ${version}`);
      console.log(result.line);
      expect(result.ok, result.line).toBe(true);
      expect(result.checks?.some((check) => check.name.startsWith('live:'))).toBe(true);
    },
  );

  it.skipIf(!venv || chromiumSkip !== undefined)(
    'a page on a non-loopback origin: REST refused by CORS and said so; the socket opens anyway',
    async () => {
      const { id } = await new ConversationsClient({
        baseUrl: server.url,
        sessionApiKey: server.sessionApiKey,
      }).create(config.conversation as never);
      const probe = await inChromiumPage<CorsProbe>(
        built,
        'probeCors',
        { url: server.url, sessionApiKey: server.sessionApiKey, conversationId: id },
        'app.example',
      );
      console.log(`runtimes: CORS from ${probe.origin}: ${JSON.stringify(probe)}`);
      expect(probe.rest).not.toBe('ok');
      const rest = probe.rest as { name: string; message: string };
      expect(rest.name).toBe('APIConnectionError');
      expect(rest.message).toContain('may be CORS');
      expect(rest.message).toContain('allow_cors_origins');
      expect(probe.socketOpened).toBe(true);
    },
  );
});
