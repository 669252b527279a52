import { afterEach, describe, expect, it } from 'vitest';
import { EventsClient } from '../../../src/agent-server/index.js';
import { type AgentServerLoopback, AgentServerStore, serveAgentServer } from '../../../src/testing.js';
import { sleep, until } from '../simulated.js';

// A server upgraded and rolled back while a subscription runs (same port, same persisted log): the subscription
// moves between `/sockets/session` (seq) and `/sockets/events` (ids) and still delivers every event once, in
// order: the ids delivered over one socket must be recognised on the other.
const servers: AgentServerLoopback[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

describe('a server switching versions under a live subscription', () => {
  it('1.58.0 → 1.25.0 → 1.58.0 → 1.11.4 → 1.58.0: every event exactly once, in order, over both sockets', async () => {
    const store = new AgentServerStore();
    const id = store.addConversation().id;
    for (let i = 0; i < 40; i += 1) store.publish(id, store.message(`history ${i}`));
    let server = await serveAgentServer({ version: '1.58.0', store });
    servers.push(server);
    const { port } = server;

    const client = new EventsClient({ baseUrl: server.url, logLevel: 'off', maxRetries: 0 });
    const sub = client.subscribe(id, { history: true, reconnect: { initialDelay: 5, maxDelay: 40 } });
    const protocols: string[] = [];
    sub.on('open', (info) => protocols.push(info.protocol));
    const received: string[] = [];
    const consumer = (async () => {
      for await (const event of sub) received.push(event.id as string);
    })();

    let published = 0;
    const publish = () => {
      for (let i = 0; i < 5; i += 1) store.publish(id, store.message(`live ${published++}`));
    };
    for (const version of ['1.25.0', '1.58.0', '1.11.4', '1.58.0']) {
      await until(() => sub.phase === 'live', 'live');
      publish();
      await until(() => received.length === store.getConversation(id)!.events.length, 'caught up');
      // Killed with events published while it is down, then back as another version on the same port.
      await server.kill();
      servers.splice(servers.indexOf(server), 1);
      publish();
      server = await serveAgentServer({ version, store, port });
      servers.push(server);
      publish();
    }
    await until(() => sub.phase === 'live', 'live');
    publish();
    const expected = () => store.getConversation(id)!.events.map((event) => event.id);
    await until(() => received.length >= expected().length, 'every event').catch(() => undefined);
    await sleep(50);
    sub.close();
    await consumer;

    expect(new Set(received).size).toBe(received.length);
    expect(received).toEqual(expected());
    expect(protocols).toEqual(['session', 'events', 'session', 'events', 'session']);
  }, 60_000);
});
