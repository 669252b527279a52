import { HttpResponse, http } from 'msw/http';
import { describe, expect, it } from 'vitest';
import type { ReconnectInfo } from '../../../src/agent-server/index.js';
import {
  EventsClient,
  isAgentServerVersionError,
  isSubscriptionAuthenticationError,
  isSubscriptionConnectionError,
  isSubscriptionEndpointNotFoundError,
  isSubscriptionError,
  isSubscriptionNotFoundError,
  isSubscriptionOverflowError,
  type SubscriptionError,
} from '../../../src/agent-server/index.js';
import {
  isAPIUserAbortError,
  isAuthenticationError,
  isResponseValidationError,
} from '../../../src/core/errors.js';
import type { Event, MessageEvent } from '../../../src/models/index.js';
import { socketDouble } from '../../../src/testing/agent-server/socket-handlers.js';
import { useMswServer } from '../../helpers/msw.js';
import { label, simulatedServer, sleep, until } from '../simulated.js';

const KEY = 'ws-session-key-0042';
const anchor = simulatedServer('anchor.test', { version: '1.11.4', sessionApiKey: KEY });
const headerEra = simulatedServer('v114.test', { version: '1.14.0', sessionApiKey: KEY });
const modern = simulatedServer('v125.test', {
  version: '1.25.0',
  sessionApiKey: KEY,
  maxSubscribersPerConversation: 1,
});
const garbled = simulatedServer('garbled.test', { version: 'nightly', sessionApiKey: KEY });
const open = simulatedServer('open.test', { version: '1.20.0' });
// Speaks like 1.11.4 (the key only in the query), but a proxy answers /server_info with its own 404.
const proxiedOld = simulatedServer('proxied-old.test', { version: '1.11.4', sessionApiKey: KEY });
const hiddenInfo = http.get(
  'http://proxied-old.test/server_info',
  () => new HttpResponse('Not Found', { status: 404 }),
);
// Accepts every socket and then says nothing: no full_state, ever. Its REST API works.
const silentRest = simulatedServer('silent.test', { version: '1.20.0' });
let silentConnections = 0;
const silent = socketDouble('ws://silent.test/sockets/:socket/:conversationId', () => {
  silentConnections += 1;
});
// Refuses every handshake, while its REST API works (a proxy without websocket support, say).
let refused = 0;
const refusing = socketDouble('ws://refusing.test/sockets/:socket/:conversationId', ({ client }) => {
  refused += 1;
  client.close(1006, '');
});
const refusingRest = simulatedServer('refusing.test', { version: '1.20.0' });

const { requests } = useMswServer(
  ...anchor.handlers,
  ...headerEra.handlers,
  ...modern.handlers,
  ...garbled.handlers,
  hiddenInfo,
  ...proxiedOld.handlers,
  ...open.handlers,
  ...refusingRest.restHandlers,
  ...silentRest.restHandlers,
  ...silent,
  ...refusing,
);

type Sim = ReturnType<typeof simulatedServer>;
const fast = { initialDelay: 5, maxDelay: 20 };

function clientFor(sim: Sim, sessionApiKey: string | null = KEY) {
  return new EventsClient({
    baseUrl: sim.baseUrl,
    sessionApiKey: sessionApiKey ?? undefined,
    logLevel: 'off',
    maxRetryDelay: 10,
  });
}

function collect(iterable: AsyncIterable<Event>, count: number): Promise<Event[]> {
  return (async () => {
    const out: Event[] = [];
    if (count === 0) return out;
    for await (const event of iterable) {
      out.push(event);
      if (out.length >= count) break;
    }
    return out;
  })();
}

