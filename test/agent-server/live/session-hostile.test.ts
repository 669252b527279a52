import { describe, expect, it, vi } from 'vitest';
import type { ReconnectInfo, StreamDelta } from '../../../src/agent-server/index.js';
import {
  isSubscriptionAuthenticationError,
  isSubscriptionConnectionError,
  isSubscriptionCredentialBindingError,
  isSubscriptionEndpointNotFoundError,
  isSubscriptionFrameTooLargeError,
  isSubscriptionNotFoundError,
  isSubscriptionServerError,
  type SubscriptionError,
  type SubscriptionServerError,
} from '../../../src/agent-server/index.js';
import { sleep, until } from '../simulated.js';

import {
  client,
  durable,
  event,
  fast,
  fullState,
  hostile,
  ID,
  range,
  servers,
  take,
} from './hostile-session.js';

describe('/sockets/session against a hostile server', () => {
  it('duplicate and out-of-order envelopes, unknown envelope types and fields: every event once, in seq order', async () => {
    const server = await hostile((socket) => {
      socket.send(JSON.stringify({ type: 'sync', from_seq: -1, through_seq: 5, novel: true }));
      socket.send(durable(0));
      socket.send(durable(2));
      socket.send(durable(1, { extra_field: 'ignored' }));
      socket.send(durable(1));
      socket.send(JSON.stringify({ type: 'mystery', payload: [1, 2, 3] }));
      socket.send(durable(0));
      socket.send(fullState());
      socket.send(durable(4));
      socket.send(durable(3));
      socket.send(durable(5));
      socket.send(durable(4));
    });
    const sub = client(server).subscribe(ID, { history: true, reconnect: fast });
    expect(await take(sub, 6)).toEqual(range(6));
    expect(server.paths[0]).toBe(`/sockets/session/${ID}`);
    expect(server.afterSeqs[0]).toBe('-1');
  });

  // The real 1.58.2 replays a finished conversation's history (state updates included, `finished` among them
  // before the last statistics updates) and sends the snapshot after it: a replayed state update is history, not
  // the state the connection starts with (test/conformance/cli-follow.test.ts found `follow --history` ending
  // early on this).
  it('history replay: open and phase live only once the replay reached sync.through_seq', async () => {
    const stateUpdate = (seq: number, key: string, value: unknown) =>
      durable(seq, {
        event: {
          ...event(seq),
          kind: 'ConversationStateUpdateEvent',
          source: 'environment',
          key,
          value,
          llm_message: undefined,
        },
      });
    const server = await hostile((socket) => {
      socket.send(JSON.stringify({ type: 'sync', from_seq: -1, through_seq: 5 }));
      socket.send(durable(0));
      socket.send(stateUpdate(1, 'execution_status', 'running'));
      socket.send(durable(2));
      socket.send(stateUpdate(3, 'execution_status', 'finished'));
      socket.send(stateUpdate(4, 'stats', {}));
      socket.send(stateUpdate(5, 'stats', {}));
      socket.send(fullState());
    });
    const sub = client(server).subscribe(ID, { history: true, reconnect: fast });
    // Listeners run as each event is delivered: the phase then, and when `open` came.
    const seen: string[] = [];
    sub.on('event', (item) => seen.push(`${String(item.id)} ${sub.phase}`));
    sub.on('open', () => seen.push('open'));
    expect(await take(sub, 6)).toEqual(range(6));
    expect(seen.slice(0, 6).map((line) => line.split(' ')[0])).toEqual(range(6));
    expect(seen.slice(0, 6).filter((line) => line.endsWith(' live'))).toEqual([]);
    expect(seen.slice(6)).toEqual(['open']);
  });

  it('an error envelope and a ServerErrorEvent go to the error channel as typed errors, not into the stream', async () => {
    const server = await hostile((socket) => {
      socket.send(fullState());
      socket.send(
        JSON.stringify({ type: 'error', code: 'ValidationError', detail: 'Invalid message frame' }),
      );
      socket.send(
        JSON.stringify({
          type: 'transient',
          event: {
            id: 'se',
            timestamp: 't',
            source: 'environment',
            code: 'Boom',
            detail: 'bad',
            kind: 'ServerErrorEvent',
          },
        }),
      );
      socket.send(durable(0));
    });
    const sub = client(server).subscribe(ID, { reconnect: fast });
    const errors: SubscriptionServerError[] = [];
    sub.on('error', (error) => errors.push(error as SubscriptionServerError));
    expect(await take(sub, 1)).toEqual(['event-0']);
    expect(errors.map((e) => [isSubscriptionServerError(e), e.serverCode, e.detail])).toEqual([
      [true, 'ValidationError', 'Invalid message frame'],
      [true, 'Boom', 'bad'],
    ]);
  });

  it('deltas are their own typed emitter events, never in the event stream', async () => {
    const server = await hostile((socket) => {
      socket.send(fullState());
      const item = { item_id: 'i1' };
      socket.send(JSON.stringify({ type: 'item_started', ...item, attempt: 1, anchor_seq: -1 }));
      socket.send(
        JSON.stringify({ type: 'delta', ...item, attempt: 1, order: 0, kind: 'text', content: 'Hel' }),
      );
      socket.send(JSON.stringify({ type: 'item_aborted', ...item, attempt: 1, reason: 'retry' }));
      socket.send(
        JSON.stringify({ type: 'delta', ...item, attempt: 2, order: 0, kind: 'reasoning', content: 'hm' }),
      );
      socket.send(
        JSON.stringify({ type: 'delta', ...item, attempt: 2, order: 1, kind: 'text', content: 'Hello' }),
      );
      socket.send(durable(0));
    });
    const sub = client(server).subscribe(ID, { reconnect: fast });
    const deltas: StreamDelta[] = [];
    sub.on('delta', (delta) => deltas.push(delta));
    expect(await take(sub, 1)).toEqual(['event-0']);
    expect(
      deltas.map((d) => `${d.type}:${d.attempt}:${d.type === 'delta' ? `${d.kind}:${d.content}` : ''}`),
    ).toEqual([
      'item_started:1:',
      'delta:1:text:Hel',
      'item_aborted:1:',
      'delta:2:reasoning:hm',
      'delta:2:text:Hello',
    ]);
  });

  it('deltas() iterates the same deltas and ends with the subscription', async () => {
    const server = await hostile((socket) => {
      socket.send(fullState());
      socket.send(JSON.stringify({ type: 'item_started', item_id: 'i', attempt: 1 }));
      socket.send(
        JSON.stringify({ type: 'delta', item_id: 'i', attempt: 1, order: 0, kind: 'text', content: 'a' }),
      );
      socket.send(
        JSON.stringify({ type: 'delta', item_id: 'i', attempt: 1, order: 1, kind: 'text', content: 'b' }),
      );
      socket.send(durable(0));
    });
    const sub = client(server).subscribe(ID, { reconnect: fast });
    const seen: string[] = [];
    const loop = (async () => {
      for await (const delta of sub.deltas()) seen.push(delta.type === 'delta' ? delta.content : delta.type);
    })();
    expect(await take(sub, 1)).toEqual(['event-0']);
    await loop;
    expect(seen).toEqual(['item_started', 'a', 'b']);
  });

  it('sockets dropped at random points: every persisted event exactly once and in order, resumed by after_seq', async () => {
    const total = 400;
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const server = await hostile((socket, request) => {
      const after = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('after_seq') ?? '-1');
      socket.send(JSON.stringify({ type: 'sync', from_seq: after, through_seq: total - 1 }));
      socket.send(fullState());
      const stopAfter = 1 + Math.floor(next() * 60);
      let sent = 0;
      for (let seq = after + 1; seq < total; seq += 1) {
        if (sent === stopAfter) {
          // Half of the time a clean close, half a dropped TCP connection.
          if (next() < 0.5) socket.close(1011, 'subscribe_failed');
          else socket.terminate();
          return;
        }
        // Now and then a duplicate of an earlier envelope.
        if (seq > 0 && next() < 0.1) socket.send(durable(seq - 1));
        socket.send(durable(seq));
        sent += 1;
      }
    });
    const sub = client(server).subscribe(ID, { history: true, reconnect: fast });
    const reconnects: ReconnectInfo[] = [];
    sub.on('reconnecting', (info) => reconnects.push(info));
    expect(await take(sub, total)).toEqual(range(total));
    expect(reconnects.length).toBeGreaterThan(3);
    const seqs = server.afterSeqs.map(Number);
    expect(seqs[0]).toBe(-1);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
  });

  it('a server that accepts and never sends: ready from a REST read of the conversation', async () => {
    const server = await hostile(() => undefined);
    server.rest.body = { id: ID, execution_status: 'paused' };
    const sub = client(server).subscribe(ID, { readyFallback: 50, reconnect: fast });
    const state = await sub.ready;
    expect(state.execution_status).toBe('paused');
    sub.close();
  });

  it('a per-key update without any full_state makes the subscription ready', async () => {
    const server = await hostile((socket) => {
      socket.send(
        JSON.stringify({
          type: 'durable',
          seq: 0,
          event: {
            id: 'status',
            timestamp: '2026-11-23T10:00:00.5',
            source: 'environment',
            kind: 'ConversationStateUpdateEvent',
            key: 'execution_status',
            value: 'finished',
          },
        }),
      );
    });
    const sub = client(server).subscribe(ID, { readyFallback: 60_000, reconnect: fast });
    expect((await sub.ready).execution_status).toBe('finished');
    sub.close();
  });

  describe('close codes', () => {
    const closing = (code: number, reason: string) =>
      hostile((socket) => {
        socket.send(fullState());
        socket.close(code, reason);
      });

    it('4001: SubscriptionAuthenticationError, no reconnect', async () => {
      const server = await closing(4001, 'Authentication failed');
      const error = (await take(client(server).subscribe(ID, { reconnect: fast }), 1).catch(
        (e) => e,
      )) as SubscriptionError;
      expect(isSubscriptionAuthenticationError(error)).toBe(true);
      expect(server.paths.length).toBe(1);
    });

    it('4004 with REST 404: SubscriptionNotFoundError', async () => {
      const server = await closing(4004, 'Conversation not found');
      server.rest.status = 404;
      const error = (await take(client(server).subscribe(ID, { reconnect: fast }), 1).catch(
        (e) => e,
      )) as SubscriptionError;
      expect(isSubscriptionNotFoundError(error)).toBe(true);
      expect(error.closeCode).toBe(4004);
      expect(error.message).toContain(`Conversation ${ID} not found`);
    });

    it('4004 while REST finds the conversation (a restarted server, lease): retried until it answers, nothing lost', async () => {
      let leaseLeft = 5;
      const server = await hostile((socket, request) => {
        if (leaseLeft-- > 0) {
          socket.close(4004, 'Conversation not found');
          return;
        }
        const after = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('after_seq') ?? '-1');
        socket.send(fullState());
        for (let seq = after + 1; seq < 10; seq += 1) socket.send(durable(seq));
      });
      const sub = client(server).subscribe(ID, { history: true, reconnect: fast });
      const reasons: string[] = [];
      sub.on('reconnecting', (info) => reasons.push(info.reason));
      expect(await take(sub, 10)).toEqual(range(10));
      expect(reasons).toEqual(Array(5).fill('conversation-lease'));
    });

    it('4004 while REST finds the conversation gives up after reconnect.leaseTimeout', async () => {
      // As the real server does: the close comes at accept, before any state.
      const server = await hostile((socket) => socket.close(4004, 'Conversation not found'));
      // The outage clock on a faked Date that moves 4 s per failed attempt, so the count of attempts is the
      // same on any machine (issue 31): giveUpAfter alone would end at the 3rd, the lease at the 5th.
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        const sub = client(server).subscribe(ID, {
          reconnect: { ...fast, giveUpAfter: 5_000, leaseTimeout: 15_000 },
        });
        sub.on('reconnecting', () => vi.setSystemTime(Date.now() + 4_000));
        const error = (await take(sub, 1).catch((e) => e)) as SubscriptionError;
        expect(isSubscriptionConnectionError(error)).toBe(true);
        expect(error.message).toContain('reconnect.giveUpAfter 15000 ms');
        expect(server.paths.length).toBe(5);
      } finally {
        vi.useRealTimers();
      }
    });

    it('1013 credential_binding_activation_required: a typed error that says what to do, no reconnect', async () => {
      const server = await closing(1013, 'credential_binding_activation_required');
      const error = (await take(client(server).subscribe(ID, { reconnect: fast }), 1).catch(
        (e) => e,
      )) as SubscriptionError;
      expect(isSubscriptionCredentialBindingError(error)).toBe(true);
      expect(error.message).toMatch(/activate/);
      await sleep(50);
      expect(server.paths.length).toBe(1);
    });

    it.each([
      // The server's byte budget dropped us: we read too slowly, not a failure of the server.
      [1013, 'slow_consumer', 'slow-consumer'],
      [1013, 'Too many connections for this conversation', 'overloaded'],
      [1011, 'subscribe_failed', 'closed'],
      [1000, '', 'closed'],
      [1001, 'going away', 'closed'],
    ])('%i %s: reconnects and resumes after the last seq', async (code, reason, expected) => {
      const server = await hostile((socket, _request, connection) => {
        socket.send(fullState());
        if (connection === 1) {
          for (let seq = 0; seq < 3; seq += 1) socket.send(durable(seq));
          setTimeout(() => socket.close(code, reason), 20);
        } else {
          for (let seq = 3; seq < 6; seq += 1) socket.send(durable(seq));
        }
      });
      const sub = client(server).subscribe(ID, { history: true, reconnect: fast });
      const reasons: string[] = [];
      sub.on('reconnecting', (info) => reasons.push(info.reason));
      expect(await take(sub, 6)).toEqual(range(6));
      expect(reasons[0]).toBe(expected);
      expect(server.afterSeqs.slice(0, 2)).toEqual(['-1', '2']);
    });
  });

  it('1013 frame_too_large: SubscriptionFrameTooLargeError, no reconnect loop on a frame that can never come', async () => {
    const server = await hostile((socket) => {
      socket.send(fullState());
      setTimeout(() => socket.close(1013, 'frame_too_large'), 20);
    });
    const sub = client(server).subscribe(ID, { history: true, reconnect: fast });
    const error = await take(sub, 1).catch((e) => e);
    expect(isSubscriptionFrameTooLargeError(error)).toBe(true);
    expect(server.afterSeqs).toHaveLength(1);
  });

  it('a handshake answered 404 while REST answers: SubscriptionEndpointNotFoundError, not endless retry', async () => {
    const server = await hostile(() => undefined, { upgrade404: true });
    const error = (await take(client(server).subscribe(ID, { reconnect: fast }), 1).catch(
      (e) => e,
    )) as SubscriptionError;
    expect(isSubscriptionEndpointNotFoundError(error)).toBe(true);
    expect(error.message).toContain("protocol: 'events'");
    expect(server.paths.length).toBe(3);
  });

  it('an unreachable host: SubscriptionConnectionError after reconnect.giveUpAfter, each retry logged at warn', async () => {
    const server = await hostile(() => undefined);
    const url = server.url;
    server.server.closeAllConnections();
    await new Promise((resolve) => server.server.close(resolve));
    servers.splice(servers.indexOf(server.server), 1);
    const logs: string[] = [];
    // The budget on a faked Date that moves 2 s per failed attempt: a few refusals fit in giveUpAfter on any
    // machine, however long each takes to arrive (issue 31).
    vi.useFakeTimers({ toFake: ['Date'] });
    const sub = client({ ...server, url }, logs).subscribe(ID, {
      protocol: 'session',
      reconnect: { ...fast, giveUpAfter: 5_000 },
    });
    let retries = 0;
    sub.on('reconnecting', () => {
      retries += 1;
      vi.setSystemTime(Date.now() + 2_000);
    });
    const error = (await take(sub, 1)
      .catch((e) => e)
      .finally(() => vi.useRealTimers())) as SubscriptionError;
    expect(isSubscriptionConnectionError(error)).toBe(true);
    expect(error.message).toContain('giveUpAfter');
    // The cause is named, not only "error; reconnecting".
    expect(error.message).toContain('connection refused');
    expect(retries).toBeGreaterThan(0);
    expect(logs.filter((line) => line.startsWith('warn') && line.includes('reconnecting in')).length).toBe(
      retries,
    );
  });

  it('protocol: events on a 1.58.0 server uses /sockets/events', async () => {
    const server = await hostile((socket) => {
      socket.send(JSON.stringify(JSON.parse(fullState()).event));
    });
    const sub = client(server).subscribe(ID, { protocol: 'events', reconnect: fast });
    await sub.ready;
    await until(() => server.paths.length > 0, 'a handshake');
    expect(server.paths[0]).toBe(`/sockets/events/${ID}`);
    sub.close();
  });
});

describe('errors built from error events', () => {
  it('carry the classification and surface retryable', async () => {
    const { conversationEventError, isConversationEventError } = await import(
      '../../../src/agent-server/errors.js'
    );
    const { parseEvent } = await import('../../../src/models/index.js');
    const failed = parseEvent({
      id: 'e1',
      timestamp: '2026-11-23T10:00:00',
      source: 'environment',
      code: 'RateLimitError',
      detail: 'slow down',
      classification: { kind: 'rate_limit', retryable: true, user_action: 'retry' },
      kind: 'ConversationErrorEvent',
    }) as import('../../../src/models/index.js').ConversationErrorEvent;
    const error = conversationEventError(failed);
    expect(isConversationEventError(error)).toBe(true);
    expect(error).toMatchObject({ retryable: true, eventId: 'e1', classification: { kind: 'rate_limit' } });
    expect(error.message).toContain('RateLimitError');
    const bare = conversationEventError({ ...failed, classification: undefined });
    expect(bare.retryable).toBeUndefined();
  });
});
