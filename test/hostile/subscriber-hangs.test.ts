/**
 * Issue 18 item 5 against a hostile `/sockets/events` server: every wait is bounded and every retry loop is
 * visible. A handshake never answered, a `/server_info` that never answers while the app closes, a catch-up
 * whose paging keeps failing, a server rolled back to a version without the cached auth method, and a
 * `for await` that starts after the backlog was dropped.
 */
import { describe, expect, it } from 'vitest';
import type { CloseInfo, ReconnectInfo } from '../../src/agent-server/index.js';
import { isSubscriptionConnectionError, isSubscriptionOverflowError } from '../../src/agent-server/index.js';
import {
  at,
  clientFor,
  fast,
  fullState,
  ID,
  KEY,
  legacyServer,
  message,
  until,
} from './subscriber-server.js';

describe('no silent hangs', () => {
  it('a handshake the server never answers counts against readyTimeout: reconnecting (ready-timeout)', async () => {
    const server = await legacyServer(() => undefined);
    server.handshake = 'hang';
    const sub = clientFor(server).subscribe(ID, { readyTimeout: 200, reconnect: fast });
    const reconnecting: ReconnectInfo[] = [];
    sub.on('reconnecting', (info) => reconnecting.push(info));
    await until(() => reconnecting.length > 0, 'a reconnect');
    expect(reconnecting[0]).toMatchObject({ reason: 'ready-timeout', attempt: 1 });
    sub.close();
  });

  it('close() while /server_info hangs ends the lookup: the server sees the client hang up', async () => {
    const server = await legacyServer(() => undefined);
    server.version = 'hang';
    const sub = clientFor(server).subscribe(ID, { reconnect: fast });
    await until(() => server.serverInfoRequests === 1, 'the /server_info request');
    sub.close();
    await until(() => server.abandoned.serverInfo === 1, 'the request to be aborted');
    expect(sub.phase).toBe('closed');
  });

  it('a catch-up whose paging keeps failing: reconnecting (sync-failed) with a growing attempt, then SubscriptionConnectionError', async () => {
    const server = await legacyServer((socket) => socket.send(fullState()));
    server.search = 'fail';
    // Ended by a count of attempts, not a wall-clock budget, so a busy machine sees the same run (issue 31).
    const sub = clientFor(server).subscribe(ID, {
      history: true,
      reconnect: { ...fast, maxAttempts: 3 },
    });
    const reconnecting: ReconnectInfo[] = [];
    sub.on('reconnecting', (info) => reconnecting.push(info));
    const info = await new Promise<CloseInfo>((resolve) => sub.once('close', resolve));
    expect(info.reason).toBe('error');
    expect(isSubscriptionConnectionError(info.error)).toBe(true);
    expect(info.error?.message).toContain('3 failed connection attempts');
    expect(reconnecting).toHaveLength(3);
    expect(reconnecting.map((item) => item.reason)).toEqual(reconnecting.map(() => 'sync-failed'));
    expect(reconnecting.map((item) => item.attempt)).toEqual(reconnecting.map((_, i) => i + 1));
  });

  it('a server rolled back to a version without the cached auth method: the version is read again and events arrive', async () => {
    const server = await legacyServer((socket, _connection, state) => {
      socket.send(fullState());
      const event = message(0, at(10, 0));
      state.log.push(event);
      socket.send(JSON.stringify(event));
    }, '1.25.0');
    const client = clientFor(server, [], KEY);
    expect((await client.serverInfo()).version).toBe('1.25.0'); // cached: first-message auth
    // Rolled back to 1.11.4: no first-message auth, the key must be in the query.
    server.version = '1.11.4';
    server.handshake = 'require-query-key';
    const sub = client.subscribe(ID, { reconnect: fast });
    const ids: string[] = [];
    for await (const event of sub) {
      ids.push(String(event.id));
      break;
    }
    expect(ids).toEqual(['event-0']);
    expect(server.handshakes[0]?.get('session_api_key')).toBeNull();
    expect(server.handshakes.at(-1)?.get('session_api_key')).toBe(KEY);
  });

  it('a for-await that starts after the backlog was dropped gets SubscriptionOverflowError, and the loss is logged at warn', async () => {
    const server = await legacyServer((socket) => {
      socket.send(fullState());
      for (let n = 0; n < 6; n += 1) socket.send(JSON.stringify(message(n, at(10, n))));
    });
    const logs: string[] = [];
    const sub = clientFor(server, logs).subscribe(ID, { maxBufferedEvents: 3, reconnect: fast });
    let seen = 0;
    sub.on('event', () => {
      seen += 1;
    });
    await until(() => seen === 6, 'six events');
    const loop = sub[Symbol.asyncIterator]();
    await expect(loop.next()).rejects.toSatisfy(isSubscriptionOverflowError);
    expect(logs.some((line) => line.startsWith('warn ') && /listeners only/.test(line))).toBe(true);
    sub.close();
  });
});