describe('authentication chosen from the server version', () => {
  it('anchor (1.11.4): the session_api_key query parameter', async () => {
    const id = anchor.store.addConversation().id;
    const sub = clientFor(anchor).subscribe(id);
    const opened = new Promise((resolve) => sub.once('open', resolve));
    await sub.ready;
    expect(await opened).toMatchObject({ auth: 'query', serverVersion: '1.11.4', resumed: false });
    const seen = anchor.connections.at(-1)!;
    expect(seen.url.searchParams.get('session_api_key')).toBe(KEY);
    expect(seen.url.pathname).toBe(`/sockets/events/${id}`);
    expect(seen.headers).toEqual({});
    expect(seen.frames).toEqual([]);
    sub.close();
  });

  it('1.12.0 to 1.18.0 in Node: the X-Session-API-Key header, nothing in the URL', async () => {
    const id = headerEra.store.addConversation().id;
    const sub = clientFor(headerEra).subscribe(id);
    await sub.ready;
    const seen = headerEra.connections.at(-1)!;
    expect(seen.headers).toEqual({ 'X-Session-API-Key': KEY });
    expect(seen.url.search).toBe('');
    sub.close();
  });

  it('1.18.1 and later: the first frame {"type":"auth"}, nothing in the URL or headers', async () => {
    const id = modern.store.addConversation().id;
    const sub = clientFor(modern).subscribe(id);
    await sub.ready;
    const seen = modern.connections.at(-1)!;
    expect(JSON.parse(seen.frames[0]!)).toEqual({ type: 'auth', session_api_key: KEY });
    expect(seen.url.search).toBe('');
    expect(seen.headers).toEqual({});
    sub.close();
  });

  it('a forced mode is used when the server supports it', async () => {
    const id = modern.store.addConversation().id;
    const sub = clientFor(modern).subscribe(id, { auth: 'query' });
    await sub.ready;
    expect(modern.connections.at(-1)!.url.searchParams.get('session_api_key')).toBe(KEY);
    sub.close();
  });

  it('no key, no auth at all', async () => {
    const id = open.store.addConversation().id;
    const sub = clientFor(open, null).subscribe(id);
    await sub.ready;
    expect(open.connections.at(-1)!.frames).toEqual([]);
    expect(open.connections.at(-1)!.url.search).toBe('');
    sub.close();
  });

  it('an unparseable version: first-message auth first; the query key only after the server refused it', async () => {
    // The simulated server takes an unparseable version for the oldest: it wants the key in the query.
    const id = garbled.store.addConversation().id;
    const sub = clientFor(garbled).subscribe(id, { reconnect: { initialDelay: 1, maxDelay: 5 } });
    await sub.ready;
    expect(garbled.connections[0]!.url.search).toBe('');
    expect(garbled.connections.at(-1)!.url.searchParams.get('session_api_key')).toBe(KEY);
    sub.close();
  });

  it('an old server behind a proxy that hides /server_info: each method in turn, the URL key only last', async () => {
    const id = proxiedOld.store.addConversation().id;
    const sub = clientFor(proxiedOld).subscribe(id, { reconnect: { initialDelay: 1, maxDelay: 5 } });
    await sub.ready;
    const seen = proxiedOld.connections;
    expect(seen.at(-1)!.url.searchParams.get('session_api_key')).toBe(KEY);
    expect(seen.slice(0, -1).every((connection) => connection.url.search === '')).toBe(true);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    sub.close();
  });
});

describe('version gate on forced features', () => {
  it.each([
    [anchor, 'first-message' as const, '1.18.1', '1.11.4', 'websocket-first-message-auth'],
    [anchor, 'header' as const, '1.12.0', '1.11.4', 'websocket-header-auth'],
    [garbled, 'header' as const, '1.12.0', 'nightly', 'websocket-header-auth'],
  ])(
    'forcing %#: AgentServerVersionError before any socket',
    async (sim, auth, required, actual, feature) => {
      const id = sim.store.addConversation().id;
      const before = sim.connections.length;
      const sub = clientFor(sim).subscribe(id, { auth });
      const error = await collect(sub, 1).catch((e: unknown) => e);
      expect(isAgentServerVersionError(error)).toBe(true);
      expect(error).toMatchObject({
        code: 'AGENT_SERVER_VERSION_TOO_OLD',
        feature,
        requiredVersion: required,
        actualVersion: actual,
      });
      expect((error as Error).message).toContain(
        `requires agent-server ${required} or newer; this backend is running ${actual}`,
      );
      expect(sim.connections.length).toBe(before);
      expect(requests.map((r) => new URL(r.url).pathname)).toEqual(['/server_info']);
      expect(sub.closed).toBe(true);
      await expect(sub.ready).rejects.toBe(error);
    },
  );
});

