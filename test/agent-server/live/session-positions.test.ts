/**
 * Issue 24, items 3 and 4, against the hostile `/sockets/session` server: progress resets the backoff and the
 * outage clock; positions are checked, never trusted (a log reset, a non-integer or absurd `seq`, a snapshot
 * of another conversation, an id reused at a new `seq`): each is logged, reported as SubscriptionProtocolError
 * on `error`, and resynced; no later event is dropped in silence. Fault points come from a seeded generator,
 * so a failure replays.
 */
import { describe, expect, it } from 'vitest';
import {
  isSubscriptionProtocolError,
  type ReconnectInfo,
  type SubscriptionError,
} from '../../../src/agent-server/index.js';
import { seededRandom } from '../../helpers/seeded-random.js';
import { client, durable, fast, fullState, hostile, ID, range, take } from './hostile-session.js';

const sync = (through: number, from?: number) =>
  JSON.stringify({ type: 'sync', ...(from === undefined ? {} : { from_seq: from }), through_seq: through });

describe('progress is success', () => {
  it.each([3, 17, 42])(
    'seed %i: a socket dropped again and again while it replays never runs out of budget: all delivered',
    async (seed) => {
      const next = seededRandom(seed);
      const total = 300;
      const server = await hostile((socket, request) => {
        const after = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('after_seq') ?? '-1');
        socket.send(sync(total - 1, after));
        socket.send(fullState());
        // Each connection delivers a few new events of the replay, then drops.
        const stopAfter = 1 + Math.floor(next() * 8);
        for (let seq = after + 1, sent = 0; seq < total; seq += 1, sent += 1) {
          if (sent === stopAfter) {
            socket.terminate();
            return;
          }
          socket.send(durable(seq));
        }
      });
      // Three failed attempts in a row would end the subscription, far fewer than the drops: only progress
      // (each connection delivered) keeps it alive. Counted, not timed: a wall-clock outage budget would be
      // the machine's speed under test (issue 31); reconnect-policy.test.ts shows progress resets that clock.
      const sub = client(server).subscribe(ID, {
        history: true,
        reconnect: { initialDelay: 5, maxDelay: 20, maxAttempts: 3 },
      });
      const reconnects: ReconnectInfo[] = [];
      sub.on('reconnecting', (info) => reconnects.push(info));
      expect(await take(sub, total)).toEqual(range(total));
      expect(reconnects.length).toBeGreaterThan(20);
      // Every drop followed a connection that delivered: the attempt count never grows.
      expect(Math.max(...reconnects.map((info) => info.attempt))).toBe(1);
    },
  );
});

describe('positions are checked, never trusted', () => {
  function protocolErrors(sub: { on(name: 'error', listener: (error: Error) => void): unknown }) {
    const errors: SubscriptionError[] = [];
    sub.on('error', (error) => {
      if (isSubscriptionProtocolError(error)) errors.push(error);
    });
    return errors;
  }

  it('a log reset (through_seq below the after_seq asked for): resync over REST, later events delivered', async () => {
    const server = await hostile((socket, _request, connection) => {
      if (connection === 1) {
        socket.send(sync(2, -1));
        socket.send(fullState());
        for (let seq = 0; seq < 3; seq += 1) socket.send(durable(seq));
        setTimeout(() => socket.close(1011, 'restart'), 20);
      } else if (connection === 2) {
        // The server lost its log: it now ends at seq 0, below the after_seq 2 asked for.
        socket.send(sync(0, 2));
        socket.send(fullState());
      } else {
        // Live only after the resync: new events of the new log.
        socket.send(sync(0));
        socket.send(fullState());
        socket.send(durable(1, { event: { ...JSON.parse(durable(3)).event } }));
      }
    });
    const logs: string[] = [];
    const sub = client(server, logs).subscribe(ID, { history: true, reconnect: fast });
    const errors = protocolErrors(sub);
    const reasons: string[] = [];
    sub.on('reconnecting', (info) => reasons.push(info.reason));
    expect(await take(sub, 4)).toEqual(range(4));
    expect(reasons).toContain('resync');
    expect(errors.map((error) => error.message).join()).toContain('log reset');
    expect(logs.some((line) => line.startsWith('warn') && line.includes('log reset'))).toBe(true);
    // The resync connection asks for live only: the old log's positions mean nothing.
    expect(server.afterSeqs).toEqual(['-1', '2', null]);
  });

  it.each([[1e308], [-4], [2.5], ['7']])(
    'a durable envelope with seq %s: reported, resynced, and every later event delivered',
    async (badSeq) => {
      const server = await hostile((socket, _request, connection) => {
        if (connection === 1) {
          socket.send(sync(1, -1));
          socket.send(fullState());
          socket.send(durable(0));
          socket.send(JSON.stringify({ type: 'durable', seq: badSeq, event: JSON.parse(durable(1)).event }));
          socket.send(durable(2));
        } else {
          socket.send(sync(2));
          socket.send(fullState());
          socket.send(durable(3));
        }
      });
      server.restEvents = [1, 2].map((n) => JSON.parse(durable(n)).event);
      const sub = client(server).subscribe(ID, { history: true, reconnect: fast });
      const errors = protocolErrors(sub);
      expect(await take(sub, 4)).toEqual(range(4));
      expect(errors).toHaveLength(1);
      expect(errors[0]?.message).toContain('seq');
    },
  );

  it('a full_state of another conversation is not adopted, and said', async () => {
    const server = await hostile((socket) => {
      socket.send(
        JSON.stringify({
          type: 'transient',
          event: {
            id: 'foreign',
            timestamp: '2026-11-23T10:00:00.000001',
            source: 'environment',
            kind: 'ConversationStateUpdateEvent',
            key: 'full_state',
            value: { id: '00000000-0000-4000-8000-000000000000', execution_status: 'error' },
          },
        }),
      );
      socket.send(fullState());
      socket.send(durable(0));
    });
    const sub = client(server).subscribe(ID, { history: true, reconnect: fast });
    const errors = protocolErrors(sub);
    expect(await take(sub, 1)).toEqual(['event-0']);
    expect(sub.state?.execution_status).toBe('running');
    expect(errors.map((error) => error.message).join()).toContain('another conversation');
  });

  it('an event id reused at a new seq: not delivered twice, reported (once the ids are indexed)', async () => {
    const server = await hostile((socket, _request, connection) => {
      if (connection === 1) {
        // Live only: the REST catch-up delivers event-0 (and builds the id index), the socket goes on.
        socket.send(sync(0));
        socket.send(fullState());
        setTimeout(() => {
          socket.send(durable(1));
          setTimeout(() => socket.close(1011, 'restart'), 20);
        }, 50);
      } else {
        socket.send(sync(1, 1));
        socket.send(fullState());
        // seq 2 carries event-0's id with new content.
        socket.send(
          JSON.stringify({
            type: 'durable',
            seq: 2,
            event: { ...JSON.parse(durable(0)).event, extra: 'new' },
          }),
        );
        socket.send(durable(3));
      }
    });
    server.restEvents = [JSON.parse(durable(0)).event];
    const sub = client(server).subscribe(ID, { reconnect: fast });
    const errors = protocolErrors(sub);
    expect(await take(sub, 3)).toEqual(['event-0', 'event-1', 'event-3']);
    expect(errors.map((error) => error.message).join()).toContain('reused');
    expect(server.afterSeqs).toEqual([null, '1']);
  });
});
