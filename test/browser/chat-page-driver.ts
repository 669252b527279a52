// Drives the chat example (examples/chat-web/) in Chromium as a person would: waits for it to be live, types
// and sends, clicks Retry and "Load older", and reads what the page shows (its items, by the data attributes
// item.tsx writes). Shared by the simulator test (test/browser/chat-example.test.ts) and the real server's
// (test/conformance/chat-web.test.ts).
import type { Page } from 'playwright-core';

export interface ShownItem {
  id: string;
  type: string;
  /** `sending`, `failed`, `streaming` or `persisted` (messages); `yes`/`no`: answered (tool calls). */
  state: string;
  text: string;
}

declare global {
  interface Window {
    /** Every `data-state` a user message with the watched text showed, in order (see watchUserMessage). */
    __userStates?: string[];
  }
}

const BOUND = { timeout: 60_000, polling: 50 } as const;

export function shownItems(page: Page): Promise<ShownItem[]> {
  return page.$$eval('li[data-item-id]', (elements) =>
    elements.map((element) => ({
      id: element.getAttribute('data-item-id') ?? '',
      type: element.getAttribute('data-item-type') ?? '',
      state: element.getAttribute('data-state') ?? element.getAttribute('data-answered') ?? '',
      text: element.textContent ?? '',
    })),
  );
}

/** A wait that failed says what the page showed: the status bar and the items. */
async function explained<T>(page: Page, what: string, wait: Promise<T>): Promise<T> {
  try {
    return await wait;
  } catch (error) {
    const bar = await page.textContent('header.status-bar').catch(() => null);
    const items = await shownItems(page).catch(() => []);
    throw new Error(
      `${what}: ${String(error)}\nstatus bar: ${bar}\nitems: ${JSON.stringify(items, null, 1)}`,
    );
  }
}

export async function untilLive(page: Page): Promise<void> {
  await explained(
    page,
    'never live',
    page.waitForFunction(
      () => document.querySelector('[data-testid=connection]')?.textContent === 'live',
      undefined,
      BOUND,
    ),
  );
}

export async function untilStatus(page: Page, status: string): Promise<void> {
  await explained(
    page,
    `never ${status}`,
    page.waitForFunction(
      (wanted) => document.querySelector('[data-testid=status]')?.textContent === wanted,
      status,
      BOUND,
    ),
  );
}

/**
 * Records every state the bubble of a user message with `text` goes through, from now on (a
 * MutationObserver in the page: a state shown for one frame is recorded too).
 */
export async function watchUserMessage(page: Page, text: string): Promise<void> {
  await page.evaluate((wanted) => {
    const states: string[] = [];
    window.__userStates = states;
    const record = () => {
      for (const element of document.querySelectorAll('li[data-item-type=user-message]')) {
        if (element.querySelector('.text')?.textContent !== wanted) continue;
        const state = element.getAttribute('data-state') ?? '';
        if (states.at(-1) !== state) states.push(state);
      }
    };
    new MutationObserver(record).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
  }, text);
}

export function userStates(page: Page): Promise<string[]> {
  return page.evaluate(() => window.__userStates ?? []);
}

export async function send(page: Page, text: string): Promise<void> {
  await page.fill('textarea[aria-label=Message]', text);
  await page.click('form.composer button[type=submit]');
}

/** Waits until some shown item satisfies `predicate` (evaluated in the test, polling the page). */
export async function untilItem(
  page: Page,
  predicate: (item: ShownItem) => boolean,
  what: string,
): Promise<ShownItem> {
  const deadline = Date.now() + BOUND.timeout;
  for (;;) {
    const found = (await shownItems(page)).find(predicate);
    if (found) return found;
    if (Date.now() > deadline) {
      throw new Error(`no item ${what} on the page: ${JSON.stringify(await shownItems(page), null, 1)}`);
    }
    await page.waitForTimeout(50);
  }
}

/** Clicks "Load older" (or lets the scroll trigger load) until the page shows the start of the conversation. */
export async function loadOlderToStart(page: Page): Promise<void> {
  await explained(page, 'never at the start', loadingOlder(page));
}

function loadingOlder(page: Page) {
  return page.waitForFunction(
    () => {
      if (document.querySelector('[data-testid=start]')) return true;
      const button = document.querySelector<HTMLButtonElement>('.older button');
      if (button && !button.disabled) button.click();
      return false;
    },
    undefined,
    { timeout: 60_000, polling: 100 },
  );
}