describe('readiness, state mirror and delivery', () => {
  it('is ready at the first full_state; the mirror follows per-key updates; snapshots are not events', async () => {
    const { store } = modern;
    const id = store.addConversation().id;
    const sub = clientFor(modern).subscribe(id);
    const states: unknown[] = [];
    sub.on('state', (state) => states.push(state.execution_status));
    const events = collect(sub, 2);
    const state = await sub.ready;
    expect(state).toMatchObject({
      id,
      execution_status: 'idle',
      confirmation_policy: { kind: 'NeverConfirm' },
    });
    await until(() => sub.phase === 'live');
    store.setStatus(id, 'running');
    store.publish(id, store.stateUpdate('blocked_actions', { a1: 'hook said no' }));
    const got = await events;
    expect(got.map((event) => (event as { key?: string }).key)).toEqual([
      'execution_status',
      'blocked_actions',
    ]);
    expect(sub.closed).toBe(true);
    expect(sub.state).toMatchObject({ execution_status: 'running', blocked_actions: { a1: 'hook said no' } });
    expect(states).toEqual(['idle', 'running', 'running']);
  });

  it('emits every event as `event` and under its kind, typed', async () => {
    const { store } = modern;
    const id = store.addConversation().id;
    const sub = clientFor(modern).subscribe(id);
    const texts: string[] = [];
    const kinds: string[] = [];
    sub.on('MessageEvent', (event: MessageEvent) => texts.push(label(event)));
    sub.on('event', (event) => kinds.push(String(event.kind)));
    await sub.ready;
    await until(() => sub.phase === 'live');
    store.publish(id, store.message('hi'));
    store.publish(id, {
      id: 'hook-1',
      timestamp: store.timestamp(),
      source: 'hook',
      kind: 'HookExecutionEvent',
    });
    store.publish(id, store.message('there', 'agent'));
    await until(() => kinds.length === 3);
    expect(kinds).toEqual(['MessageEvent', 'HookExecutionEvent', 'MessageEvent']);
    expect(texts).toEqual(['hi', 'there']);
    sub.close();
  });

  it('events that arrive before the first `for await` step are kept for that loop', async () => {
    const { store } = modern;
    const id = store.addConversation().id;
    const sub = clientFor(modern).subscribe(id);
    const seen: string[] = [];
    sub.on('event', (event) => seen.push(String(event.id)));
    await sub.ready;
    await until(() => sub.phase === 'live');
    // The app is busy elsewhere (awaiting a send, say) while the first events arrive.
    store.publish(id, store.message('early one'));
    store.publish(id, store.message('early two', 'agent'));
    await until(() => seen.length === 2);
    const first = collect(sub, 3);
    store.publish(id, store.message('late'));
    const events = await first;
    expect(events.map((event) => label(event))).toEqual(['early one', 'early two', 'late']);
    expect(events.map((event) => String(event.id))).toEqual(seen);
  });

  it('an emitter-only app is not held back by the backlog: it is dropped once full', async () => {
    const { store } = modern;
    const id = store.addConversation().id;
    const sub = clientFor(modern).subscribe(id, { maxBufferedEvents: 3 });
    const seen: string[] = [];
    sub.on('event', (event) => seen.push(String(event.id)));
    await sub.ready;
    await until(() => sub.phase === 'live');
    for (let i = 0; i < 6; i += 1) store.publish(id, store.message(`m${i}`));
    await until(() => seen.length === 6);
    expect(sub.phase).toBe('live');
    expect(sub.buffered).toBe(0);
    // The first loop started now is told what it missed instead of silently starting later (issue 18)...
    await expect(collect(sub, 1)).rejects.toMatchObject({
      name: 'SubscriptionOverflowError',
      code: 'SUBSCRIPTION_BUFFER_OVERFLOW',
    });
    expect(sub.phase).toBe('live');
    // ...and a loop after it begins from the next event.
    const next = collect(sub, 1);
    store.publish(id, store.message('after'));
    expect((await next).map((event) => label(event))).toEqual(['after']);
  });

  it('history: the whole log over REST first (no socket resend needed), then live, each once', async () => {
    const { store, connections } = modern;
    const id = store.addConversation().id;
    for (let i = 0; i < 150; i += 1) store.publish(id, store.message(`old ${i}`));
    const sub = clientFor(modern).subscribe(id, { history: true });
    const got = collect(sub, 152);
    await until(() => sub.phase === 'live');
    store.publish(id, store.message('new 0'));
    store.publish(id, store.message('new 1'));
    const labels = (await got).map((event) => label(event as never));
    expect(labels).toEqual([...Array.from({ length: 150 }, (_, i) => `old ${i}`), 'new 0', 'new 1']);
    expect(connections.at(-1)!.url.search).toBe('');
    const pages = requests.filter((r) => r.url.includes('/events/search'));
    // A first page of 10 measures the events' size; then pages of what fits in maxBufferedBytes, at most 100
    // (connection-flow.ts #pageLimit).
    expect(pages.map((r) => new URL(r.url).searchParams.get('limit'))).toEqual(['10', '100', '100']);
  });

  it.each([
    [modern, { resend_mode: 'since' }],
    [anchor, { resend_all: 'true' }],
  ])(
    'after: reads from there over REST, asks for no resend (%#), and delivers each event from there once, in order',
    async (sim, params) => {
      const { store } = sim;
      const id = store.addConversation().id;
      const events = Array.from({ length: 30 }, (_, i) => store.publish(id, store.message(`m${i}`)));
      const after = events[10]!.timestamp;
      const sub = clientFor(sim).subscribe(id, { after });
      const got = collect(sub, 21);
      await until(() => sub.phase === 'live');
      store.publish(id, store.message('live'));
      expect((await got).map((e) => label(e as never))).toEqual([
        ...events.slice(10).map((e) => label(e as never)),
        'live',
      ]);
      // The REST catch-up reads all a resend would bring: the socket brings live frames only (connector.ts #url).
      const url = sim.connections.at(-1)!.url;
      for (const name of [...Object.keys(params), 'after_timestamp'])
        expect(url.searchParams.has(name)).toBe(false);
    },
  );

  it('after: a saved position continues exactly, without repeating the event at that timestamp', async () => {
    const { store } = modern;
    const id = store.addConversation().id;
    const first = clientFor(modern).subscribe(id, { history: true });
    const firstGot = collect(first, 3);
    await until(() => first.phase === 'live');
    for (let i = 0; i < 3; i += 1) store.publish(id, store.message(`a${i}`));
    await firstGot;
    const position = first.position!;
    expect(position.eventIds).toHaveLength(1);
    for (let i = 0; i < 3; i += 1) store.publish(id, store.message(`b${i}`));
    const second = clientFor(modern).subscribe(id, { after: position });
    // maxSubscribersPerConversation is 1 on this server: the first one is closed already.
    const got = await collect(second, 3);
    expect(got.map((e) => label(e as never))).toEqual(['b0', 'b1', 'b2']);
  });
});

