import type { Page } from '../core/paginate.js';
import type { Decoder } from '../core/transport.js';

type Issue = { path: PropertyKey[]; message: string; code?: string };

/**
 * The agent server's pages, `{items: T[], next_page_id}` (OpenAPI `EventPage`, `ConversationPage`), decoded
 * item by item with `decodeItem`. `null` and an absent `next_page_id` both mean "last page" (newer servers
 * omit nulls). The issues of every bad item are reported, each under `items.<index>`.
 */
export function pageDecoder<T>(decodeItem: Decoder<T>): Decoder<Page<T>> {
  return (input) => {
    const record = input as { items?: unknown; next_page_id?: unknown } | null;
    if (typeof record !== 'object' || record === null || !Array.isArray(record.items)) {
      return { success: false, error: { issues: [{ path: ['items'], message: 'expected an array' }] } };
    }
    const next = record.next_page_id;
    if (next !== undefined && next !== null && typeof next !== 'string') {
      return {
        success: false,
        error: { issues: [{ path: ['next_page_id'], message: 'expected a string or null' }] },
      };
    }
    const items: T[] = [];
    const issues: Issue[] = [];
    for (const [index, item] of record.items.entries()) {
      const result = decodeItem(item);
      if (result.success) items.push(result.data);
      else
        for (const issue of result.error.issues)
          issues.push({ ...issue, path: ['items', index, ...issue.path] });
    }
    if (issues.length > 0) return { success: false, error: { issues } };
    return { success: true, data: { items, nextPageId: typeof next === 'string' ? next : null } };
  };
}
