// A slow consumer on the real newest server's `/sockets/session`. The server bounds what one connection may
// have waiting to be written (16 MiB of frame JSON in 1.58.0, docs/compatibility.md) and, over it, drops the
// connection with close 1013 `slow_consumer` instead of blocking its publisher; a reconnect with `after_seq`
// is how nothing is lost. Here the app stops reading its socket (the server's writes back up) while another
// process posts large messages: the subscriber must show the close as a `reconnecting` reason, resume from
// the last delivered `seq`, and deliver every persisted event exactly once, in the server's log order.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket as WsClient } from 'ws';
import { supportsFeature } from '../../src/agent-server/index.js';
import {
  AGENT_SERVER_FEATURES,
  ConversationsClient,
  type Event,
  EventsClient,
  type ReconnectInfo,
} from '../../src/index.js';
import { newestVersion, requirePeer } from '../peers/peers.js';
import { persistedLogOrder, type RealAgentServer, startRealAgentServer } from './support/agent-server.js';
import { type FakeLlm, startFakeLlm } from './support/fake-llm.js';
import { startBody } from './support/scenarios.js';

const version = process.env.CONFORMANCE_VERSIONS?.split(',')[0] ?? newestVersion('agent-server');
const venv = requirePeer('agent-server', version);
const sessionSocket = venv !== undefined && supportsFeature(version, AGENT_SERVER_FEATURES.sessionSocket);

/**
 * Messages of 3 MiB (under the server's 4 MiB frame cap). While the app reads nothing, the server's writes back up
 * in the kernel's socket buffers first (a loopback receive buffer may grow to `tcp_rmem`'s maximum, 32 MiB
 * here; send buffers to 4 MiB) and only then in its pending budget: 24 of them are past all three.
 */
const MESSAGE_BYTES = 3 * 1024 * 1024;
const MESSAGES = 24;

/**
 * Another process posts the messages, then writes `MARKER`.
 * Plain fetch: what is under test is the subscriber, not the REST client.
 */
const POSTER = `
const { writeFileSync } = require('node:fs');
const { randomBytes } = require('node:crypto');
(async () => {
  const { BASE, KEY, ID, COUNT, BYTES, MARKER } = process.env;
  for (let i = 0; i < Number(COUNT); i += 1) {
    // Random text: the socket compresses frames (permessage-deflate), and repeated letters would shrink
    // to nothing on the wire while the server still counts their full size.
    const text = (i + ':' + randomBytes(Number(BYTES)).toString('base64')).slice(0, Number(BYTES));
    const response = await fetch(BASE + '/api/conversations/' + ID + '/events', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-Session-API-Key': KEY },
      body: JSON.stringify({ role: 'user', content: [{ type: 'text', text }], run: false }),
    });
    if (!response.ok) throw new Error('POST ' + response.status);
  }
  writeFileSync(MARKER, 'done');
})().catch((error) => { writeFileSync(MARKER, String(error)); process.exit(1); });
`;

/**
 * The app reads slowly: a `ws` WebSocket whose TCP socket can be paused, so nothing more is read from it
 * (the server's writes back up) while this process goes on answering everything else (the fake LLM).
 */
class PausableWebSocket extends WsClient {
  static current: PausableWebSocket | undefined;

  constructor(url: string, ...rest: unknown[]) {
    super(url, ...(rest as []));
    PausableWebSocket.current = this;
  }

  /** Stops reading until `marker` exists (checked every 50 ms), or `limitMs` passes. */
  pauseUntil(marker: string, limitMs: number): void {
    const socket = (this as unknown as { _socket?: { pause(): void; resume(): void } })._socket;
    socket?.pause();
    const until = Date.now() + limitMs;
    const timer = setInterval(() => {
      if (!existsSync(marker) && Date.now() < until) return;
      clearInterval(timer);
      socket?.resume();
    }, 50);
  }
}

