import { afterEach, describe, expect, it, vi } from 'vitest';
import { isViewClosedError, isViewEchoTimeoutError } from '../../../src/agent-server/index.js';
import { isAPIUserAbortError, isRequestValidationError } from '../../../src/core/errors.js';
import type { Event } from '../../../src/models/index.js';
import {
  action,
  agentError,
  agentMessage,
  FakeSource,
  nextTimestamp,
  observation,
  settle,
  stateUpdate,
  userMessage,
} from './fake-source.js';

afterEach(() => {
  vi.useRealTimers();
});

/** Every persisted event the items show, in item order. */
const shown = (view: { getSnapshot(): { items: readonly { events: readonly Event[] }[] } }) =>
  view.getSnapshot().items.flatMap((item) => item.events.map((event) => event.id));

/** The history without state updates: what the items must show, each once. */
const expected = (source: FakeSource) =>
  source.history.filter((event) => event.kind !== 'ConversationStateUpdateEvent').map((event) => event.id);

async function openView(source: FakeSource, options = {}) {
  const view = source.view(options);
  source.live.connect({ execution_status: 'idle' });
  await view.ready;
  return view;
}

describe('ConversationView: loading', () => {
  it('shows the newest page first and reads older pages back to the start, each event once', async () => {
    const source = new FakeSource();
    for (let i = 0; i < 23; i++) source.store(userMessage(`m${i}`));
    const view = await openView(source, { pageSize: 10 });
    expect(view.getSnapshot().items.map((item) => item.text)).toEqual(
      Array.from({ length: 10 }, (_, i) => `m${i + 13}`),
    );
    expect(view.getSnapshot().hasOlder).toBe(true);
    expect(source.queries[0]).toEqual({ sortOrder: 'TIMESTAMP_DESC', limit: 10 });
    expect(await view.loadOlder()).toBe(true);
    expect(await view.loadOlder()).toBe(false);
    expect(await view.loadOlder()).toBe(false);
    expect(shown(view)).toEqual(expected(source));
    // One search, newest first: each older page continues it by the server's next_page_id.
    expect(source.queries).toHaveLength(1);
    view.close();
  });

  it('joins a tool call split by a page boundary once the older page brings its action', async () => {
    const source = new FakeSource();
    const go = userMessage('go');
    const call = action();
    const failed = action();
    source.store(go, call, failed, observation(call), agentError(failed), agentMessage('done'));
    const view = await openView(source, { pageSize: 3 });
    const before = view.getSnapshot().items;
    // The results stand alone until their actions are loaded.
    expect(before.map((item) => [item.type, item.events.map((e) => e.kind)])).toEqual([
      ['tool-call', ['ObservationEvent']],
      ['error', ['AgentErrorEvent']],
      ['agent-message', ['MessageEvent']],
    ]);
    while (await view.loadOlder());
    const after = view.getSnapshot().items;
    expect(after.map((item) => [item.type, item.events.map((e) => e.kind)])).toEqual([
      ['user-message', ['MessageEvent']],
      ['tool-call', ['ActionEvent', 'ObservationEvent']],
      ['tool-call', ['ActionEvent', 'AgentErrorEvent']],
      ['agent-message', ['MessageEvent']],
    ]);
    expect(after[1]?.id).toBe(call.id);
    // The message the older page did not touch is the same object.
    expect(after[3]).toBe(before[2]);
    expect(shown(view).sort()).toEqual(expected(source).sort());
    view.close();
  });

  it('loses none of the events that share the boundary timestamp', async () => {
    const source = new FakeSource();
    source.store(userMessage('a'), userMessage('b'));
    const same = nextTimestamp();
    for (const text of ['c', 'd', 'e', 'f']) source.store(userMessage(text, same));
    source.store(userMessage('g'));
    const view = await openView(source, { pageSize: 3 });
    while (await view.loadOlder());
    expect(view.getSnapshot().items.map((item) => item.text)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    view.close();
  });

  it('pages by the server order, not timestamps: an event stored before the page but stamped after it is kept', async () => {
    const source = new FakeSource();
    const a = userMessage('a');
    const b = userMessage('b');
    const sooner = nextTimestamp();
    const later = nextTimestamp();
    // As 1.44.1 stores a run's last stats update after `finished` but stamps it before: c is stored before d
    // but stamped after it.
    const c = userMessage('c', later);
    const d = userMessage('d', sooner);
    source.store(a, b, c, d, userMessage('e'), userMessage('f'));
    const view = await openView(source, { pageSize: 3 });
    while (await view.loadOlder());
    expect(view.getSnapshot().items.map((item) => item.text)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    view.close();
  });

  it('drops duplicates: live events the page also holds, replays, and live events during loadOlder()', async () => {
    const source = new FakeSource();
    for (let i = 0; i < 6; i++) source.store(userMessage(`old${i}`));
    const early = userMessage('early');
    source.store(early);
    const view = source.view({ pageSize: 4 });
    // Delivered live before the page was shown, and in the page too.
    source.live.deliver(early);
    source.live.connect({ execution_status: 'idle' });
    await view.ready;
    expect(view.getSnapshot().items.map((item) => item.text)).toEqual(['old3', 'old4', 'old5', 'early']);
    source.holdPages();
    const loading = view.loadOlder();
    await settle();
    expect(view.getSnapshot().loadingOlder).toBe(true);
    const during = agentMessage('during');
    source.publish(during);
    source.live.deliver(early); // a replay after a reconnect
    // The live catch-up's "a moment before": older than the page, left to loadOlder() to put in place.
    source.live.deliver(source.history[1] as Event);
    source.live.emit('reconnecting', { reason: 'closed', attempt: 1, delay: 5 });
    source.live.connect({ execution_status: 'idle' }, true);
    source.live.deliver(during);
    source.releasePages();
    expect(await loading).toBe(false);
    expect(view.getSnapshot().loadingOlder).toBe(false);
    expect(shown(view)).toEqual(expected(source));
    view.close();
  });

  it('reads only the newest page to open, however long the conversation', async () => {
    const source = new FakeSource();
    for (let i = 0; i < 5_000; i++) source.store(userMessage(`m${i}`));
    const view = await openView(source, { pageSize: 20 });
    expect(source.queries).toHaveLength(1);
    expect(view.getSnapshot().items).toHaveLength(20);
    view.close();
  });
});

describe('ConversationView: snapshots', () => {
  it('keeps unchanged items and the snapshot identical, and notifies once per burst', async () => {
    const source = new FakeSource();
    const call = action();
    source.store(userMessage('hi'), call);
    const view = await openView(source);
    const listener = vi.fn();
    view.subscribe(listener);
    const first = view.getSnapshot();
    expect(view.getSnapshot()).toBe(first);
    source.publish(observation(call), agentMessage('a'), agentMessage('b'), stateUpdate('stats', {}));
    expect(listener).not.toHaveBeenCalled();
    await settle();
    expect(listener).toHaveBeenCalledTimes(1);
    const second = view.getSnapshot();
    expect(second).not.toBe(first);
    expect(second.items[0]).toBe(first.items[0]);
    expect(second.items[1]).not.toBe(first.items[1]);
    expect(second.items[1]?.events.map((e) => e.kind)).toEqual(['ActionEvent', 'ObservationEvent']);
    expect(Object.isFrozen(second)).toBe(true);
    expect(Object.isFrozen(second.items[1])).toBe(true);
    // A state update alone makes no item but changes the state.
    source.publish(stateUpdate('execution_status', 'running'));
    await settle();
    expect(listener).toHaveBeenCalledTimes(2);
    expect(view.getSnapshot().items).toBe(second.items);
    expect(view.getSnapshot().status).toBe('running');
    // A duplicate changes nothing and notifies nobody.
    source.live.deliver(second.items[2]?.events[0] as Event);
    await settle();
    expect(listener).toHaveBeenCalledTimes(2);
    view.close();
  });

  it('says connecting until the first connection, reconnecting only after one, closed with the error', async () => {
    const source = new FakeSource();
    const view = source.view();
    expect(view.getSnapshot().connection).toBe('connecting');
    source.live.emit('reconnecting', { reason: 'error', attempt: 1, delay: 5 });
    await settle();
    expect(view.getSnapshot().connection).toBe('connecting');
    source.live.connect({ execution_status: 'idle' });
    await view.ready;
    expect(view.getSnapshot().connection).toBe('live');
    source.live.emit('reconnecting', { reason: 'closed', attempt: 1, delay: 5 });
    await settle();
    expect(view.getSnapshot().connection).toBe('reconnecting');
    const error = new Error('gone for good');
    source.live.fail(error);
    expect(view.getSnapshot()).toMatchObject({ connection: 'closed', error });
  });

  it('checks its options before anything is requested', () => {
    const source = new FakeSource();
    const fails = (options: unknown, field: string) => {
      try {
        source.view(options as never);
      } catch (error) {
        expect(isRequestValidationError(error)).toBe(true);
        expect(JSON.stringify((error as { issues: unknown }).issues)).toContain(field);
        return;
      }
      throw new Error(`accepted ${JSON.stringify(options)}`);
    };
    fails({ pageSize: 0 }, 'pageSize');
    fails({ pageSize: 101 }, 'pageSize');
    fails({ echoTimeout: -1 }, 'echoTimeout');
    fails({ idleQuiet: Number.NaN }, 'idleQuiet');
    fails({ signal: 'no' }, 'signal');
    fails({ pagesize: 10 }, 'pagesize');
    fails('x', 'options');
    expect(source.subscriptions).toHaveLength(0);
    expect(source.queries).toHaveLength(0);
  });

  it('closes on its signal and rejects what waits', async () => {
    const source = new FakeSource();
    const controller = new AbortController();
    const view = await openView(source, { signal: controller.signal });
    const idle = view.whenIdle();
    controller.abort();
    await expect(idle).rejects.toSatisfy(isViewClosedError);
    expect(view.getSnapshot().connection).toBe('closed');
    expect(view.getSnapshot().error).toBeUndefined();
    expect(source.live.closed).toBe(true);
    await expect(view.loadOlder()).rejects.toSatisfy(isViewClosedError);
  });
});

describe('ConversationView: optimistic send', () => {
  it('shows a sending item at once and the persisted message once when it arrives', async () => {
    const source = new FakeSource();
    const view = await openView(source);
    const sending = view.send('hello');
    const pending = view.getSnapshot().items;
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ type: 'user-message', text: 'hello', pending: { state: 'sending' } });
    await sending;
    await settle();
    const items = view.getSnapshot().items;
    expect(items).toHaveLength(1);
    expect(items[0]?.pending).toBeUndefined();
    expect(items[0]?.events[0]?.kind).toBe('MessageEvent');
    expect(source.sent).toEqual([{ content: 'hello', run: true }]);
    view.close();
  });

  it('turns failed when no echo comes within echoTimeout, and retry sends it again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const source = new FakeSource({ echo: false });
    const view = await openView(source, { echoTimeout: 5_000 });
    await view.send('lost');
    await settle();
    expect(view.getSnapshot().items[0]?.pending?.state).toBe('sending');
    vi.advanceTimersByTime(4_999);
    await settle();
    expect(view.getSnapshot().items[0]?.pending?.state).toBe('sending');
    vi.advanceTimersByTime(1);
    await settle();
    const failed = view.getSnapshot().items[0];
    expect(failed?.pending?.state).toBe('failed');
    expect(isViewEchoTimeoutError(failed?.pending?.error)).toBe(true);
    expect(failed?.pending?.reason).toBe('no-echo');
    source.options.echo = true;
    await view.retry(failed?.id as string);
    await settle();
    expect(view.getSnapshot().items.map((item) => [item.text, item.pending?.state])).toEqual([
      ['lost', undefined],
    ]);
    expect(source.sent).toHaveLength(2);
    vi.advanceTimersByTime(10_000);
    await settle();
    expect(view.getSnapshot().items).toHaveLength(1);
    view.close();
  });

  it('turns failed with the error when the request fails, and rejects', async () => {
    const source = new FakeSource({ sendError: new Error('500 from the server') });
    const view = await openView(source);
    await expect(view.send('x')).rejects.toThrow('500 from the server');
    await settle();
    expect(view.getSnapshot().items[0]?.pending).toMatchObject({
      state: 'failed',
      reason: 'request',
      error: { message: '500 from the server' },
    });
    expect(() => view.retry('nope')).toThrow();
    source.options.sendError = undefined;
    await view.retry(view.getSnapshot().items[0]?.id as string);
    await settle();
    expect(view.getSnapshot().items.map((item) => item.pending)).toEqual([undefined]);
    view.close();
  });

  it('rejects a bad message before any request, naming the field', async () => {
    const source = new FakeSource();
    const view = await openView(source);
    expect(() => view.send({ content: [] })).toThrow();
    expect(() => view.send('x', { run: 'yes' as never })).toThrow();
    expect(source.sent).toHaveLength(0);
    expect(view.getSnapshot().items).toHaveLength(0);
    view.close();
  });
});

