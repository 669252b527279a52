import type { ConversationStateMirror, ExecutionStatus } from '../../models/index.js';
import type { ConversationItem, ConversationSnapshot, ViewConnection } from './types.js';

/** What a snapshot is made of. */
export interface SnapshotParts {
  persisted: readonly ConversationItem[];
  streamed: ConversationItem | undefined;
  pending: readonly ConversationItem[];
  hasOlder: boolean;
  loadingOlder: boolean;
  ready: boolean;
  connection: ViewConnection;
  error: Error | undefined;
  state: ConversationStateMirror | undefined;
}

/**
 * Builds the view's immutable snapshots. The items array is built again only when one of its parts changed,
 * so an unchanged snapshot keeps its `items` (`===`) and `same()` can tell the view not to notify.
 */
export class SnapshotBuilder {
  #last: { parts: SnapshotParts; items: readonly ConversationItem[] } | undefined;

  build(parts: SnapshotParts): ConversationSnapshot {
    const { persisted, streamed, pending, state } = parts;
    let items: readonly ConversationItem[] = persisted;
    if (streamed !== undefined || pending.length > 0) {
      const last = this.#last?.parts;
      const same =
        last !== undefined &&
        last.persisted === persisted &&
        last.streamed === streamed &&
        last.pending === pending;
      items =
        same && this.#last !== undefined
          ? this.#last.items
          : Object.freeze([...persisted, ...(streamed ? [streamed] : []), ...pending]);
    }
    this.#last = { parts, items };
    return Object.freeze({
      items,
      hasOlder: parts.hasOlder,
      loadingOlder: parts.loadingOlder,
      ready: parts.ready,
      status: state?.execution_status as ExecutionStatus | undefined,
      connection: parts.connection,
      ...(parts.error ? { error: parts.error } : {}),
      state,
    });
  }
}

/** True when nothing a screen shows differs between the two. */
export function sameSnapshot(a: ConversationSnapshot, b: ConversationSnapshot): boolean {
  return (
    a.items === b.items &&
    a.hasOlder === b.hasOlder &&
    a.loadingOlder === b.loadingOlder &&
    a.ready === b.ready &&
    a.status === b.status &&
    a.connection === b.connection &&
    a.error === b.error &&
    a.state === b.state
  );
}