describe.skipIf(!sessionSocket)(`slow consumer on the real agent server ${version}`, () => {
  let server: RealAgentServer;
  let llm: FakeLlm;
  let events: EventsClient;
  let conversations: ConversationsClient;
  let scratch: string;

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'slow-consumer-'));
    llm = await startFakeLlm();
    server = await startRealAgentServer(venv as string, version);
    const options = { baseUrl: server.url, sessionApiKey: server.sessionApiKey, logLevel: 'off' as const };
    events = new EventsClient(options);
    conversations = new ConversationsClient(options);
  });

  afterAll(async () => {
    await server?.close();
    await llm?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('closed with 1013 slow_consumer: a visible reconnecting reason, then after_seq resumes with nothing lost or repeated', async () => {
    const body = startBody(server, llm);
    const info = await conversations.create({ agent: body.agent, workspace: body.workspace });
    const marker = join(scratch, 'posted');

    const reconnects: ReconnectInfo[] = [];
    const received: Event[] = [];
    const subscription = events.subscribe(info.id, {
      protocol: 'session',
      history: true,
      WebSocket: PausableWebSocket,
      // The SDK's own bounds out of the way: what is met here is the server's budget.
      maxBufferedBytes: 1024 * 1024 * 1024,
      maxBufferedEvents: 100_000,
      reconnect: { initialDelay: 100, overloadedDelay: 200, maxDelay: 1_000, giveUpAfter: 60_000 },
    });
    subscription.on('reconnecting', (reconnect) => reconnects.push(reconnect));
    const following = (async () => {
      for await (const event of subscription) received.push(event);
    })();
    await subscription.ready;
    // From here on the app reads nothing until every message is posted.
    const socket = PausableWebSocket.current;
    expect(socket).toBeDefined();
    socket?.pauseUntil(marker, 120_000);

    const poster = spawn(process.execPath, ['-e', POSTER], {
      stdio: 'ignore',
      env: {
        ...process.env,
        BASE: server.url,
        KEY: server.sessionApiKey,
        ID: info.id,
        COUNT: String(MESSAGES),
        BYTES: String(MESSAGE_BYTES),
        MARKER: marker,
      },
    });
    try {
      // Every message persisted, then the subscription has delivered the last of them.
      const deadline = Date.now() + 150_000;
      let logOrder: string[] = [];
      for (;;) {
        if (Date.now() > deadline) throw new Error(`not every message arrived\n${server.log().slice(-3000)}`);
        logOrder = existsSync(marker) ? persistedLogOrder(server, info.id) : [];
        const messages = logOrder.length > 0 && existsSync(marker);
        if (messages && received.some((event) => event.id === logOrder.at(-1))) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(readFileSync(marker, 'utf8')).toBe('done');
      subscription.close();
      await following;

      // The server's close, as the app sees it.
      expect(server.log()).toMatch(/session_socket_slow_consumer|reason=slow_consumer/);
      expect(reconnects).toContainEqual(
        expect.objectContaining({ reason: 'slow-consumer', closeCode: 1013, closeReason: 'slow_consumer' }),
      );
      // The next connection resumed from a delivered `seq` (not the whole history again, not live only).
      const resumedFrom = [...server.log().matchAll(/after_seq=(-?\d+)/g)].map((match) => Number(match[1]));
      expect(resumedFrom[0]).toBe(-1);
      expect(resumedFrom.slice(1).some((seq) => seq > 0)).toBe(true);
      // Every persisted event once, in log order (`seq` is the log index).
      const persisted = new Set(logOrder);
      const delivered = received.map((event) => String(event.id)).filter((id) => persisted.has(id));
      expect(delivered).toEqual(logOrder);
      expect(received.length).toBe(new Set(received.map((event) => String(event.id))).size);
      const texts = received
        .filter((event) => event.kind === 'MessageEvent')
        .map(
          (event) => (event as { llm_message: { content: { text: string }[] } }).llm_message.content[0]?.text,
        );
      expect(texts.map((text) => text?.split(':')[0])).toEqual(
        Array.from({ length: MESSAGES }, (_, i) => String(i)),
      );
    } finally {
      if (poster.exitCode === null) poster.kill('SIGKILL');
      subscription.close();
    }
  }, 240_000);

  // Issue 34 item 3, scaled down: a slow `for await` loop of events several times `maxBufferedBytes` on the
  // runtime's built-in WebSocket (it cannot pause reading). The loop takes nothing until every message is
  // posted; then the subscription must deliver every persisted event once, in log order, and never end in a
  // reconnect loop (`sync-overflow`, then SubscriptionConnectionError): held frames past the bound are read
  // again over REST on the same connection, and a full buffer once live catches up over REST at the loop's pace.
  it.each([
    ['session', true],
    ['session', false],
    ['events', true],
  ] as const)(
    'large events, a slow loop, /sockets/%s (history %s), built-in WebSocket: every event once, in order, no reconnect loop',
    async (protocol, history) => {
      const body = startBody(server, llm);
      const info = await conversations.create({ agent: body.agent, workspace: body.workspace });
      const marker = join(scratch, `posted-${protocol}-${history}`);
      const count = 16;
      const reconnects: ReconnectInfo[] = [];
      const errors: Error[] = [];
      const received: Event[] = [];
      const subscription = events.subscribe(info.id, {
        protocol,
        history,
        WebSocket: globalThis.WebSocket as never,
        maxBufferedBytes: 1024 * 1024,
      });
      subscription.on('reconnecting', (reconnect) => reconnects.push(reconnect));
      subscription.on('error', (error) => errors.push(error));
      let most = 0;
      subscription.on('event', () => {
        most = Math.max(most, subscription.bufferedBytes);
      });
      await subscription.ready;
      const poster = spawn(process.execPath, ['-e', POSTER], {
        stdio: 'ignore',
        env: {
          ...process.env,
          BASE: server.url,
          KEY: server.sessionApiKey,
          ID: info.id,
          COUNT: String(count),
          BYTES: String(512 * 1024),
          MARKER: marker,
        },
      });
      const posted = (async () => {
        while (!existsSync(marker)) await new Promise((resolve) => setTimeout(resolve, 50));
      })();
      try {
        const following = (async () => {
          for await (const event of subscription) {
            await posted;
            received.push(event);
            const logOrder = persistedLogOrder(server, info.id);
            if (received.some((item) => item.id === logOrder.at(-1)) && logOrder.length > count) break;
          }
        })();
        await Promise.race([
          following,
          new Promise((_, reject) =>
            setTimeout(() => reject(new Error('not every message arrived')), 120_000),
          ),
        ]);
        expect(readFileSync(marker, 'utf8')).toBe('done');
        const logOrder = persistedLogOrder(server, info.id);
        const persisted = new Set(logOrder);
        const delivered = received.map((event) => String(event.id)).filter((id) => persisted.has(id));
        // History: the whole log; live only: everything from the first message on.
        const expected = history ? logOrder : logOrder.slice(logOrder.indexOf(delivered[0] ?? ''));
        expect(delivered).toEqual(expected);
        expect(received.length).toBe(new Set(received.map((event) => String(event.id))).size);
        const texts = received
          .filter((event) => event.kind === 'MessageEvent')
          .map(
            (event) =>
              (event as { llm_message: { content: { text: string }[] } }).llm_message.content[0]?.text,
          );
        expect(texts.map((text) => text?.split(':')[0])).toEqual(
          Array.from({ length: count }, (_, i) => String(i)),
        );
        expect(reconnects.map((reconnect) => reconnect.reason)).not.toContain('sync-overflow');
        expect(errors).toEqual([]);
        // The loop's buffer: the bound and the one frame that reached it.
        expect(most).toBeLessThan(1024 * 1024 + 600 * 1024);
      } finally {
        if (poster.exitCode === null) poster.kill('SIGKILL');
        subscription.close();
      }
    },
    180_000,
  );
});
