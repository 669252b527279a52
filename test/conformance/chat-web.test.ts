// The chat example (examples/chat-web/) in headless Chromium against the real agent server, the newest and the
// oldest version of the run: the page is served from another loopback origin (localhost:<port> while the server is
// 127.0.0.1:<port>), as a real app is; the real server allows loopback origins by default. It opens a finished
// conversation newest first, loads older pages to the start (the REST history projected), then a message sent
// from the page goes from pending to persisted, and the agent's answer and its tool call with the result show.
// test/browser/chat-example.test.ts does the same against the simulator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveChatPage } from '../../examples/chat-web/page-server.mjs';
import { projectEvents } from '../../src/agent-server/view/projection.js';
import { ConversationsClient, type Event, EventsClient } from '../../src/index.js';
import {
  loadOlderToStart,
  type ShownItem,
  send,
  shownItems,
  untilItem,
  untilLive,
  untilStatus,
  userStates,
  watchUserMessage,
} from '../browser/chat-page-driver.js';
import { chromiumUnavailable, launchChromium } from '../browser/chromium.js';
import { requirePeer, versionsUnderTest } from '../peers/peers.js';
import { type RealAgentServer, startRealAgentServer } from './support/agent-server.js';
import { type FakeLlm, startFakeLlm, terminal } from './support/fake-llm.js';
import { startBody } from './support/scenarios.js';

// The matrix lists the newest version first: the newest of the run (/sockets/session) and the oldest (the events
// socket only), as test/conformance/cli-follow.test.ts.
const all = versionsUnderTest('agent-server');
const versions = [...new Set([all[0], all.at(-1)].filter((entry) => entry !== undefined))];
const noChromium = chromiumUnavailable();
if (noChromium) console.log(`chat-web: skipped, ${noChromium}`);

for (const entry of versions) {
  const venv = requirePeer('agent-server', entry.version);
  describe.skipIf(venv === undefined || noChromium !== undefined)(
    `the chat example in Chromium, real agent server ${entry.version}`,
    () => {
      let server: RealAgentServer;
      let llm: FakeLlm;
      let conversations: ConversationsClient;
      let events: EventsClient;

      beforeAll(async () => {
        llm = await startFakeLlm();
        server = await startRealAgentServer(venv as string, entry.version);
        const options = {
          baseUrl: server.url,
          sessionApiKey: server.sessionApiKey,
          logLevel: 'off' as const,
        };
        conversations = new ConversationsClient(options);
        events = new EventsClient(options);
      }, 120_000);

      afterAll(async () => {
        await server?.close();
        await llm?.close();
      });

      /** The REST history, oldest first. */
      async function history(id: string): Promise<Event[]> {
        const found: Event[] = [];
        for await (const event of events.search(id)) found.push(event);
        return found;
      }

      /** Until the event count stops changing for 1.5 s (the server persists statistics after `finished`). */
      async function quiet(id: string): Promise<void> {
        let count = -1;
        for (let next = await events.count(id); next !== count; next = await events.count(id)) {
          count = next;
          await new Promise((resolve) => setTimeout(resolve, 1_500));
        }
      }

      /** The text of an observation's content, as the example shows it (examples/chat-web/event-text.ts). */
      const observationText = (event: Event | undefined): string => {
        const content = (event as { observation?: { content?: unknown } } | undefined)?.observation?.content;
        if (typeof content === 'string') return content.trim();
        if (!Array.isArray(content))
          throw new Error(`not an observation with content: ${JSON.stringify(event)}`);
        return content
          .map((part: { text?: unknown }) => (typeof part.text === 'string' ? part.text : ''))
          .join('')
          .trim();
      };

      const described = (items: readonly { type: string; id: string }[]) =>
        items.map((item) => `${item.type} ${item.id}`);

      /** What the page shows equals the REST history projected (polled: the page follows the log live). */
      async function untilPageShowsHistory(tab: import('playwright-core').Page, id: string): Promise<void> {
        let shown: ShownItem[] = [];
        let expected: string[] = [];
        for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
          expected = described(projectEvents(await history(id)));
          shown = await shownItems(tab);
          if (JSON.stringify(described(shown)) === JSON.stringify(expected)) return;
          await tab.waitForTimeout(250);
        }
        expect(described(shown)).toEqual(expected);
      }

      it('newest first, older pages to the start, a message from the page answered with a tool call', async () => {
        llm.script([{ toolCalls: [terminal('echo first-turn')] }, { text: 'The first turn is done.' }]);
        const body = startBody(server, llm, { text: 'Run echo first-turn' });
        const { id } = await conversations.create(body);
        await conversations.waitUntil(id, 'finished', { timeout: 90_000 });
        await quiet(id);

        const page = await serveChatPage({
          config: {
            agentServerUrl: server.url,
            sessionApiKey: server.sessionApiKey,
            conversationId: id,
            pageSize: 4,
          },
          host: '127.0.0.1',
        });
        // Another loopback origin than the server's (127.0.0.1:<server port>): a cross-origin page.
        const pageUrl = page.url.replace('127.0.0.1', 'localhost');
        const { context, close } = await launchChromium();
        try {
          const tab = await context.newPage();
          const errors: string[] = [];
          tab.on('pageerror', (error) => errors.push(String(error)));
          await tab.goto(pageUrl);
          await untilLive(tab);
          await untilStatus(tab, 'finished');
          // Newest first: the last turn's answer shows. Waited for: live and the status come from the socket,
          // the items from the newest page, read over REST at the same time; either may come first.
          await untilItem(
            tab,
            (item) => item.type === 'agent-message' && item.text.includes('first turn'),
            "with the first turn's answer (the newest page)",
          );

          await loadOlderToStart(tab);
          expect(described(await shownItems(tab))).toEqual(described(projectEvents(await history(id))));

          llm.script([
            { toolCalls: [terminal('echo from-the-page')] },
            { text: 'The page asked; it is done.' },
          ]);
          await watchUserMessage(tab, 'Run echo from-the-page');
          await send(tab, 'Run echo from-the-page');
          await untilItem(
            tab,
            (item) => item.type === 'agent-message' && item.text.includes('The page asked'),
            'with the answer to the page',
          );
          await untilStatus(tab, 'finished');
          const shown = await shownItems(tab);
          const call = shown.find(
            (item) => item.type === 'tool-call' && item.text.includes('echo from-the-page'),
          );
          expect(call?.state).toBe('yes');
          expect(call?.text).toContain('terminal: $ echo from-the-page');
          // The page shows the output the server stored. That is not always the echo's: 1.11.4's terminal now
          // and then captures none of it, only the shell's bracketed-paste codes (`\e[?2004l\e[?2004h`, CI
          // rehearsal of 2026-12-02; docs/compatibility.md A43).
          const stored = projectEvents(await history(id)).find((item) => item.id === call?.id);
          expect(call?.text).toContain(observationText(stored?.events[1]));
          expect(shown.filter((item) => item.text === 'Run echo from-the-page')).toHaveLength(1);
          expect(await userStates(tab)).toEqual(['sending', 'persisted']);

          await quiet(id);
          await untilPageShowsHistory(tab, id);
          expect(errors).toEqual([]);
        } finally {
          await close();
          await page.close();
        }
      }, 240_000);
    },
  );
}
