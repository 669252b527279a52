import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  EventsClient,
  isSubscriptionAuthenticationError,
  isSubscriptionNotFoundError,
  type SubscriptionError,
} from '../../../src/agent-server/index.js';
import { isAPIUserAbortError, isAuthenticationError } from '../../../src/core/errors.js';
import { type AgentServerLoopback, serveAgentServer } from '../../../src/testing.js';
import { type SdkTimers, trackSdkTimers } from '../../helpers/sdk-timers.js';
import { seededRandom } from '../../helpers/seeded-random.js';
import { sleep, until } from '../simulated.js';

// A real `ws` server on loopback (src/testing/agent-server/loopback.ts) and Node's built-in WebSocket client.
const KEY = 'loopback-session-key-77';
const servers: AgentServerLoopback[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function start(version: string, sessionApiKey: string | undefined = KEY) {
  const server = await serveAgentServer({ version, sessionApiKey });
  servers.push(server);
  return server;
}

function clientFor(server: AgentServerLoopback, sessionApiKey: string = KEY) {
  // Fail REST calls fast while the server is down: the subscription retries on its own.
  return new EventsClient({ baseUrl: server.url, sessionApiKey, logLevel: 'off', maxRetries: 0 });
}

describe.each([
  ['1.11.4', 'resend_all + REST backfill, query auth'],
  ['1.25.0', 'resend_mode=since, first-message auth'],
  ['1.58.0', '/sockets/session, after_seq'],
])('server %s (%s) killed and restarted mid-stream while it publishes', (version) => {
  it('delivers every event exactly once and in order', async () => {
    const server = await start(version);
    const { store } = server;
    const id = store.addConversation().id;
    const next = seededRandom(version === '1.11.4' ? 11 : version === '1.25.0' ? 25 : 58);
    // Some history first: the subscription starts from the beginning of the conversation.
    for (let i = 0; i < 120; i += 1) store.publish(id, store.message(`history ${i}`));

    const sub = clientFor(server).subscribe(id, {
      history: true,
      reconnect: { initialDelay: 5, maxDelay: 40 },
    });
    let reconnects = 0;
    const trace: string[] = [];
    sub.on('reconnecting', (r) => {
      reconnects += 1;
      trace.push(`reconnecting ${r.reason} ${r.attempt} ${String(r.error)}`);
    });
    sub.on('open', () => trace.push(`open ${received.length}`));
    sub.on('error', (e) => trace.push(`error ${e.message}`));
    sub.on('close', (c) => trace.push(`close ${c.reason} ${c.error?.message}`));
    const protocols = new Set<string>();
    sub.on('open', (info) => protocols.add(info.protocol));
    const received: string[] = [];
    const consumer = (async () => {
      for await (const event of sub) received.push(event.id as string);
    })();

    // The conversation goes on whether or not the socket server is up: the event log is persisted. Some events
    // at random moments, and a batch in every round, so that the count does not depend on how often a busy
    // machine runs the interval.
    let published = 0;
    const publish = (count: number) => {
      for (let i = 0; i < count; i += 1) store.publish(id, store.message(`live ${published++}`));
    };
    const publisher = setInterval(() => publish(3), 1);

    // Every other round kills a subscription known to be connected, which must show as a reconnect; the others
    // kill whenever the dice say, also while it is still waiting to reconnect from the previous kill.
    let liveKills = 0;
    for (let round = 0; round < 20; round += 1) {
      if (round % 2 === 0) await until(() => sub.phase === 'live', `live before kill ${round}`);
      await sleep(15 + next() * 45);
      publish(8);
      if (sub.phase === 'live' || sub.phase === 'syncing') liveKills += 1;
      await server.kill();
      publish(8);
      await sleep(5 + next() * 40);
      await server.restart();
    }
    await sleep(30);
    clearInterval(publisher);

    const expected = store.getConversation(id)!.events.map((event) => event.id);
    // On a timeout the assertions below show what is missing.
    await until(() => received.length >= expected.length, 'every event').catch(() => undefined);
    // A little longer, for a duplicate to show.
    await sleep(50);
    sub.close();
    await consumer;

    expect(published).toBeGreaterThan(300);
    expect(liveKills).toBeGreaterThanOrEqual(10);
    expect(reconnects).toBeGreaterThanOrEqual(liveKills);
    expect(new Set(received).size).toBe(received.length);
    // On a failure, what the subscription went through.
    expect(received, trace.join('\n')).toEqual(expected);
    expect([...protocols]).toEqual([version === '1.58.0' ? 'session' : 'events']);
  }, 60_000);
});

describe('fatal closes over a real socket: typed error, no reconnect', () => {
  it('close 4001 (first-message auth, wrong key)', async () => {
    const server = await start('1.25.0');
    const id = server.store.addConversation().id;
    const sub = clientFor(server, 'wrong-key-4001').subscribe(id, { reconnect: { initialDelay: 5 } });
    const error = (await sub.ready.catch((e: unknown) => e)) as SubscriptionError;
    expect(isSubscriptionAuthenticationError(error)).toBe(true);
    expect(error.closeCode).toBe(4001);
    await sleep(100);
    expect(server.upgradeRequests()).toBe(1);
  });

  it('close 4004 (unknown conversation)', async () => {
    const server = await start('1.25.0');
    const missing = crypto.randomUUID();
    const sub = clientFor(server).subscribe(missing, { reconnect: { initialDelay: 5 } });
    const error = (await sub.ready.catch((e: unknown) => e)) as SubscriptionError;
    expect(isSubscriptionNotFoundError(error)).toBe(true);
    expect(error.closeCode).toBe(4004);
    expect(error.message).toContain(`Conversation ${missing} not found`);
    await sleep(100);
    expect(server.upgradeRequests()).toBe(1);
  });

  it('handshake refused with HTTP 403 (anchor, wrong key)', async () => {
    const server = await start('1.11.4');
    const id = server.store.addConversation().id;
    const sub = clientFor(server, 'wrong-key-403').subscribe(id, { reconnect: { initialDelay: 5 } });
    const error = (await sub.ready.catch((e: unknown) => e)) as SubscriptionError;
    expect(isSubscriptionAuthenticationError(error)).toBe(true);
    expect(isAuthenticationError(error.cause)).toBe(true);
    await sleep(100);
    expect(server.upgradeRequests()).toBe(1);
    expect(server.acceptedConnections()).toBe(0);
  });
});

describe('ending leaves nothing behind', () => {
  // Only the SDK's own timers: the servers' and earlier tests' end when a busy machine gets to them.
  let sdkTimers: SdkTimers;
  beforeEach(() => {
    sdkTimers = trackSdkTimers();
  });
  afterEach(() => sdkTimers.stop());

  it('break closes the socket on the server and leaves no timers', async () => {
    const server = await start('1.25.0');
    const { store } = server;
    const id = store.addConversation().id;
    const sub = clientFor(server).subscribe(id);
    const got = (async () => {
      for await (const event of sub) return event;
      return undefined;
    })();
    await until(() => sub.phase === 'live');
    // The server counts a socket once it has read the auth frame, which on a busy machine can come after the
    // subscription got live (its state can come over REST): wait for it, do not race it.
    await until(() => server.connections() === 1, 'the server to accept the socket');
    store.publish(id, store.message('one'));
    expect((await got)?.kind).toBe('MessageEvent');
    expect(sub.closed).toBe(true);
    expect(sdkTimers.alive()).toBe(0);
    await until(() => server.connections() === 0, 'the server to see the close');
  });

  it('abort while live closes the socket and leaves no timers', async () => {
    const server = await start('1.25.0');
    const id = server.store.addConversation().id;
    const controller = new AbortController();
    const sub = clientFor(server).subscribe(id, { signal: controller.signal });
    const consumed = (async () => {
      for await (const _event of sub) {
        // nothing arrives
      }
    })().catch((e: unknown) => e);
    await until(() => sub.phase === 'live');
    controller.abort();
    expect(isAPIUserAbortError(await consumed)).toBe(true);
    expect(sdkTimers.alive()).toBe(0);
    await until(() => server.connections() === 0, 'the server to see the close');
  });

  it('abort while waiting to reconnect cancels the backoff timer: no later attempt', async () => {
    const server = await start('1.25.0');
    const id = server.store.addConversation().id;
    const controller = new AbortController();
    const sub = clientFor(server).subscribe(id, {
      signal: controller.signal,
      reconnect: { initialDelay: 400, maxDelay: 400 },
    });
    await until(() => sub.phase === 'live');
    const waiting = new Promise((resolve) => sub.once('reconnecting', resolve));
    await server.kill();
    await waiting;
    expect(sub.phase).toBe('waiting');
    // The backoff timer is the one the subscription holds while it waits.
    expect(sdkTimers.alive()).toBe(1);
    controller.abort();
    expect(sdkTimers.alive()).toBe(0);
    await server.restart();
    await sleep(500);
    expect(server.acceptedConnections()).toBe(1);
    expect(sub.closed).toBe(true);
  });
});