describe('ConversationView: streamed text', () => {
  it('shows the newest attempt while it streams and gives way to the persisted message', async () => {
    const source = new FakeSource();
    const view = await openView(source);
    source.publish(stateUpdate('execution_status', 'running'));
    const delta = (content: string, attempt = 1) =>
      source.live.emit('delta', { type: 'delta', itemId: 'r1', attempt, order: 0, kind: 'text', content });
    source.live.emit('delta', { type: 'item_started', itemId: 'r1', attempt: 1, anchorSeq: 3 });
    delta('Hel');
    delta('lo');
    await settle();
    expect(view.getSnapshot().items.at(-1)).toMatchObject({ streaming: true, text: 'Hello' });
    delta('Bye', 2);
    delta('late', 1);
    await settle();
    expect(view.getSnapshot().items.at(-1)).toMatchObject({ streaming: true, text: 'Bye' });
    source.publish(agentMessage('Bye!'));
    await settle();
    const items = view.getSnapshot().items;
    expect(items.map((item) => [item.text, item.streaming])).toEqual([['Bye!', undefined]]);
    view.close();
  });

  it('leaves nothing of an aborted response, an interrupted run or a lost connection', async () => {
    const source = new FakeSource();
    const view = await openView(source);
    const stream = (itemId: string) => {
      source.live.emit('delta', { type: 'item_started', itemId, attempt: 1, anchorSeq: undefined });
      source.live.emit('delta', {
        type: 'delta',
        itemId,
        attempt: 1,
        order: 0,
        kind: 'text',
        content: 'par',
      });
    };
    source.publish(stateUpdate('execution_status', 'running'));
    stream('a');
    source.live.emit('delta', { type: 'item_aborted', itemId: 'a', attempt: 1, reason: 'interrupted' });
    await settle();
    expect(view.getSnapshot().items).toHaveLength(0);
    stream('b');
    await settle();
    expect(view.getSnapshot().items).toHaveLength(1);
    source.publish(stateUpdate('execution_status', 'paused'));
    await settle();
    expect(view.getSnapshot().items).toHaveLength(0);
    source.publish(stateUpdate('execution_status', 'running'));
    stream('c');
    await settle();
    expect(view.getSnapshot().items).toHaveLength(1);
    source.live.emit('reconnecting', { reason: 'closed', attempt: 1, delay: 5 });
    await settle();
    expect(view.getSnapshot().items).toHaveLength(0);
    view.close();
  });
});

