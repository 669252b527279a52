/**
 * Issue 18 item 4 against a hostile `/sockets/events` server: big frames with a slow consumer, and big frames
 * during a catch-up that hangs. Buffers are bounded in bytes (`maxBufferedBytes`, the frames' text length) as
 * well as in events, with the documented overflow policy.
 */
import { describe, expect, it } from 'vitest';
import type { CloseInfo, ReconnectInfo } from '../../src/agent-server/index.js';
import { EventsClient, isSubscriptionOverflowError } from '../../src/agent-server/index.js';
import { seededRandom } from '../helpers/seeded-random.js';
import {
  at,
  clientFor,
  fast,
  fullState,
  ID,
  legacyServer,
  message,
  sleep,
  until,
} from './subscriber-server.js';

const MiB = 1024 * 1024;
/** A persisted event whose frame is about 300 KB. */
const big = (n: number) => message(n, at(10, n), { extra_padding: 'x'.repeat(300_000) });

describe('buffers bounded by bytes', () => {
  it("a slow consumer with onOverflow 'error': SubscriptionOverflowError before the buffer holds more than the bound", async () => {
    const server = await legacyServer((socket) => {
      socket.send(fullState());
      // Published once the subscription is live (after its REST catch-up): the loop's buffer overflows. (A burst
      // during the catch-up, held back by the connection, ends the same way: see "… during a catch-up" below.)
      setTimeout(() => {
        for (let n = 0; n < 20; n += 1) socket.send(JSON.stringify(big(n)));
      }, 500);
    });
    const sub = clientFor(server).subscribe(ID, {
      maxBufferedBytes: MiB,
      onOverflow: 'error',
      reconnect: fast,
    });
    const closed = new Promise<CloseInfo>((resolve) => sub.once('close', resolve));
    let most = 0;
    sub.on('event', () => {
      most = Math.max(most, sub.bufferedBytes);
    });
    const loop = sub[Symbol.asyncIterator]();
    await loop.next(); // then the consumer stalls
    const info = await closed;
    expect(info.reason).toBe('error');
    expect(isSubscriptionOverflowError(info.error)).toBe(true);
    expect(info.error?.message).toMatch(/maxBufferedBytes 1048576/);
    expect(most).toBeLessThan(MiB + 400_000);
  }, 10_000);

  it("a slow consumer with onOverflow 'pause': the buffer stays within the bound and every event arrives once, in order", async () => {
    const server = await legacyServer((socket, connection, state) => {
      socket.send(fullState());
      if (connection > 1) return; // the rest comes from the REST catch-up
      for (let n = 0; n < 12; n += 1) {
        const event = big(n);
        state.log.push(event);
        socket.send(JSON.stringify(event));
      }
    });
    const sub = clientFor(server).subscribe(ID, { maxBufferedBytes: MiB, reconnect: fast });
    const reasons: string[] = [];
    sub.on('reconnecting', (info) => reasons.push(info.reason));
    const ids: string[] = [];
    let most = 0;
    for await (const event of sub) {
      most = Math.max(most, sub.bufferedBytes);
      ids.push(String(event.id));
      if (ids.length === 12) break;
      await sleep(10); // slower than the server
    }
    expect(ids).toEqual(Array.from({ length: 12 }, (_, n) => `event-${n}`));
    // The built-in WebSocket cannot pause reading: the frames held back past the bound while the connection
    // catches up over REST are dropped and read again over REST, on the same connection, and so are those of a
    // slow loop once live (never a reconnect: test/hostile/subscriber-large-events.test.ts).
    expect(reasons).toEqual([]);
    expect(most).toBeLessThan(MiB + 400_000);
  }, 10_000);

  it('big frames during a catch-up that hangs: the held-back frames are dropped (bounded), the connection stays until the REST read times out (sync-failed)', async () => {
    const server = await legacyServer((socket) => {
      socket.send(fullState());
      for (let n = 0; n < 10; n += 1) socket.send(JSON.stringify(big(n)));
    });
    server.search = 'hang';
    // The REST request's own timeout is what ends a read that never answers.
    const client = new EventsClient({ baseUrl: server.url, logLevel: 'off', maxRetries: 0, timeout: 300 });
    const sub = client.subscribe(ID, { history: true, maxBufferedBytes: MiB, reconnect: fast });
    const reconnecting: ReconnectInfo[] = [];
    sub.on('reconnecting', (info) => reconnecting.push(info));
    await until(() => reconnecting.length > 0, 'a reconnect');
    expect(reconnecting[0]?.reason).toBe('sync-failed');
    expect(server.handshakes.length).toBe(1);
    sub.close();
  }, 10_000);

  it.each([5, 23, 77, 1024])(
    "seed %i: onOverflow 'error', a burst over maxBufferedBytes during the REST catch-up: SubscriptionOverflowError, no pause, no reconnect",
    async (seed) => {
      const next = seededRandom(seed);
      // Frames of 50 to 400 KB, in all more than the bound, at random moments of a catch-up that never ends.
      const sizes: number[] = [];
      for (let total = 0; total <= 1.5 * MiB; total += sizes.at(-1)!)
        sizes.push(50_000 + Math.floor(next() * 350_000));
      const delays = sizes.map(() => Math.floor(next() * 40));
      const server = await legacyServer((socket) => {
        socket.send(fullState());
        for (const [n, size] of sizes.entries()) {
          const frame = JSON.stringify(message(n, at(10, n), { extra_padding: 'x'.repeat(size) }));
          setTimeout(() => socket.send(frame), delays[n]);
        }
      });
      server.search = 'hang';
      const sub = clientFor(server).subscribe(ID, {
        history: true,
        maxBufferedBytes: MiB,
        onOverflow: 'error',
        reconnect: fast,
      });
      const reconnecting: ReconnectInfo[] = [];
      sub.on('reconnecting', (info) => reconnecting.push(info));
      const phases: string[] = [];
      sub.on('event', () => phases.push(sub.phase));
      const closed = new Promise<CloseInfo>((resolve) => sub.once('close', resolve));
      const loop = sub[Symbol.asyncIterator]();
      const info = await closed;
      expect(info.reason).toBe('error');
      expect(isSubscriptionOverflowError(info.error)).toBe(true);
      expect(info.error?.message).toMatch(
        /during the REST catch-up.*maxBufferedBytes 1048576.*onOverflow is 'error'/,
      );
      expect(reconnecting).toEqual([]);
      expect(phases).toEqual([]); // nothing was delivered: the catch-up never ended
      await expect(loop.next()).rejects.toSatisfy(isSubscriptionOverflowError);
    },
    10_000,
  );
});