describe('reconnecting and resuming', () => {
  it.each([
    [modern, 'since'],
    [anchor, 'all'],
  ])(
    'the server drops the socket (%#): reconnect, resume from the last event, nothing lost or repeated',
    async (sim, mode) => {
      const { store, connections } = sim;
      const id = store.addConversation().id;
      const sub = clientFor(sim).subscribe(id, { reconnect: fast });
      const reconnects: ReconnectInfo[] = [];
      sub.on('reconnecting', (info) => reconnects.push(info));
      const got = collect(sub, 9);
      await until(() => sub.phase === 'live');
      const before = connections.length;
      for (let i = 0; i < 3; i += 1) store.publish(id, store.message(`a${i}`));
      await until(
        () =>
          (sub.position?.eventIds.length ?? 0) > 0 &&
          label(store.getConversation(id)!.events.at(-1) as never) === 'a2',
      );
      await sleep(10);
      const last = sub.position!.timestamp;
      connections.at(-1)!.client.close(1011, 'server restarting');
      for (let i = 0; i < 3; i += 1) store.publish(id, store.message(`gap${i}`));
      await until(() => connections.length > before && sub.phase === 'live');
      for (let i = 0; i < 3; i += 1) store.publish(id, store.message(`b${i}`));
      expect((await got).map((e) => label(e as never))).toEqual([
        'a0',
        'a1',
        'a2',
        'gap0',
        'gap1',
        'gap2',
        'b0',
        'b1',
        'b2',
      ]);
      expect(reconnects[0]).toMatchObject({ reason: 'closed', attempt: 1, closeCode: 1011 });
      // The reconnect catches up over REST from `last`: it asks the socket for no resend (connector.ts #url).
      const resumed = connections.at(-1)!.url;
      expect(sub.position!.timestamp > last).toBe(true);
      for (const name of ['resend_mode', 'after_timestamp', 'resend_all'])
        expect(resumed.searchParams.has(name), `${mode}: ${name}`).toBe(false);
    },
  );

  it('resume: false reconnects live only: what happened meanwhile is not delivered', async () => {
    const { store, connections } = modern;
    const id = store.addConversation().id;
    const sub = clientFor(modern).subscribe(id, { resume: false, reconnect: fast });
    const got = collect(sub, 2);
    await until(() => sub.phase === 'live');
    store.publish(id, store.message('before'));
    await sleep(5);
    const before = connections.length;
    connections.at(-1)!.client.close(1011);
    store.publish(id, store.message('missed'));
    await until(() => connections.length > before && sub.phase === 'live');
    expect(connections.at(-1)!.url.search).toBe('');
    store.publish(id, store.message('after'));
    expect((await got).map((e) => label(e as never))).toEqual(['before', 'after']);
  });

  it('1013 (too many connections) backs off longer than other closes', async () => {
    const { store } = modern;
    const id = store.addConversation().id;
    const first = clientFor(modern).subscribe(id);
    await first.ready;
    const second = clientFor(modern).subscribe(id, {
      reconnect: { initialDelay: 2, maxDelay: 4, overloadedDelay: 200 },
    });
    const info = await new Promise<ReconnectInfo>((resolve) => second.once('reconnecting', resolve));
    expect(info).toMatchObject({ reason: 'overloaded', closeCode: 1013, attempt: 1 });
    expect(info.delay!).toBeGreaterThanOrEqual(100);
    expect(info.delay!).toBeLessThanOrEqual(200);
    first.close();
    await second.ready;
    second.close();
  });

  it('a socket that opens but never sends full_state is given up after readyTimeout and retried', async () => {
    const id = silentRest.store.addConversation().id;
    const client = new EventsClient({ baseUrl: silentRest.baseUrl, logLevel: 'off', maxRetryDelay: 10 });
    const sub = client.subscribe(id, { readyTimeout: 30, reconnect: { ...fast, maxAttempts: 2 } });
    const reasons: string[] = [];
    sub.on('reconnecting', (info) => reasons.push(info.reason));
    const error = await collect(sub, 1).catch((e: unknown) => e);
    expect(isSubscriptionConnectionError(error)).toBe(true);
    expect(reasons).toEqual(['ready-timeout', 'ready-timeout']);
    expect(silentConnections).toBe(3);
  });

  it('a refused handshake with a healthy REST API is retried, up to maxAttempts', async () => {
    const id = refusingRest.store.addConversation().id;
    const client = new EventsClient({ baseUrl: refusingRest.baseUrl, logLevel: 'off', maxRetryDelay: 10 });
    const sub = client.subscribe(id, { reconnect: { ...fast, maxAttempts: 1 } });
    const error = (await collect(sub, 1).catch((e: unknown) => e)) as SubscriptionError;
    expect(isSubscriptionConnectionError(error)).toBe(true);
    expect(error.message).toContain('1 failed connection attempts');
    expect(refused).toBe(2);
  });

  it('a handshake refused again and again while REST answers is a typed endpoint error, not endless retry', async () => {
    refused = 0;
    const id = refusingRest.store.addConversation().id;
    const client = new EventsClient({ baseUrl: refusingRest.baseUrl, logLevel: 'off', maxRetryDelay: 10 });
    const sub = client.subscribe(id, { reconnect: fast });
    const error = (await collect(sub, 1).catch((e: unknown) => e)) as SubscriptionError;
    expect(isSubscriptionEndpointNotFoundError(error)).toBe(true);
    expect(error.message).toMatch(/protocol: '(session|events)'/);
    expect(refused).toBe(3);
  });
});

