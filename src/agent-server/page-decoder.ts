import type { Page } from '../core/paginate.js';
import type { DecodeResult, Decoder, LazyDecoder } from '../core/transport.js';

type Issue = { path: PropertyKey[]; message: string; code?: string };

/**
 * The agent server's pages, `{items: T[], next_page_id}` (OpenAPI `EventPage`, `ConversationPage`), decoded
 * item by item with `decodeItem`. `null` and an absent `next_page_id` both mean "last page" (newer servers
 * omit nulls). The issues of every bad item are reported, each under `items.<index>`. When an item's answer is
 * a promise (its decoder is loading zod's parsers: models/decode-event.ts), the page waits for all of them and
 * keeps the items in order.
 */
export function pageDecoder<T>(decodeItem: Decoder<T>): Decoder<Page<T>>;
export function pageDecoder<T>(decodeItem: LazyDecoder<T>): LazyDecoder<Page<T>>;
export function pageDecoder<T>(decodeItem: LazyDecoder<T>): LazyDecoder<Page<T>> {
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
    const results = record.items.map((item) => decodeItem(item));
    const nextPageId = typeof next === 'string' ? next : null;
    return results.some((result) => result instanceof Promise)
      ? Promise.all(results).then((settled) => assemble(settled, nextPageId))
      : assemble(results as DecodeResult<T>[], nextPageId);
  };
}

function assemble<T>(results: readonly DecodeResult<T>[], nextPageId: string | null): DecodeResult<Page<T>> {
  const items: T[] = [];
  const issues: Issue[] = [];
  for (const [index, result] of results.entries()) {
    if (result.success) items.push(result.data);
    else
      for (const issue of result.error.issues)
        issues.push({ ...issue, path: ['items', index, ...issue.path] });
  }
  if (issues.length > 0) return { success: false, error: { issues } };
  return { success: true, data: { items, nextPageId } };
}
