import { getEventListeners } from 'node:events';
import { ws } from 'msw/ws';
import { describe, expect, it } from 'vitest';
import { WebSocket as WsWebSocket } from 'ws';
import { EventsClient } from '../../src/agent-server/index.js';
import { socketDouble } from '../../src/testing/agent-server/socket-handlers.js';
import { simulatedServer, until } from '../agent-server/simulated.js';
import { useMswServer } from '../helpers/msw.js';

// Refuses every handshake the way the doubles do: close 1006 in the connection listener, before `open`.
const refusingDouble = socketDouble('ws://refusing-double.test/sockets/:socket/:id', ({ client }) =>
  client.close(1006, ''),
);
const accepted: string[] = [];
const accepting = socketDouble('ws://accepting-double.test/sockets/:socket/:id', ({ client }) => {
  accepted.push(client.url.href);
});
// The same through msw's ws.link, to show the behaviour socketDouble works around (msw 3.0.5).
const refusingLink = ws
  .link('ws://refusing-link.test/sockets/:socket/:id')
  .addEventListener('connection', ({ client }) => client.close(1006, ''));
const sim = simulatedServer('signal-double.test', { version: '1.25.0' });
useMswServer(...refusingDouble, ...accepting, refusingLink, ...sim.handlers);

/** Opens a global WebSocket and resolves with whether it opened and its close code. */
function connect(url: string): Promise<{ opened: boolean; code: number }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url);
    let opened = false;
    socket.addEventListener('open', () => {
      opened = true;
      socket.close();
    });
    socket.addEventListener('close', (event) => resolve({ opened, code: event.code }));
  });
}

/** The BroadcastChannels that get `message` listeners while `run` runs, and how many each has after. */
async function channelListeners(run: () => Promise<void>): Promise<number[]> {
  const channels = new Set<BroadcastChannel>();
  const { addEventListener } = EventTarget.prototype;
  // An own method on BroadcastChannel.prototype, in front of EventTarget's, for the time of `run`.
  Object.defineProperty(BroadcastChannel.prototype, 'addEventListener', {
    configurable: true,
    value(this: BroadcastChannel, ...args: Parameters<EventTarget['addEventListener']>) {
      channels.add(this);
      return addEventListener.apply(this, args);
    },
  });
  try {
    await run();
    await new Promise((resolve) => setTimeout(resolve, 20));
  } finally {
    Reflect.deleteProperty(BroadcastChannel.prototype, 'addEventListener');
  }
  return [...channels].map((channel) => getEventListeners(channel, 'message').length);
}

describe('socketDouble', () => {
  it('refuses handshakes (close 1006, no open) without leaving a listener on msw’s BroadcastChannel', async () => {
    const counts = await channelListeners(async () => {
      for (let i = 0; i < 12; i += 1) {
        expect(await connect(`ws://refusing-double.test/sockets/events/c${i}`)).toEqual({
          opened: false,
          code: 1006,
        });
      }
    });
    expect(counts).toEqual([]);
  });

  it('the cause: through ws.link, msw keeps a channel listener for every refused handshake (msw 3.0.5)', async () => {
    const counts = await channelListeners(async () => {
      for (let i = 0; i < 3; i += 1) await connect(`ws://refusing-link.test/sockets/events/c${i}`);
    });
    // One channel, shared by every link: its listeners for the links of this file (ws.link() adds one, before)
    // and one more per refused handshake, never removed.
    expect(counts).toHaveLength(1);
    const [before] = counts as [number];
    const after = await channelListeners(async () => {
      for (let i = 3; i < 6; i += 1) await connect(`ws://refusing-link.test/sockets/events/c${i}`);
    });
    expect(after).toEqual([before + 3]);
  });

  it('lets a Node client such as ws open the socket through its HTTP upgrade handler, as ws.link does', async () => {
    const counts = await channelListeners(async () => {
      const socket = new WsWebSocket('ws://accepting-double.test/sockets/events/c1');
      await new Promise((resolve, reject) => {
        socket.on('open', resolve);
        socket.on('error', reject);
      });
      expect(accepted).toEqual(['ws://accepting-double.test/sockets/events/c1']);
      socket.terminate();
    });
    expect(counts).toEqual([]);
  });
});

describe('the live layer', () => {
  it('leaves no abort listener on a shared signal once its subscriptions end', async () => {
    const id = sim.store.addConversation().id;
    const events = new EventsClient({ baseUrl: sim.baseUrl, logLevel: 'off', maxRetryDelay: 10 });
    const controller = new AbortController();
    for (let i = 0; i < 12; i += 1) {
      const sub = events.subscribe(id, { signal: controller.signal });
      await sub.ready;
      sub.close();
    }
    await until(() => sim.connections.every((connection) => connection.closed), 'sockets closed');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});
