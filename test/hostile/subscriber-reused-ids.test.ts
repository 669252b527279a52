/**
 * Issue 24 item 4 on the path the msw doubles do not reach: a `/sockets/events` frame that reuses a delivered id
 * with new content while the connection is still catching up over REST (frames held back, not delivered yet).
 * It is reported and logged there too, never held or delivered; the events after it still arrive.
 */

import { describe, expect, it } from 'vitest';
import type { WebSocket as WsSocket } from 'ws';
import { isSubscriptionProtocolError } from '../../src/agent-server/index.js';
import type { Event } from '../../src/models/index.js';
import { at, clientFor, fast, fullState, ID, legacyServer, message, until } from './subscriber-server.js';

describe('a reused id among the frames held back during a catch-up', () => {
  it('is reported and logged at once, not delivered; the next event arrives after the catch-up', async () => {
    const sockets: WsSocket[] = [];
    const server = await legacyServer((socket, connection, state) => {
      sockets.push(socket);
      socket.send(fullState());
      if (connection === 1) {
        state.log.push(message(0, at(10, 0)));
        socket.send(JSON.stringify(message(0, at(10, 0))));
      } else if (connection === 2) {
        // The catch-up of this connection hangs: both frames are held back until it ends.
        socket.send(JSON.stringify(message(0, at(10, 5), { llm_message: { role: 'user', content: [] } })));
        state.log.push(message(1, at(10, 6)));
        socket.send(JSON.stringify(message(1, at(10, 6))));
      }
    });
    const logs: string[] = [];
    const sub = clientFor(server, logs).subscribe(ID, { reconnect: fast });
    const errors: Error[] = [];
    sub.on('error', (error) => errors.push(error));
    const received: Event[] = [];
    const loop = (async () => {
      for await (const event of sub) {
        received.push(event);
        if (received.length === 2) return;
      }
    })();
    await until(() => received.length === 1, 'event-0');
    server.search = 'hang';
    sockets[0]?.close(1011, 'restart');
    await until(() => errors.length > 0, 'the report');
    expect(sub.phase).toBe('syncing');
    expect(errors.every(isSubscriptionProtocolError)).toBe(true);
    expect(errors.map((error) => error.message)).toEqual([
      expect.stringMatching(/^event id event-0 was reused with new content .*not delivered again$/),
    ]);
    expect(
      logs.filter((line) => line.startsWith('warn') && line.includes('event-0 was reused')),
    ).toHaveLength(1);
    // The stuck catch-up ends with the connection; the next one reads the log (event-0 once, event-1).
    server.search = 'ok';
    sockets[1]?.close(1011, 'restart');
    await loop;
    sub.close();
    expect(received.map((event) => event.id)).toEqual(['event-0', 'event-1']);
    expect(errors).toHaveLength(1);
  }, 10_000);
});