describe('fatal closes: a typed error and no reconnect', () => {
  it('4001 (first-message auth with a wrong key)', async () => {
    const id = modern.store.addConversation().id;
    const before = modern.connections.length;
    const sub = clientFor(modern, 'not-the-key-9999').subscribe(id, { reconnect: fast });
    const closed = new Promise((resolve) => sub.once('close', resolve));
    const error = (await collect(sub, 1).catch((e: unknown) => e)) as SubscriptionError;
    expect(isSubscriptionAuthenticationError(error)).toBe(true);
    expect(error).toMatchObject({ closeCode: 4001, closeReason: 'Authentication failed' });
    expect(await closed).toEqual({ reason: 'error', error });
    await sleep(60);
    expect(modern.connections.length).toBe(before + 1);
    expect(error.message).not.toContain('not-the-key-9999');
  });

  it('4004 (unknown conversation)', async () => {
    const before = modern.connections.length;
    const sub = clientFor(modern).subscribe(crypto.randomUUID(), { reconnect: fast });
    const error = (await collect(sub, 1).catch((e: unknown) => e)) as SubscriptionError;
    expect(isSubscriptionNotFoundError(error)).toBe(true);
    expect(error.closeCode).toBe(4004);
    await sleep(60);
    expect(modern.connections.length).toBe(before + 1);
  });

  it('a refused handshake (anchor, wrong key): the REST API confirms the key is refused', async () => {
    const id = anchor.store.addConversation().id;
    const before = anchor.connections.length;
    const sub = clientFor(anchor, 'wrong-key-31337').subscribe(id, { reconnect: fast });
    const error = (await collect(sub, 1).catch((e: unknown) => e)) as SubscriptionError;
    expect(isSubscriptionAuthenticationError(error)).toBe(true);
    expect(isAuthenticationError(error.cause)).toBe(true);
    await sleep(60);
    expect(anchor.connections.length).toBe(before + 1);
    expect(JSON.stringify(error)).not.toContain('wrong-key-31337');
    expect(String((error.cause as Error).message)).not.toContain('wrong-key-31337');
  });
});

