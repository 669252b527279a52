// A tiny store with the view's contract (getSnapshot, subscribe, close) for the hooks' tests: it records who
// listens, how often it was read and whether it was closed. Shared by the Node tests and the Chromium page.
import type { ConversationSnapshot, ConversationViewApi } from '../../src/index.js';
import { CONNECTING_SNAPSHOT } from '../../src/react.js';

export class FakeView {
  readonly listeners = new Set<() => void>();
  closed = 0;
  snapshot: ConversationSnapshot;
  readonly ready = Promise.resolve();

  constructor(readonly conversationId = 'c-1') {
    this.snapshot = { ...CONNECTING_SNAPSHOT, connection: 'live', ready: true };
  }

  getSnapshot = (): ConversationSnapshot => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** One change: a new snapshot with one more item, and every listener told (synchronously). */
  push(text: string): void {
    const item = { id: `i-${this.snapshot.items.length}`, type: 'user-message' as const, events: [], text };
    this.snapshot = { ...this.snapshot, items: [...this.snapshot.items, item] };
    for (const listener of [...this.listeners]) listener();
  }

  close(): void {
    this.closed += 1;
  }

  /** The rest of the view's face, unused by the hooks. */
  asView(): ConversationViewApi {
    const unused = () => Promise.reject(new Error('not in the fake'));
    return Object.assign(this, {
      loadOlder: unused,
      send: unused,
      retry: unused,
      whenIdle: unused,
    }) as unknown as ConversationViewApi;
  }
}
