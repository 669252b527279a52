import type { ConversationSnapshot, ConversationViewApi } from 'agent-platform-sdk';
import { memo, useEffect, useLayoutEffect, useRef } from 'react';
import { Item } from './item.js';

/**
 * The items, oldest first, with "Load older" at the top (a button, and on scroll: when the top comes into
 * view). Items are memoised: the view keeps an unchanged item the same object, so only changed items render.
 */
export function ItemList({
  snapshot,
  view,
}: {
  snapshot: ConversationSnapshot;
  view: ConversationViewApi | undefined;
}) {
  const list = useRef<HTMLOListElement>(null);
  const top = useRef<HTMLLIElement>(null);
  const loadOlder = () => {
    // A failed load leaves `hasOlder` as it was: the button stays for another try.
    view?.loadOlder().catch(() => {});
  };

  // Scrolled to the top: load the page before it.
  useEffect(() => {
    const sentinel = top.current;
    if (!sentinel || !view || !snapshot.hasOlder || !snapshot.ready) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) view.loadOlder().catch(() => {});
    });
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [view, snapshot.hasOlder, snapshot.ready]);

  // Keeps the reader's place: older items added above do not push the visible ones down, and new items at
  // the bottom are followed when the list was scrolled to the bottom.
  const anchor = useRef({ height: 0, atBottom: true, first: '' });
  useLayoutEffect(() => {
    const element = list.current;
    if (!element) return;
    const first = snapshot.items[0]?.id ?? '';
    const previous = anchor.current;
    if (previous.first !== '' && first !== previous.first) {
      element.scrollTop += element.scrollHeight - previous.height;
    } else if (previous.atBottom) {
      element.scrollTop = element.scrollHeight;
    }
    anchor.current = { height: element.scrollHeight, atBottom: previous.atBottom, first };
  });

  return (
    <ol
      className="items"
      ref={list}
      onScroll={(event) => {
        const element = event.currentTarget;
        anchor.current.atBottom = element.scrollHeight - element.scrollTop - element.clientHeight < 40;
        anchor.current.height = element.scrollHeight;
      }}
    >
      <li ref={top} className="older">
        {snapshot.hasOlder ? (
          <button type="button" onClick={loadOlder} disabled={snapshot.loadingOlder || !snapshot.ready}>
            {snapshot.loadingOlder ? 'Loading…' : 'Load older'}
          </button>
        ) : snapshot.ready ? (
          <span data-testid="start">Start of the conversation</span>
        ) : null}
      </li>
      {snapshot.items.map((item) => (
        <MemoItem key={item.id} item={item} view={view} />
      ))}
    </ol>
  );
}

const MemoItem = memo(Item);