describe('ConversationView: whenIdle', () => {
  it('waits for the stats update the server persists after the terminal status', async () => {
    const source = new FakeSource();
    const view = await openView(source);
    let idle: unknown;
    view.whenIdle().then((snapshot) => {
      idle = snapshot;
    });
    source.publish(stateUpdate('execution_status', 'running'), agentMessage('answer'));
    source.publish(stateUpdate('execution_status', 'finished'));
    await settle();
    expect(view.getSnapshot().status).toBe('finished');
    expect(idle).toBeUndefined();
    source.publish(stateUpdate('stats', { usage_to_metrics: { default: { accumulated_cost: 0.5 } } }));
    await settle();
    expect(idle).toBe(view.getSnapshot());
    expect(view.getSnapshot().state?.stats).toHaveProperty('usage_to_metrics.default');
    view.close();
  });

  it('does not take the previous run for the one a send starts', async () => {
    const source = new FakeSource();
    source.store(stateUpdate('execution_status', 'finished'), stateUpdate('stats', {}));
    const view = source.view();
    source.live.connect({ execution_status: 'finished' });
    await view.ready;
    expect(view.getSnapshot().status).toBe('finished');
    await expect(view.whenIdle()).resolves.toBe(view.getSnapshot());
    await view.send('again');
    let idle = false;
    view.whenIdle().then(() => {
      idle = true;
    });
    await settle();
    expect(idle).toBe(false);
    source.publish(stateUpdate('execution_status', 'running'), agentMessage('done'));
    source.publish(stateUpdate('execution_status', 'finished'));
    await settle();
    expect(idle).toBe(false);
    source.publish(stateUpdate('stats', {}));
    await settle();
    expect(idle).toBe(true);
    view.close();
  });

  it('sees a stats update the live layer applies to the state only, and a run shown before its echo', async () => {
    const source = new FakeSource({ echo: false });
    source.store(stateUpdate('execution_status', 'finished'));
    const view = source.view();
    source.live.connect({ execution_status: 'finished', stats: { usage_to_metrics: {} } });
    await view.ready;
    const sending = view.send('go');
    let idle = false;
    view.whenIdle().then(() => {
      idle = true;
    });
    const live = source.live;
    const mirror = (key: string, value: unknown) => {
      live.state = { ...live.state, [key]: value };
      live.emit('state', live.state);
    };
    // The run's statuses come as state before the echo is delivered (a durable event held back).
    mirror('execution_status', 'running');
    mirror('execution_status', 'finished');
    await sending;
    await settle();
    expect(idle).toBe(false);
    source.publish(userMessage('go'));
    await settle();
    expect(idle).toBe(false);
    mirror('stats', { usage_to_metrics: { agent: {} } });
    await settle();
    expect(idle).toBe(true);
    view.close();
  });

  it('resolves only once the state holds the stats update, when its event comes before the mirror has it', async () => {
    const source = new FakeSource();
    const view = await openView(source);
    let idle: { state: unknown } | undefined;
    view.whenIdle().then((snapshot) => {
      idle = snapshot;
    });
    source.publish(stateUpdate('execution_status', 'running'), stateUpdate('execution_status', 'finished'));
    await settle();
    const stats = { usage_to_metrics: { agent: { accumulated_cost: 1 } } };
    const update = stateUpdate('stats', stats);
    source.history.push(update);
    source.live.emit('event', update); // 1.44.1: the event a task before the mirror
    await settle();
    expect(idle).toBeUndefined();
    source.live.state = { ...source.live.state, stats } as never;
    source.live.emit('state', source.live.state);
    await settle();
    expect(idle?.state).toMatchObject({ stats });
    view.close();
  });

  it('falls back to a quiet period on a server that sends no stats update', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const source = new FakeSource();
    const view = await openView(source, { idleQuiet: 1_000 });
    let idle = false;
    view.whenIdle().then(() => {
      idle = true;
    });
    source.publish(stateUpdate('execution_status', 'running'));
    source.publish(stateUpdate('execution_status', 'finished'));
    await settle();
    vi.advanceTimersByTime(900);
    source.publish(agentMessage('a late event restarts the quiet period'));
    await settle();
    vi.advanceTimersByTime(900);
    await settle();
    expect(idle).toBe(false);
    vi.advanceTimersByTime(100);
    await settle();
    expect(idle).toBe(true);
    view.close();
  });

  it('rejects on abort and when the view closes', async () => {
    const source = new FakeSource();
    const view = await openView(source);
    const controller = new AbortController();
    const aborted = view.whenIdle({ signal: controller.signal });
    controller.abort();
    await expect(aborted).rejects.toSatisfy(isAPIUserAbortError);
    const closed = view.whenIdle();
    view.close();
    await expect(closed).rejects.toSatisfy(isViewClosedError);
  });
});
