// The subscriber against the real agent servers of the matrix, on both live protocols where a version has
// them (`/sockets/session` from 1.45.0, `/sockets/events` on every version): the server killed and restarted
// mid-run (every persisted event exactly once and in the server's log order), and streamed output (deltas
// of the latest attempt, concatenated, equal the final message).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { supportsFeature } from '../../src/agent-server/index.js';
import {
  AGENT_SERVER_FEATURES,
  ConversationsClient,
  type Event,
  EventsClient,
  type StreamDelta,
} from '../../src/index.js';
import { requirePeer, versionsUnderTest } from '../peers/peers.js';
import { persistedLogOrder, type RealAgentServer, startRealAgentServer } from './support/agent-server.js';
import { type FakeLlm, finish, startFakeLlm, terminal, think } from './support/fake-llm.js';
import { compareVersions } from './support/record.js';
import { startBody } from './support/scenarios.js';

for (const { version } of versionsUnderTest('agent-server')) {
  const venv = requirePeer('agent-server', version);
  const protocols = supportsFeature(version, AGENT_SERVER_FEATURES.sessionSocket)
    ? (['session', 'events'] as const)
    : (['events'] as const);

  describe.skipIf(venv === undefined)(`real agent server ${version}: live protocols`, () => {
    let server: RealAgentServer;
    let llm: FakeLlm;
    let events: EventsClient;
    let conversations: ConversationsClient;

    beforeAll(async () => {
      llm = await startFakeLlm();
      server = await startRealAgentServer(venv as string, version);
      const options = { baseUrl: server.url, sessionApiKey: server.sessionApiKey, logLevel: 'off' as const };
      events = new EventsClient(options);
      conversations = new ConversationsClient(options);
    });

    afterAll(async () => {
      await server?.close();
      await llm?.close();
    });

    // The docs' pattern (docs/events-and-streaming.md, "What a subscription delivers"): subscribe live-only,
    // then send with run: true at once, without waiting for anything. Every event persisted after subscribe()
    // returned must arrive, in every run, on both sockets; compared with the REST history.
    it.each(protocols.flatMap((protocol) => [1, 2, 3].map((run) => [protocol, run] as const)))(
      '%s: subscribe-then-send delivers every event of the run (run %i)',
      async (protocol) => {
        llm.script([{ toolCalls: [terminal('echo subscribe-then-send')] }, { toolCalls: [finish('done')] }]);
        const body = startBody(server, llm);
        const info = await conversations.create({ agent: body.agent, workspace: body.workspace });
        const before = new Set<string>();
        for await (const event of events.search(info.id)) before.add(String(event.id));
        const subscribedAt = new Date().toISOString();
        const lines: string[] = [];
        const traced = new EventsClient({
          baseUrl: server.url,
          sessionApiKey: server.sessionApiKey,
          logLevel: 'debug',
          logger: {
            debug: (line: string, meta?: unknown) => lines.push(`debug ${line} ${meta ?? ''}`),
            info: (line: string) => lines.push(`info ${line}`),
            warn: (line: string) => lines.push(`warn ${line}`),
            error: (line: string) => lines.push(`error ${line}`),
          },
          fetch: async (input, init) => {
            lines.push(`fetch ${String(input instanceof Request ? input.url : input)}`);
            return fetch(input, init);
          },
        });
        const live = traced.subscribe(info.id, { protocol });
        live.on('reconnecting', (r) => lines.push(`reconnecting ${r.reason} ${String(r.error)}`));
        live.on('open', () => lines.push('open'));
        live.on('state', (state) => lines.push(`state ${JSON.stringify(state).slice(0, 80)}`));
        await events.send(info.id, { role: 'user', content: [{ type: 'text', text: 'go' }], run: true });
        const received: Event[] = [];
        const timeout = setTimeout(() => live.close(), 60_000);
        for await (const event of live) {
          received.push(event);
          const observation = (event as { observation?: { kind?: string } }).observation;
          if (event.kind === 'ObservationEvent' && observation?.kind === 'FinishObservation') break;
        }
        clearTimeout(timeout);
        const lastId = String(received.at(-1)?.id);
        let logOrder = persistedLogOrder(server, info.id);
        for (let i = 0; i < 50 && !logOrder.includes(lastId); i += 1) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          logOrder = persistedLogOrder(server, info.id);
        }
        const expected = logOrder.slice(0, logOrder.indexOf(lastId) + 1).filter((id) => !before.has(id));
        const history = new Map<string, Event>();
        for await (const event of events.search(info.id)) history.set(String(event.id), event);
        const delivered = received.map((event) => String(event.id)).filter((id) => history.has(id));
        expect(new Set(delivered).size).toBe(delivered.length);
        // At least everything persisted after subscribe() returned, the run's SystemPromptEvent included.
        const missed = expected.filter((id) => !delivered.includes(id));
        const describe = (id: string) => {
          const event = history.get(id) as { kind?: string; timestamp?: string; key?: string } | undefined;
          return `${id} ${event?.kind} ${event?.key ?? ''} ${event?.timestamp}`;
        };
        expect(
          missed.map(describe),
          `subscribed at ${subscribedAt}; log: ${logOrder.map(describe).join(' | ')}; ${lines.join('\n')}; delivered: ${received.map((e) => `${e.kind}@${e.timestamp}`).join(', ')}`,
        ).toEqual([]);
        expect(received.some((event) => event.kind === 'SystemPromptEvent')).toBe(true);
        if (protocol === 'session') expect(delivered.filter((id) => expected.includes(id))).toEqual(expected);
      },
      120_000,
    );

    it.each(protocols)(
      '%s: killed and restarted mid-run, every persisted event once, in log order',
      async (protocol) => {
        llm.script([
          { toolCalls: [terminal('echo before-the-crash')] },
          { toolCalls: [think('after the restart')] },
          { toolCalls: [finish('done')] },
        ]);
        const requestsBefore = llm.requests.length;
        const body = startBody(server, llm);
        const info = await conversations.create({ agent: body.agent, workspace: body.workspace });
        const received: Event[] = [];
        const opened: string[] = [];
        const subscription = events.subscribe(info.id, {
          protocol,
          history: true,
          reconnect: { initialDelay: 100, maxDelay: 1000, giveUpAfter: 120_000, leaseTimeout: 120_000 },
        });
        subscription.on('open', (open) => opened.push(open.protocol));
        let reconnects = 0;
        subscription.on('reconnecting', () => {
          reconnects += 1;
        });
        const following = (async () => {
          for await (const event of subscription) {
            received.push(event);
            const observation = (event as { observation?: { kind?: string } }).observation;
            if (event.kind === 'ObservationEvent' && observation?.kind === 'FinishObservation') return;
          }
        })();
        await subscription.ready;
        await events.send(info.id, { role: 'user', content: [{ type: 'text', text: 'go' }], run: true });
        await llm.waitForRequests(requestsBefore + 1);
        llm.hold();
        try {
          await llm.waitForRequests(requestsBefore + 2);
          await server.kill();
        } finally {
          llm.release();
        }
        await server.restart();
        // A restarted server marks a run it finds on disk as errored; the run goes on only when asked.
        await conversations.run(info.id);
        await Promise.race([
          following,
          new Promise((_, reject) =>
            setTimeout(
              () => reject(new Error(`no FinishObservation within 120 s\n${server.log().slice(-2000)}`)),
              120_000,
            ),
          ),
        ]);
        subscription.close();

        expect(new Set(opened)).toEqual(new Set([protocol]));
        // It reconnected. (The reconnect's REST catch-up can deliver the FinishObservation, which ends the loop
        // and so the subscription, before that connection goes live and emits a second `open`.)
        expect(reconnects).toBeGreaterThan(0);
        // The socket can carry an event a moment before its file is written: wait for the last one on disk.
        const lastId = String(received.at(-1)?.id);
        let logOrder = persistedLogOrder(server, info.id);
        for (let i = 0; i < 50 && !logOrder.includes(lastId); i += 1) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          logOrder = persistedLogOrder(server, info.id);
        }
        const persisted = new Set(logOrder);
        const delivered = received.map((event) => String(event.id)).filter((id) => persisted.has(id));
        expect(new Set(delivered).size).toBe(delivered.length);
        const lastIndex = logOrder.indexOf(lastId);
        expect(lastIndex).toBeGreaterThan(0);
        const expected = logOrder.slice(0, lastIndex + 1);
        if (protocol === 'session') {
          // `seq` is the log index: the log order exactly.
          expect(delivered).toEqual(expected);
        } else {
          // The legacy socket orders by timestamp (REST catch-up), which can differ from the log order for
          // events stamped in the same moment, and 1.45.0's resend sends one live update before the history
          // (docs/compatibility.md A13, A14): every event exactly once.
          expect([...delivered].sort()).toEqual([...expected].sort());
        }
      },
      240_000,
    );

    // Servers before 1.18.1 end a streamed run of the fake LLM in error (the recorded corpus, docs/compatibility.md).
    it.skipIf(compareVersions(version, '1.18.1') < 0).each(protocols)(
      '%s: streamed output arrives as deltas, never as events; their text equals the final message',
      async (protocol) => {
        const text = 'Streamed answer in several words.';
        llm.script([{ text }]);
        const body = startBody(server, llm, { stream: true });
        const info = await conversations.create({ agent: body.agent, workspace: body.workspace });
        const deltas: StreamDelta[] = [];
        const received: Event[] = [];
        const subscription = events.subscribe(info.id, { protocol, history: true });
        subscription.on('delta', (delta) => deltas.push(delta));
        const following = (async () => {
          for await (const event of subscription) {
            received.push(event);
            const role = (event as { llm_message?: { role?: string } }).llm_message?.role;
            if (event.kind === 'MessageEvent' && role === 'assistant') return;
            // A failed run ends the wait; the assertions below then fail with what arrived.
            if (event.kind === 'ConversationErrorEvent') return;
          }
        })();
        await subscription.ready;
        await events.send(info.id, { role: 'user', content: [{ type: 'text', text: 'go' }], run: true });
        await following;
        subscription.close();

        expect(received.map((event) => event.kind)).not.toContain('StreamingDeltaEvent');
        const final = received.at(-1) as { llm_message: { content: { text?: string }[] } };
        expect(final.llm_message.content.map((c) => c.text ?? '').join('')).toBe(text);
        // What a user sees: per item, the text deltas of its latest attempt in order.
        const items = new Map<string, { attempt: number; parts: string[] }>();
        for (const delta of deltas) {
          if (delta.type !== 'delta' || delta.kind !== 'text') continue;
          const key = delta.itemId ?? 'legacy';
          const item = items.get(key);
          if (!item || delta.attempt > item.attempt)
            items.set(key, { attempt: delta.attempt, parts: [delta.content] });
          else if (delta.attempt === item.attempt) item.parts.push(delta.content);
        }
        // Servers that stream: StreamingDeltaEvent frames on /sockets/events from 1.18.1 (the recorded corpus);
        // item_started/delta envelopes on /sockets/session in 1.58.0 (1.45.0 sent none).
        const streams =
          protocol === 'events'
            ? compareVersions(version, '1.18.1') >= 0
            : compareVersions(version, '1.58.0') >= 0;
        if (streams) expect(deltas.length).toBeGreaterThan(0);
        if (deltas.length > 0) {
          expect([...items.values()].map((item) => item.parts.join(''))).toEqual([text]);
        }
      },
      120_000,
    );
  });
}
