// The loopback double (a real `ws` server) on /sockets/session, frame by frame, with Node's WebSocket (no msw
// in this file: msw would intercept it).
import { describe, expect, it } from 'vitest';
import { serveAgentServer } from '../../../src/testing.js';
import { until } from '../simulated.js';

describe('the loopback double and /sockets/session', () => {
  it('the loopback double on /sockets/session: sync, durable replay after after_seq, snapshot, error envelope', async () => {
    const server = await serveAgentServer({ version: '1.58.0' });
    try {
      const { store } = server;
      const id = store.addConversation().id;
      for (let i = 0; i < 3; i += 1) store.publish(id, store.message(`m${i}`));
      const socket = new WebSocket(`${server.url.replace('http', 'ws')}/sockets/session/${id}?after_seq=0`);
      const frames: Record<string, unknown>[] = [];
      socket.addEventListener('message', (event) => frames.push(JSON.parse(String(event.data))));
      await new Promise((resolve) => socket.addEventListener('open', resolve));
      await until(() => frames.length >= 4, 'replay');
      socket.send('{"not":"a message"}');
      await until(() => frames.length >= 5, 'error envelope');
      socket.close();
      expect(frames.map((f) => [f.type, f.seq])).toEqual([
        ['sync', undefined],
        ['durable', 1],
        ['durable', 2],
        ['transient', undefined],
        ['error', undefined],
      ]);
      expect(frames[0]).toMatchObject({ from_seq: 0, through_seq: 2 });
    } finally {
      await server.close();
    }
  });

  it('the loopback double of a 1.44.1 server has no /sockets/session (handshake 404)', async () => {
    const server = await serveAgentServer({ version: '1.44.1' });
    try {
      const id = server.store.addConversation().id;
      const socket = new WebSocket(`${server.url.replace('http', 'ws')}/sockets/session/${id}`);
      const code = await new Promise<number>((resolve) =>
        socket.addEventListener('close', (event) => resolve(event.code)),
      );
      expect(code).toBe(1006);
    } finally {
      await server.close();
    }
  });
});
