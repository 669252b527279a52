// The chat example (examples/chat-web/, `npm run example:chat`) in headless Chromium against the simulator:
// the page from its own loopback origin, the simulated agent server from another. It opens newest first,
// loads older pages to the start (the same items as the REST history projected), shows a sent message pending
// until it is persisted, a failed send with Retry, the agent's answer and its tool call with the result.
//
// `CHAT_SCREENSHOT=docs/images/chat-example.png npx vitest run test/browser/chat-example.test.ts` also saves
// the screenshot docs/react.md shows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveChatPage } from '../../examples/chat-web/page-server.mjs';
import { projectEvents } from '../../src/agent-server/view/projection.js';
import { AgentServerClient, ConversationsClient, EventsClient } from '../../src/index.js';
import { type Simulator, startSimulator } from '../../src/testing.js';
import {
  loadOlderToStart,
  send,
  shownItems,
  untilItem,
  untilLive,
  untilStatus,
  userStates,
  watchUserMessage,
} from './chat-page-driver.js';
import { chromiumUnavailable, launchChromium } from './chromium.js';

const skipReason = chromiumUnavailable();
if (skipReason) console.warn(`Skipping the chat example in Chromium: ${skipReason}`);

describe.skipIf(skipReason !== undefined)('the chat example in headless Chromium, simulator', () => {
  let sim: Simulator;
  let page: { url: string; close(): Promise<void> };
  let conversationId: string;
  let events: EventsClient;

  beforeAll(async () => {
    sim = await startSimulator({ stepDelayMs: 2 });
    const { url, sessionApiKey } = sim.info.agentServer;
    const options = { baseUrl: url, sessionApiKey, logLevel: 'off' as const };
    events = new EventsClient(options);
    ({ id: conversationId } = await new ConversationsClient(options).create({
      agent: { llm: { model: 'scripted' } },
      workspace: { working_dir: 'w' },
    }));
    // Three turns before the page opens: more than two pages of 8 events.
    const view = new AgentServerClient(options).conversation(conversationId).view();
    try {
      await view.ready;
      for (const text of ['Run `ls`', 'Run `pwd`', 'Run `ls -la`']) {
        await view.send(text);
        await view.whenIdle({ signal: AbortSignal.timeout(30_000) });
      }
    } finally {
      view.close();
    }
    page = await serveChatPage({
      config: { agentServerUrl: url, sessionApiKey, conversationId, pageSize: 8 },
    });
  }, 60_000);

  afterAll(async () => {
    await page?.close();
    await sim?.close();
  });

  it('opens newest first, loads older to the start, sends (pending, then persisted; failed, then retried)', async () => {
    const { context, close } = await launchChromium();
    try {
      const tab = await context.newPage();
      await tab.setViewportSize({ width: 900, height: 760 });
      const errors: string[] = [];
      tab.on('pageerror', (error) => errors.push(String(error)));
      await tab.goto(page.url);
      await untilLive(tab);
      await untilStatus(tab, 'finished');

      // Newest first: the last turn's answer is shown before any older page was asked for. Waited for: live and
      // the status come from the socket, the items from the newest page, read over REST at the same time.
      await untilItem(
        tab,
        (item) => item.type === 'agent-message' && item.text.includes('ls -la'),
        "with the last turn's answer (the newest page)",
      );

      // Older pages to the start: the same items, in the same order, as the whole REST history projected.
      await loadOlderToStart(tab);
      const history = [];
      for await (const event of events.search(conversationId)) history.push(event);
      const expected = projectEvents(history).map((item) => `${item.type} ${item.id}`);
      expect((await shownItems(tab)).map((item) => `${item.type} ${item.id}`)).toEqual(expected);

      // A message: pending at once, then the persisted message (shown once), the agent's answer and its tool
      // call with the result.
      await watchUserMessage(tab, 'Run `whoami`');
      await send(tab, 'Run `whoami`');
      await untilItem(
        tab,
        (item) => item.type === 'agent-message' && item.state === 'persisted' && item.text.includes('whoami'),
        'with the answer about whoami',
      );
      await untilStatus(tab, 'finished');
      expect(await userStates(tab)).toEqual(['sending', 'persisted']);
      const afterSend = await shownItems(tab);
      expect(afterSend.filter((item) => item.text === 'Run `whoami`')).toHaveLength(1);
      const call = afterSend.find((item) => item.type === 'tool-call' && item.text.includes('$ whoami'));
      expect(call?.state).toBe('yes');
      expect(afterSend.some((item) => item.state === 'sending' || item.state === 'streaming')).toBe(false);

      // A send whose request fails: a failed bubble with Retry; Retry delivers it.
      const postEvents = `${sim.info.agentServer.url}/api/conversations/*/events`;
      await tab.route(postEvents, (route) =>
        route.request().method() === 'POST' ? route.abort('connectionrefused') : route.fallback(),
      );
      await watchUserMessage(tab, 'Run `date`');
      await send(tab, 'Run `date`');
      const failed = await untilItem(
        tab,
        (item) => item.type === 'user-message' && item.state === 'failed',
        'failed',
      );
      expect(failed.text).toContain('Retry');
      await tab.unroute(postEvents);
      await tab.click(`li[data-item-id="${failed.id}"] button`);
      await untilItem(
        tab,
        (item) => item.type === 'tool-call' && item.text.includes('$ date') && item.state === 'yes',
        'answering date',
      );
      await untilStatus(tab, 'finished');
      expect(await userStates(tab)).toEqual(['sending', 'failed', 'sending', 'persisted']);
      expect((await shownItems(tab)).filter((item) => item.text.startsWith('Run `date`'))).toHaveLength(1);
      expect(errors).toEqual([]);

      const screenshot = process.env.CHAT_SCREENSHOT;
      if (screenshot) await tab.screenshot({ path: screenshot });
    } finally {
      await close();
    }
  }, 120_000);
});
