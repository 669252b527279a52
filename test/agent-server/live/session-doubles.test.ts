// The msw doubles speak /sockets/session on simulated versions >= 1.45.0, as the newest real server does:
// `subscribe` picks it by itself, replays the history after `after_seq`, delivers live events in seq order and
// gets an `error` envelope for a bad frame.
import { describe, expect, it } from 'vitest';
import type { OpenInfo } from '../../../src/agent-server/index.js';
import { EventsClient } from '../../../src/agent-server/index.js';
import { useMswServer } from '../../helpers/msw.js';
import { label, simulatedServer, until } from '../simulated.js';

const KEY = 'session-doubles-key-58';
const newest = simulatedServer('v158.test', { version: '1.58.0', sessionApiKey: KEY });
const older = simulatedServer('v144.test', { version: '1.44.1', sessionApiKey: KEY });
useMswServer(...newest.handlers, ...older.handlers);

const clientFor = (server: { baseUrl: string }) =>
  new EventsClient({ baseUrl: server.baseUrl, sessionApiKey: KEY, logLevel: 'off' });

describe('simulated servers and the two sockets', () => {
  it.each([
    [newest, 'session'],
    [older, 'events'],
  ] as const)(
    'history then live events, in order, over the socket the version has (%#: %s)',
    async (server, protocol) => {
      const { store } = server;
      const id = store.addConversation().id;
      for (let i = 0; i < 5; i += 1) store.publish(id, store.message(`history ${i}`));
      const sub = clientFor(server).subscribe(id, { history: true });
      const opened: OpenInfo[] = [];
      sub.on('open', (info) => opened.push(info));
      const labels: string[] = [];
      const consumer = (async () => {
        for await (const event of sub) {
          labels.push(label(event as { kind: string }));
          if (labels.length === 10) break;
        }
      })();
      await sub.ready;
      await until(() => opened.length > 0, 'open');
      for (let i = 0; i < 5; i += 1) store.publish(id, store.message(`live ${i}`));
      await consumer;
      expect(labels).toEqual([
        ...[0, 1, 2, 3, 4].map((i) => `history ${i}`),
        ...[0, 1, 2, 3, 4].map((i) => `live ${i}`),
      ]);
      expect(opened[0]?.protocol).toBe(protocol);
    },
  );
});
