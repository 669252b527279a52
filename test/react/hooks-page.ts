// Runs inside Chromium (a real DOM, React in development mode, so StrictMode runs every effect twice): the
// hooks over fake views. Reports what it saw on `window.__result` for test/react/hooks-in-chromium.test.ts.
import { createElement, StrictMode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import type { ConversationSnapshot } from '../../src/index.js';
import { useConversation, useConversationView } from '../../src/react.js';
import { FakeView } from './fake-view.js';

declare global {
  interface Window {
    __result?: Record<string, unknown>;
  }
}

let renders = 0;

function List({ view }: { view: FakeView }) {
  const snapshot = useConversationView<ConversationSnapshot>(view);
  renders += 1;
  return createElement(
    'ul',
    null,
    snapshot.items.map((item) => createElement('li', { key: item.id }, item.text)),
  );
}

function Opened({ client, id }: { client: FakeClient; id: string }) {
  const { snapshot } = useConversation(client, id);
  renders += 1;
  return createElement('p', { id: 'opened' }, `${snapshot.connection}:${snapshot.items.length}`);
}

class FakeClient {
  readonly opened: FakeView[] = [];
  conversation(id: string) {
    return {
      view: () => {
        const view = new FakeView(id);
        this.opened.push(view);
        return view.asView();
      },
    };
  }
}

const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

async function burst(): Promise<Record<string, unknown>> {
  const view = new FakeView();
  const root = createRoot(document.createElement('div'));
  flushSync(() => root.render(createElement(StrictMode, null, createElement(List, { view }))));
  await frame();
  const before = renders;
  // 100 changes in one task, each notifying synchronously: one render.
  for (let i = 0; i < 100; i++) view.push(`m${i}`);
  await frame();
  const afterBurst = renders - before;
  const listenersMounted = view.listeners.size;
  root.unmount();
  return { afterBurst, listenersMounted, listenersAfterUnmount: view.listeners.size };
}

async function opening(): Promise<Record<string, unknown>> {
  const client = new FakeClient();
  const container = document.createElement('div');
  const root = createRoot(container);
  flushSync(() => root.render(createElement(StrictMode, null, createElement(Opened, { client, id: 'c-1' }))));
  await frame();
  const shown = container.textContent;
  const openedInStrictMode = client.opened.length;
  const closedInStrictMode = client.opened.map((view) => view.closed);
  const first = client.opened[0]!;
  first.push('hello');
  await frame();
  const shownAfterPush = container.textContent;
  // Another conversation: the first view closes, a second one opens.
  flushSync(() => root.render(createElement(StrictMode, null, createElement(Opened, { client, id: 'c-2' }))));
  await frame();
  const afterSwitch = client.opened.map((view) => ({ id: view.conversationId, closed: view.closed }));
  const shownAfterSwitch = container.textContent;
  root.unmount();
  await frame();
  return {
    shown,
    openedInStrictMode,
    closedInStrictMode,
    shownAfterPush,
    afterSwitch,
    shownAfterSwitch,
    afterUnmount: client.opened.map((view) => ({
      id: view.conversationId,
      closed: view.closed,
      listeners: view.listeners.size,
    })),
  };
}

async function main(): Promise<Record<string, unknown>> {
  return { burst: await burst(), opening: await opening() };
}

main().then(
  (result) => {
    window.__result = { ok: true, ...result };
  },
  (error: unknown) => {
    window.__result = { ok: false, error: String((error as Error)?.stack ?? error) };
  },
);
