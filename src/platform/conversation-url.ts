import { RequestValidationError } from '../core/errors.js';
import { isDotSegment } from '../core/path-segment.js';
import { hasControlCharacters } from '../core/validate.js';

/** After the scheme and the host, up to a query or fragment (which are refused on their own). */
const RAW_PATH = /^[a-z][a-z0-9+.-]*:[\\/]*[^\\/?#]*([^?#]*)/i;

/**
 * Tags are PATCHed to the conversation URL itself, which the platform returns (the
 * agent server's `/api/conversations/<id>` on the sandbox host). Split into origin and path for a transport.
 */
export function splitConversationUrl(value: unknown): { origin: string; path: string } {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new RequestValidationError('must be the conversation URL given by the platform', 'conversationUrl');
  }
  // The URL parser drops tabs and newlines silently; refuse them (and other invisible characters) instead.
  if (hasControlCharacters(value)) {
    throw new RequestValidationError('must not contain control or invisible characters', 'conversationUrl');
  }
  // The URL parser resolves dot segments before we see the path (`…/conversations/..` becomes `/api`), and the
  // servers decode `%2F` back to `/`: look at the path as written (`\` separates segments in http URLs too).
  const rawSegments = (RAW_PATH.exec(value)?.[1] ?? '').split(/[\\/]/);
  if (rawSegments.some(isDotSegment)) {
    throw new RequestValidationError('must not contain "." or ".." path segments', 'conversationUrl');
  }
  if (rawSegments.some((segment) => /%(2f|5c)/i.test(segment))) {
    throw new RequestValidationError('must not contain an encoded "/" or "\\"', 'conversationUrl');
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new RequestValidationError('must be an absolute http(s) URL', 'conversationUrl');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new RequestValidationError('must use http or https', 'conversationUrl');
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new RequestValidationError('must not carry credentials, a query or a fragment', 'conversationUrl');
  }
  const path = url.pathname.replace(/^\/+/, '').replace(/\/+$/, '');
  if (path === '') throw new RequestValidationError('has no path to a conversation', 'conversationUrl');
  return { origin: url.origin, path };
}
