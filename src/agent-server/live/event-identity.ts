import type { Event } from '../../models/index.js';

export function idOf(event: Event): string | undefined {
  const id = (event as { id?: unknown }).id;
  return typeof id === 'string' ? id : undefined;
}

export function timestampOf(event: Event): string | undefined {
  const timestamp = (event as { timestamp?: unknown }).timestamp;
  return typeof timestamp === 'string' ? timestamp : undefined;
}

/**
 * A stable identity for an event the server sent without an id: a hash of the frame text (two 32-bit FNV-1a
 * hashes with different seeds, and the length). The same frame resent gives the same identity.
 */
export function contentId(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return `content:${(a >>> 0).toString(16)}${(b >>> 0).toString(16)}:${text.length}`;
}

/**
 * `contentId` of a value's canonical JSON (keys sorted, `null` members dropped, no `parent_id`): the identity
 * of an event without an id, the same whether it came as a frame or over REST (servers 1.31.2–1.36 drop
 * nulls and `parent_id` from frames only: docs/compatibility.md).
 */
export function canonicalContentId(value: unknown): string {
  const top = canonical(value);
  if (typeof top === 'object' && top !== null && !Array.isArray(top))
    delete (top as { parent_id?: unknown }).parent_id;
  return contentId(JSON.stringify(top));
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== null && item !== undefined) out[key] = canonical(item);
  }
  return out;
}