describe('sending over the socket', () => {
  it('sends a user message frame; the server runs the agent, whose events arrive', async () => {
    const { store, connections } = modern;
    const id = store.addConversation().id;
    const sub = clientFor(modern).subscribe(id);
    const finished = new Promise<void>((resolve) =>
      sub.on('state', (state) => state.execution_status === 'finished' && resolve()),
    );
    const kinds: string[] = [];
    sub.on('event', (event) => kinds.push(String(event.kind)));
    await sub.send('Run `pwd`');
    expect(JSON.parse(connections.at(-1)!.frames[1]!)).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'Run `pwd`' }],
    });
    await finished;
    expect(kinds).toEqual([
      'MessageEvent',
      'ConversationStateUpdateEvent',
      'ActionEvent',
      'ObservationEvent',
      'MessageEvent',
      'ActionEvent',
      'ObservationEvent',
      'ConversationStateUpdateEvent',
    ]);
    sub.close();
    const error = await sub.send('too late').catch((e: unknown) => e);
    expect(isSubscriptionError(error)).toBe(true);
  });
});

describe('bad frames', () => {
  it('a frame that is not an event is reported on `error` and skipped; the stream goes on', async () => {
    const { store, connections } = modern;
    const id = store.addConversation().id;
    const sub = clientFor(modern).subscribe(id);
    const errors: unknown[] = [];
    sub.on('error', (error) => errors.push(error));
    const got = collect(sub, 1);
    await until(() => sub.phase === 'live');
    connections.at(-1)!.client.send('{"not": "an event"');
    connections.at(-1)!.client.send('{"no": "kind"}');
    store.publish(id, store.message('fine'));
    expect((await got).map((e) => label(e as never))).toEqual(['fine']);
    expect(errors).toHaveLength(2);
    expect(errors.every(isResponseValidationError)).toBe(true);
  });
});

