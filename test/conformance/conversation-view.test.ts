// ConversationView against the real agent servers of the matrix (docs/conversation-view.md): a conversation of
// several runs followed live through one view, each run awaited with whenIdle() (which must include the state
// update the server persists after the terminal status), then a second view opened newest first on the long
// conversation and paged back with loadOlder() to the start, compared with the REST history.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AgentServerClient,
  type ConversationSnapshot,
  ConversationsClient,
  type Event,
  EventsClient,
} from '../../src/index.js';
import { requirePeer, versionsUnderTest } from '../peers/peers.js';
import { persistedLogOrder, type RealAgentServer, startRealAgentServer } from './support/agent-server.js';
import { type FakeLlm, finish, startFakeLlm, terminal, think } from './support/fake-llm.js';
import { compareVersions } from './support/record.js';
import { startBody } from './support/scenarios.js';

const RUNS = 5;

for (const { version } of versionsUnderTest('agent-server')) {
  const venv = requirePeer('agent-server', version);

  describe.skipIf(venv === undefined)(`real agent server ${version}: ConversationView`, () => {
    let server: RealAgentServer;
    let llm: FakeLlm;
    let client: AgentServerClient;
    let events: EventsClient;
    let conversationId: string;

    beforeAll(async () => {
      llm = await startFakeLlm();
      server = await startRealAgentServer(venv as string, version);
      const options = { baseUrl: server.url, sessionApiKey: server.sessionApiKey, logLevel: 'off' as const };
      client = new AgentServerClient(options);
      events = new EventsClient(options);
      const body = startBody(server, llm);
      const info = await new ConversationsClient(options).create({
        agent: body.agent,
        workspace: body.workspace,
      });
      conversationId = info.id;
    }, 120_000);

    afterAll(async () => {
      await server?.close();
      await llm?.close();
    });

    async function history(): Promise<Event[]> {
      const all: Event[] = [];
      for await (const event of events.search(conversationId)) all.push(event);
      return all;
    }

    /** Every persisted event but the state updates is in exactly one item, items in the history's order. */
    function expectShowsHistory(snapshot: ConversationSnapshot, rest: readonly Event[]) {
      const shown = snapshot.items.flatMap((item) => item.events.map((event) => String(event.id)));
      const expected = rest
        .filter((event) => event.kind !== 'ConversationStateUpdateEvent')
        .map((event) => String(event.id));
      expect(new Set(shown).size, 'an event shown twice').toBe(shown.length);
      expect([...shown].sort()).toEqual([...expected].sort());
      const index = new Map(expected.map((id, i) => [id, i]));
      const firsts = snapshot.items.map((item) => index.get(String(item.events[0]?.id)) ?? -1);
      expect(firsts).toEqual([...firsts].sort((a, b) => a - b));
      expect(snapshot.items.every((item) => item.pending === undefined && item.streaming === undefined)).toBe(
        true,
      );
    }

    it(
      `follows ${RUNS} runs live; whenIdle() resolves with the run's last persisted event in the snapshot`,
      async () => {
        // From 1.58.2 (measured) the server stores a `stats` update after `finished`: whenIdle() must resolve by
        // it, so the quiet fallback is put out of reach (a miss fails the test by its timeout, never by speed).
        const trailingStats = compareVersions(version, '1.58.2') >= 0;
        const view = client.conversation(conversationId).view(trailingStats ? { idleQuiet: 3_600_000 } : {});
        try {
          await view.ready;
          expect(view.getSnapshot().connection).toBe('live');
          for (let run = 1; run <= RUNS; run++) {
            llm.script([
              { toolCalls: [terminal(`echo run-${run}`)] },
              { toolCalls: [think(`thinking ${run}`)] },
              { toolCalls: [finish(`done ${run}`)] },
            ]);
            await view.send(`run ${run}`);
            const idle = await view.whenIdle({ signal: AbortSignal.timeout(90_000) });
            expect(idle.status).toBe('finished');
            const rest = await history();
            expectShowsHistory(idle, rest);
            // The last event the server stored (on 1.58 the `stats` update stored after `finished`) is reflected:
            // an item shows it, or, for a state update, the snapshot's state holds its value. "Last" is the log
            // order on disk, not REST's timestamp order: 1.44.1 stamps that update before `finished` (A33).
            const lastStored = persistedLogOrder(server, conversationId).at(-1);
            const newest = rest.find((event) => event.id === lastStored) as Event & {
              key?: string;
              value?: unknown;
            };
            expect(newest, `run ${run}: the last stored event is in the REST history`).toBeDefined();
            if (newest.kind === 'ConversationStateUpdateEvent' && newest.key && newest.key !== 'full_state') {
              expect(idle.state?.[newest.key], `run ${run}: ${newest.key}`).toEqual(newest.value);
            } else {
              expect(idle.items.some((item) => item.events.some((event) => event.id === newest.id))).toBe(
                true,
              );
            }
            const messages = idle.items.filter((item) => item.type === 'user-message');
            expect(messages.at(-1)?.text).toBe(`run ${run}`);
            expect(idle.items.filter((item) => item.type === 'tool-call').at(-1)?.events).toHaveLength(2);
          }
        } finally {
          view.close();
        }
      },
      RUNS * 120_000,
    );

    // Servers before 1.18.1 end a streamed run of the fake LLM in error (docs/compatibility.md).
    it.skipIf(compareVersions(version, '1.18.1') < 0)(
      'streamed text: shown while it streams, replaced by the persisted message, nothing left after',
      async () => {
        const text = 'Streamed answer in several words.';
        llm.script([{ text }]);
        const body = startBody(server, llm, { stream: true });
        const options = {
          baseUrl: server.url,
          sessionApiKey: server.sessionApiKey,
          logLevel: 'off' as const,
        };
        const info = await new ConversationsClient(options).create({
          agent: body.agent,
          workspace: body.workspace,
        });
        const view = client.conversation(info.id).view();
        const streamed: string[] = [];
        view.subscribe(() => {
          const item = view.getSnapshot().items.find((candidate) => candidate.streaming);
          if (item?.text) streamed.push(item.text);
        });
        try {
          await view.ready;
          await view.send('go');
          const idle = await view.whenIdle({ signal: AbortSignal.timeout(90_000) });
          expect(idle.items.some((item) => item.streaming)).toBe(false);
          const answer = idle.items.findLast((item) => item.type === 'agent-message');
          expect(answer?.text).toBe(text);
          expect(answer?.events).toHaveLength(1);
          // Whatever was shown while it streamed was the start of the final text (how much shows depends on
          // how the deltas and the message fall into bursts).
          for (const shown of streamed) expect(text.startsWith(shown)).toBe(true);
        } finally {
          view.close();
        }
      },
      120_000,
    );

    it('opens the long conversation newest first; loadOlder() to the start equals the REST history', async () => {
      const rest = await history();
      expect(rest.length).toBeGreaterThan(RUNS * 8);
      const view = client.conversation(conversationId).view({ pageSize: 7 });
      try {
        await view.ready;
        const first = view.getSnapshot();
        expect(first.hasOlder).toBe(true);
        // Only the newest page: the items show at most 7 events.
        expect(first.items.flatMap((item) => item.events).length).toBeLessThanOrEqual(7);
        let loads = 0;
        while (await view.loadOlder()) loads++;
        expect(loads).toBeGreaterThan(3);
        const all = view.getSnapshot();
        expectShowsHistory(all, rest);
        // Items the older pages did not touch are the same objects.
        const last = first.items.at(-1);
        expect(all.items.at(-1)).toBe(last);
        expect(all.status).toBe('finished');
      } finally {
        view.close();
      }
    }, 120_000);
  });
}
