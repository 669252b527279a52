// Server rendering: react-dom/server runs no effects, so `useConversation` opens no view and shows the
// connecting snapshot; `useConversationView` reads the view's snapshot through getServerSnapshot.
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ConversationSnapshot, ConversationViewApi } from '../../src/index.js';
import {
  CONNECTING_SNAPSHOT,
  type ConversationViewClient,
  type ConversationViewSource,
  useConversation,
  useConversationView,
  type ViewStore,
} from '../../src/react.js';
import { FakeView } from './fake-view.js';

function describeSnapshot(snapshot: ConversationSnapshot): string {
  return `${snapshot.connection}:${snapshot.items.map((item) => item.text).join(',')}`;
}

function Shown({ view }: { view: ViewStore<ConversationSnapshot> | undefined }) {
  return createElement('p', null, describeSnapshot(useConversationView(view)));
}

function FromClient({ client }: { client: ConversationViewClient<ConversationViewApi, unknown> }) {
  const { view, snapshot } = useConversation(client, 'c-1');
  return createElement('p', null, `${view === undefined}:${describeSnapshot(snapshot)}`);
}

function FromHandle({
  handle,
}: {
  handle: ConversationViewSource<ConversationViewApi, { pageSize?: number }>;
}) {
  const { snapshot } = useConversation(handle, { pageSize: 20 });
  return createElement('p', null, describeSnapshot(snapshot));
}

describe('server rendering', () => {
  it('useConversationView renders the view’s snapshot and subscribes to nothing', () => {
    const view = new FakeView();
    view.push('hello');
    view.push('world');
    expect(renderToString(createElement(Shown, { view }))).toBe('<p>live:hello,world</p>');
    expect(view.listeners.size).toBe(0);
  });

  it('useConversationView without a view renders the connecting snapshot, a ConversationSnapshot', () => {
    // Compile-time: the connecting snapshot is a snapshot of the root entry's type (the hooks hand it out as one).
    const asSnapshot: ConversationSnapshot = CONNECTING_SNAPSHOT;
    expect(asSnapshot.items).toEqual([]);
    expect(renderToString(createElement(Shown, { view: undefined }))).toBe('<p>connecting:</p>');
    expect(Object.isFrozen(CONNECTING_SNAPSHOT)).toBe(true);
  });

  it('useConversation opens no view on the server, from a client or a handle', () => {
    let opened = 0;
    const handle = {
      id: 'c-1',
      view: () => {
        opened += 1;
        return new FakeView().asView();
      },
    };
    const client = { conversation: () => handle };
    expect(renderToString(createElement(FromClient, { client }))).toBe('<p>true:connecting:</p>');
    expect(renderToString(createElement(FromHandle, { handle }))).toBe('<p>connecting:</p>');
    expect(opened).toBe(0);
  });
});