describe('listeners and the `for await` loop together', () => {
  it('listeners added while live get the events that follow, under `event`, their kind and `state`', async () => {
    const { store } = modern;
    const id = store.addConversation().id;
    const sub = clientFor(modern).subscribe(id);
    const iterated: string[] = [];
    const loop = (async () => {
      for await (const event of sub) {
        iterated.push(label(event as never));
        if (iterated.length === 4) break;
      }
    })();
    await until(() => sub.phase === 'live');
    // Nobody listens yet: the `for await` loop alone.
    store.publish(id, store.message('one'));
    await until(() => iterated.length === 1);
    const heard: string[] = [];
    sub.on('event', (event) => heard.push(`event ${label(event as never)}`));
    sub.on('MessageEvent', (event) => heard.push(`MessageEvent ${label(event)}`));
    sub.on('state', (state) => heard.push(`state ${String(state.execution_status)}`));
    store.publish(id, store.message('two'));
    store.setStatus(id, 'running');
    store.publish(id, store.message('three', 'agent'));
    await loop;
    expect(iterated).toEqual(['one', 'two', 'ConversationStateUpdateEvent', 'three']);
    expect(heard).toEqual([
      'event two',
      'MessageEvent two',
      'event ConversationStateUpdateEvent',
      'state running',
      'event three',
      'MessageEvent three',
    ]);
  });

  it('the state mirror follows per-key updates when nobody listens to `state`', async () => {
    const { store } = modern;
    const id = store.addConversation().id;
    const sub = clientFor(modern).subscribe(id);
    const got = collect(sub, 2);
    await until(() => sub.phase === 'live');
    store.setStatus(id, 'running');
    store.publish(id, store.stateUpdate('title', 'renamed'));
    await got;
    expect(sub.state).toMatchObject({ execution_status: 'running', title: 'renamed' });
  });

  it('a listener may close the subscription once the buffer is full: it ends there, without a pause', async () => {
    const { store } = modern;
    const id = store.addConversation().id;
    const sub = clientFor(modern).subscribe(id, { maxBufferedEvents: 3 });
    // A loop that never takes anything: its buffer fills up.
    const iterator = sub[Symbol.asyncIterator]();
    const reasons: string[] = [];
    sub.on('reconnecting', (info) => reasons.push(info.reason));
    sub.on('event', () => {
      if (sub.buffered >= 3) sub.close();
    });
    const closed = new Promise((resolve) => sub.once('close', resolve));
    await until(() => sub.phase === 'live');
    for (let i = 0; i < 5; i += 1) store.publish(id, store.message(`m${i}`));
    expect(await closed).toEqual({ reason: 'closed' });
    expect(reasons).toEqual([]);
    expect(sub.phase).toBe('closed');
    const taken: string[] = [];
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      taken.push(label(next.value as never));
    }
    expect(taken).toEqual(['m0', 'm1', 'm2']);
  });
});

