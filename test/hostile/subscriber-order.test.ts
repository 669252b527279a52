/**
 * Issue 18 item 3 against a hostile `/sockets/events` server (servers < 1.45.0): delivery is ordered and
 * deduplicated by what the server sent (its order and its ids), never by comparing timestamps. A clock set
 * back, a frame stamped `9999-…`, `yesterday` or not at all, and a frame without an id lose nothing and
 * deliver nothing twice.
 */
import { describe, expect, it } from 'vitest';
import type { Event } from '../../src/models/index.js';
import { at, clientFor, fast, fullState, ID, legacyServer, message } from './subscriber-server.js';

async function take(sub: AsyncIterable<Event>, count: number): Promise<Event[]> {
  const out: Event[] = [];
  for await (const item of sub) {
    out.push(item);
    if (out.length >= count) break;
  }
  return out;
}

const text = (event: Event) =>
  ((event as { llm_message?: { content?: { text?: string }[] } }).llm_message?.content?.[0]?.text ??
    '') as string;

describe('legacy socket: order and duplicates by the server, not by timestamps', () => {
  it('a clock set back across a reconnect: every event stamped earlier than the last delivered one arrives', async () => {
    const server = await legacyServer((socket, connection, state) => {
      socket.send(fullState());
      if (connection === 1) {
        for (let n = 0; n < 5; n += 1) {
          const event = message(n, at(12, n));
          state.log.push(event);
          socket.send(JSON.stringify(event));
        }
        setTimeout(() => socket.close(1011, 'restart'), 20);
        return;
      }
      // The restarted server's clock is three hours behind: every new event is stamped before the old ones.
      const send = (from: number, to: number) => {
        for (let n = from; n < to; n += 1) {
          const event = message(n, at(9, n));
          state.log.push(event);
          socket.send(JSON.stringify(event));
        }
      };
      send(5, 15); // during the catch-up
      setTimeout(() => send(15, 25), 100); // live
    });
    const sub = clientFor(server).subscribe(ID, { reconnect: fast });
    const events = await take(sub, 25);
    expect(events.map((event) => event.id)).toEqual(Array.from({ length: 25 }, (_, n) => `event-${n}`));
  }, 10_000);

  // Issue 24, item 5: the events published while the socket was down are stamped an hour before the ones
  // delivered (the server's clock was set back meanwhile). The socket's resend (`since` the last position)
  // leaves them out; the REST catch-up reads from the server's time of the last contact, not from the last
  // timestamp delivered: 0 lost, 0 twice.
  it.each([
    ['1.20.0', 'resend_mode=since'],
    ['1.11.4', 'resend_all'],
  ])(
    '%s (%s): a clock set back an hour during an outage loses nothing',
    async (version) => {
      const server = await legacyServer((socket, connection, state) => {
        if (connection === 1) {
          socket.send(fullState(at(12, 0)));
          for (let n = 0; n < 200; n += 1) {
            const event = message(n, at(12, n + 1));
            state.log.push(event);
            socket.send(JSON.stringify(event));
          }
          setTimeout(() => socket.close(1011, 'restart'), 20);
          return;
        }
        if (connection === 2) {
          // Persisted while no socket was up, stamped by the clock set back an hour.
          for (let n = 200; n < 400; n += 1) state.log.push(message(n, at(11, n)));
        }
        // The snapshot tells the server's time now (the new clock).
        socket.send(fullState(at(11, 400)));
        // What the client asked to be resent: resend_all, the whole log; resend_mode=since, what is stamped at
        // or after the last position (hour 12): nothing of the outage.
        const query = state.handshakes.at(-1);
        const since = query?.get('resend_mode') === 'since' ? query.get('after_timestamp') : null;
        for (const event of state.log) {
          if (query?.get('resend_all') === 'true' || (since !== null && String(event.timestamp) >= since))
            socket.send(JSON.stringify(event));
        }
      }, version);
      const sub = clientFor(server).subscribe(ID, { reconnect: fast });
      const events = await take(sub, 400);
      expect(events.map((event) => event.id)).toEqual(Array.from({ length: 400 }, (_, n) => `event-${n}`));
      // Nothing more: no event twice.
      expect(sub.buffered).toBe(0);
      sub.close();
    },
    10_000,
  );

  it('frames stamped in the far future, not ISO, or not at all do not poison the resume position', async () => {
    const server = await legacyServer((socket, connection, state) => {
      socket.send(fullState());
      const frames =
        connection === 1
          ? [
              message(0, at(10, 0)),
              message(1, '9999-12-31T23:59:59.999999'),
              message(2, 'yesterday'),
              message(3, undefined),
              message(4, at(10, 4)),
            ]
          : Array.from({ length: 20 }, (_, i) => message(5 + i, at(10, 5 + i)));
      for (const event of frames) {
        state.log.push(event);
        socket.send(JSON.stringify(event));
      }
      if (connection === 1) setTimeout(() => socket.close(1011, 'restart'), 20);
    });
    const sub = clientFor(server).subscribe(ID, { reconnect: fast });
    const events = await take(sub, 25);
    expect(events.map((event) => event.id)).toEqual(Array.from({ length: 25 }, (_, n) => `event-${n}`));
    // The position is the newest timestamp that is one: never the far-future or unparseable ones.
    expect(sub.position?.timestamp).toBe(at(10, 24));
  }, 10_000);

  it('a frame without an id is deduplicated by its content, not given a new random id each time', async () => {
    const noId = JSON.stringify(message(0, at(11, 0), { id: undefined }));
    const server = await legacyServer((socket, connection) => {
      socket.send(fullState());
      socket.send(noId);
      if (connection === 1) {
        socket.send(noId); // a duplicate
        socket.send(JSON.stringify(message(1, at(11, 1))));
        setTimeout(() => socket.close(1011, 'restart'), 20);
      } else {
        socket.send(JSON.stringify(message(2, at(11, 2)))); // after the resend of the frame without an id
      }
    });
    const sub = clientFor(server).subscribe(ID, { reconnect: fast });
    const events = await take(sub, 3);
    expect(events.map(text)).toEqual(['message 0', 'message 1', 'message 2']);
  }, 10_000);
});
