// Issue 24, item 4: an event id already delivered that comes again with new content (the server reused the id
// for another event) is never delivered twice and never dropped in silence, on both sockets alike: logged at
// warn level and reported as SubscriptionProtocolError on `error`; the events after it are delivered. A resend or
// a REST read of the same event (same content) stays silent.
import { describe, expect, it } from 'vitest';
import {
  EventsClient,
  isSubscriptionProtocolError,
  type SubscriptionError,
} from '../../../src/agent-server/index.js';
import type { Event } from '../../../src/models/index.js';
import { useMswServer } from '../../helpers/msw.js';
import { label, simulatedServer, until } from '../simulated.js';

const KEY = 'reused-ids-key-24';
const session = simulatedServer('reused-session.test', { version: '1.58.0', sessionApiKey: KEY });
const legacy = simulatedServer('reused-legacy.test', { version: '1.44.1', sessionApiKey: KEY });
useMswServer(...session.handlers, ...legacy.handlers);

type Sim = typeof session;

function clientFor(server: Sim, warnings: string[]) {
  return new EventsClient({
    baseUrl: server.baseUrl,
    sessionApiKey: KEY,
    logLevel: 'warn',
    logger: {
      debug: () => undefined,
      info: () => undefined,
      warn: (line: string) => warnings.push(line),
      error: () => undefined,
    },
  });
}

function protocolErrors(sub: { on(name: 'error', listener: (error: Error) => void): unknown }) {
  const errors: SubscriptionError[] = [];
  sub.on('error', (error) => {
    if (isSubscriptionProtocolError(error)) errors.push(error);
  });
  return errors;
}

async function take(sub: AsyncIterable<Event>, count: number): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of sub) {
    events.push(event);
    if (events.length === count) break;
  }
  return events;
}

const protocols = [
  ['session', session],
  ['events', legacy],
] as const;

describe('a reused event id with new content, on both sockets', () => {
  it.each(protocols)(
    '%s, live: reported and logged, not delivered twice; later events delivered',
    async (protocol, server) => {
      const { store } = server;
      const id = store.addConversation().id;
      const warnings: string[] = [];
      const sub = clientFor(server, warnings).subscribe(id, { protocol });
      const errors = protocolErrors(sub);
      const got = take(sub, 3);
      await until(() => sub.phase === 'live', 'live');
      const first = store.publish(id, store.message('first'));
      // A new log entry under the id of the first: other content, another timestamp.
      store.publish(id, { ...store.message('imposter'), id: first.id });
      store.publish(id, store.message('second'));
      store.publish(id, store.message('third'));
      const events = await got;
      expect(events.map((event) => label(event as never))).toEqual(['first', 'second', 'third']);
      expect(new Set(events.map((event) => event.id)).size).toBe(3);
      expect(errors).toHaveLength(1);
      expect(errors[0]?.message).toContain(`event id ${first.id} was reused`);
      expect(warnings.filter((line) => line.includes('reused'))).toHaveLength(1);
      expect(warnings.find((line) => line.includes('reused'))).toContain(`subscription to ${id}`);
    },
  );

  // `after` an instant before the log: the catch-up reads it over REST (session: no after_seq is known).
  // `history: true` on /sockets/session: the socket replays the log by `seq`, nothing is read over REST and the
  // ledger keeps no id index (the ids are found by their hashes).
  const starts = [
    ['after', { after: { timestamp: '2000-01-01T00:00:00', eventIds: [] } }],
    ['history', { history: true }],
  ] as const;
  it.each(
    protocols.flatMap(([protocol, server]) =>
      starts.map(([name, start]) => [protocol, name, server, start] as const),
    ),
  )(
    '%s, %s: a log holding the id twice is reported once, the id delivered once',
    async (protocol, _name, server, start) => {
      const { store } = server;
      const id = store.addConversation().id;
      const first = store.publish(id, store.message('first'));
      store.publish(id, { ...store.message('imposter'), id: first.id });
      store.publish(id, store.message('second'));
      const warnings: string[] = [];
      const sub = clientFor(server, warnings).subscribe(id, { protocol, ...start });
      const errors = protocolErrors(sub);
      const events = await take(sub, 2);
      expect(events.map((event) => label(event as never))).toEqual(['first', 'second']);
      expect(errors.map((error) => error.message)).toEqual([
        expect.stringContaining(`event id ${first.id} was reused`),
      ]);
      expect(warnings.filter((line) => line.includes('reused'))).toHaveLength(1);
      sub.close();
    },
  );

  it.each(protocols)(
    '%s: the same event read again (reconnect, resend, REST) is dropped in silence',
    async (protocol, server) => {
      const { store, connections } = server;
      const id = store.addConversation().id;
      for (let i = 0; i < 3; i += 1) store.publish(id, store.message(`history ${i}`));
      const warnings: string[] = [];
      const sub = clientFor(server, warnings).subscribe(id, {
        protocol,
        history: true,
        reconnect: { initialDelay: 5, maxDelay: 20 },
      });
      const errors: Error[] = [];
      sub.on('error', (error) => errors.push(error));
      const got = take(sub, 5);
      await until(() => sub.phase === 'live', 'live');
      const before = connections.length;
      // Dropped by the server: the reconnect reads (or is resent) the same events again.
      if (protocol === 'events') connections.at(-1)?.client.close(1011, 'restart');
      store.publish(id, store.message('live 0'));
      if (protocol === 'events')
        await until(() => connections.length > before && sub.phase === 'live', 'the reconnect');
      store.publish(id, store.message('live 1'));
      const events = await got;
      expect(events.map((event) => label(event as never))).toEqual([
        'history 0',
        'history 1',
        'history 2',
        'live 0',
        'live 1',
      ]);
      expect(errors).toEqual([]);
      expect(warnings.filter((line) => line.includes('reused'))).toEqual([]);
    },
  );
});