describe('slow consumers: a bounded buffer', () => {
  it("onOverflow 'error': SubscriptionOverflowError once maxBufferedEvents wait", async () => {
    const { store } = modern;
    const id = store.addConversation().id;
    const sub = clientFor(modern).subscribe(id, { maxBufferedEvents: 5, onOverflow: 'error' });
    const iterator = sub[Symbol.asyncIterator]();
    const closed = new Promise((resolve) => sub.once('close', resolve));
    await until(() => sub.phase === 'live');
    for (let i = 0; i < 8; i += 1) store.publish(id, store.message(`m${i}`));
    await closed;
    const seen: string[] = [];
    const error = await (async () => {
      for (;;) {
        const next = await iterator.next();
        if (next.done) return undefined;
        seen.push(label(next.value as never));
      }
    })().catch((e: unknown) => e);
    expect(isSubscriptionOverflowError(error)).toBe(true);
    expect(seen).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
  });

  it("onOverflow 'pause' (default): never more than maxBufferedEvents wait, and nothing is lost", async () => {
    const { store, connections } = modern;
    const id = store.addConversation().id;
    const sub = clientFor(modern).subscribe(id, { maxBufferedEvents: 8, reconnect: fast });
    let maxWaiting = 0;
    const reasons: string[] = [];
    sub.on('event', () => {
      maxWaiting = Math.max(maxWaiting, sub.buffered);
    });
    sub.on('reconnecting', (info) => reasons.push(info.reason));
    const total = 60;
    const before = connections.length;
    const got = (async () => {
      const out: string[] = [];
      for await (const event of sub) {
        out.push(label(event as never));
        await sleep(2);
        if (out.length === total) break;
      }
      return out;
    })();
    await until(() => sub.phase === 'live');
    for (let i = 0; i < total; i += 1) store.publish(id, store.message(`m${i}`));
    expect(await got).toEqual(Array.from({ length: total }, (_, i) => `m${i}`));
    expect(maxWaiting).toBe(8);
    // The socket cannot pause (msw's): the connection stays and catches up over REST at the loop's pace,
    // instead of reconnecting for the server to replay (connection-flow.ts #readAgain).
    expect(reasons).toEqual([]);
    expect(connections.length).toBe(before + 1);
  });
});

describe('ending', () => {
  it('abort: the iterator throws APIUserAbortError, the socket is closed', async () => {
    const id = modern.store.addConversation().id;
    const controller = new AbortController();
    const sub = clientFor(modern).subscribe(id, { signal: controller.signal });
    const pending = collect(sub, 1).catch((e: unknown) => e);
    await sub.ready;
    controller.abort();
    expect(isAPIUserAbortError(await pending)).toBe(true);
    await until(() => modern.connections.at(-1)!.closed, 'socket closed');
  });

  it('an already aborted signal ends the subscription without connecting', async () => {
    const before = requests.length;
    const sub = clientFor(modern).subscribe(modern.store.addConversation().id, {
      signal: AbortSignal.abort(),
    });
    expect(isAPIUserAbortError(await collect(sub, 1).catch((e: unknown) => e))).toBe(true);
    expect(requests.length).toBe(before);
  });

  it('break closes the subscription and its socket', async () => {
    const { store, connections } = modern;
    const id = store.addConversation().id;
    const sub = clientFor(modern).subscribe(id);
    const got = collect(sub, 1);
    await until(() => sub.phase === 'live');
    store.publish(id, store.message('one'));
    await got;
    expect(sub.closed).toBe(true);
    await until(() => connections.at(-1)!.closed, 'socket closed');
  });

  it('rejects bad options before connecting', () => {
    const client = clientFor(modern);
    const id = crypto.randomUUID();
    expect(() => client.subscribe(id, { maxBufferedEvents: 0 })).toThrow(/maxBufferedEvents/);
    expect(() => client.subscribe(id, { after: 'yesterday' })).toThrow(/after/);
    expect(() => client.subscribe(id, { auth: 'cookie' as never })).toThrow(/auth/);
    expect(() => client.subscribe('not-a-uuid')).toThrow(/conversationId/);
  });
});
