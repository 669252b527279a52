/**
 * A live-only `/sockets/session` connection gets envelopes below its `sync.through_seq` (compatibility A39).
 * The real 1.58 subscribes the connection first and reads its mark (`through_seq`, the log's last `seq`)
 * after; to a live-only connection it then sends everything published since it subscribed, without deduping
 * against the mark (session_socket.py: `go_live(None)`). So an event appended between the two comes on the
 * socket with a `seq` at or below `through_seq`: it is after the connection, not before it. Dropped by `seq`, it
 * was lost whether REST had it or not: the catch-up delivers REST's events up to the first one the socket holds
 * and leaves that one and the rest to the socket's copies. Seen once on 1.58.1 in a CI rehearsal (the run's
 * SystemPromptEvent, seq 0, after `sync.through_seq 1`); a probe subscribing while a run appends lost 3 events
 * in 1 of 16 runs on 1.58.1 before the fix, 0 of 16 after (3 runs got envelopes below `through_seq`).
 * Every order below must deliver every event once, in the log's order.
 */
import { describe, expect, it } from 'vitest';
import type { WebSocket as WsSocket } from 'ws';
import { isSubscriptionProtocolError } from '../../../src/agent-server/index.js';
import { until } from '../simulated.js';
import { client, event, fast, fullState, hostile, ID, range } from './hostile-session.js';

const sync = (through: number) => JSON.stringify({ type: 'sync', through_seq: through });

/** Three events of one run, each built once: the socket and REST send the same content (same timestamp). */
function run() {
  const events = [0, 1, 2].map((n) => event(n));
  const durable = (seq: number) => JSON.stringify({ type: 'durable', seq, event: events[seq] });
  return { events, durable };
}

/** Follows a live-only subscription until `event-2`; what it delivered, and the protocol errors it reported. */
async function follow(server: Awaited<ReturnType<typeof hostile>>, onOpen?: () => void) {
  const logs: string[] = [];
  const sub = client(server, logs).subscribe(ID, { reconnect: fast });
  const errors: string[] = [];
  sub.on('error', (error) => {
    if (isSubscriptionProtocolError(error)) errors.push(error.message);
  });
  if (onOpen) sub.on('open', onOpen);
  const ids: string[] = [];
  for await (const item of sub) {
    ids.push(String(item.id));
    if (item.id === 'event-2') break;
  }
  return { ids, errors, logs };
}

describe('live only: envelopes below sync.through_seq are after the connection (A39)', () => {
  it.each([
    ['REST does not have seq 0 yet', [] as number[]],
    ['REST has seq 0 and 1', [0, 1]],
    ['REST has seq 1 only', [1]],
  ])(
    'sync through 1, seq 0 to 2 held until the first state, %s: every event once, in order',
    async (_what, onRest) => {
      const { events, durable } = run();
      const server = await hostile((socket) => {
        socket.send(sync(1));
        for (let seq = 0; seq < 3; seq += 1) socket.send(durable(seq));
        // The first state after the envelopes: they are held back until the catch-up has read REST.
        socket.send(fullState());
      });
      server.restEvents = onRest.map((n) => events[n] as Record<string, unknown>);
      const { ids, errors } = await follow(server);
      expect(ids).toEqual(range(3));
      expect(errors).toEqual([]);
    },
  );

  it('sync through 1, the first state, then seq 0 to 2 (while or after the catch-up reads an empty page)', async () => {
    const { durable } = run();
    const server = await hostile((socket) => {
      socket.send(sync(1));
      socket.send(fullState());
      for (let seq = 0; seq < 3; seq += 1) socket.send(durable(seq));
    });
    const { ids, errors } = await follow(server);
    expect(ids).toEqual(range(3));
    expect(errors).toEqual([]);
  });

  it('sync through 1, REST empty, seq 0 only once the connection is live: delivered, then 1 and 2', async () => {
    const { durable } = run();
    let live: WsSocket | undefined;
    const server = await hostile((socket) => {
      live = socket;
      socket.send(sync(1));
      socket.send(fullState());
    });
    let opened = false;
    const following = follow(server, () => {
      opened = true;
    });
    await until(() => opened && live !== undefined, 'the connection live');
    for (let seq = 0; seq < 3; seq += 1) live?.send(durable(seq));
    const { ids, errors } = await following;
    expect(ids).toEqual(range(3));
    expect(errors).toEqual([]);
  });

  it('an envelope below through_seq that REST delivered already comes again: not twice, not reported', async () => {
    const { events, durable } = run();
    let live: WsSocket | undefined;
    const server = await hostile((socket) => {
      live = socket;
      socket.send(sync(1));
      socket.send(fullState());
    });
    server.restEvents = [events[0] as Record<string, unknown>];
    let opened = false;
    const following = follow(server, () => {
      opened = true;
    });
    await until(() => opened && live !== undefined, 'the connection live');
    for (let seq = 0; seq < 3; seq += 1) live?.send(durable(seq));
    const { ids, errors } = await following;
    expect(ids).toEqual(range(3));
    expect(errors).toEqual([]);
  });
});
