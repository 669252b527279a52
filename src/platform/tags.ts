import { RequestValidationError, type ValidationIssue } from '../core/errors.js';
import { describe, hasControlCharacters, isPlainObject } from '../core/validate.js';

/** Tag key → string value. Stays on the conversation record; never sent in LLM requests. */
export type ConversationTags = Record<string, string>;
/** For a merge: a string sets the tag, `null` removes it. */
export type ConversationTagsPatch = Record<string, string | null>;

/** Lowercase alphanumeric only (no underscores or hyphens). */
export const TAG_KEY_PATTERN = /^[a-z0-9]+$/;
/** At most 256 characters, counted as the server does (code points, not UTF-16 units). */
export const MAX_TAG_VALUE_LENGTH = 256;

/**
 * Checks a tags map. A bad map is a `RequestValidationError` whose issues name every bad key,
 * so callers fail before anything is sent. Returns a copy of the map.
 */
export function validateConversationTags(tags: unknown, field = 'tags'): ConversationTags {
  const issues = tagIssues(tags, field, false);
  if (issues.length > 0) throw new RequestValidationError(issues);
  return { ...(tags as ConversationTags) };
}

/** Like `validateConversationTags`, for a merge patch where `null` removes a tag. */
export function validateConversationTagsPatch(patch: unknown, field = 'tags'): ConversationTagsPatch {
  const issues = tagIssues(patch, field, true);
  if (issues.length > 0) throw new RequestValidationError(issues);
  return { ...(patch as ConversationTagsPatch) };
}

/**
 * Tags replace the whole map on the server, so a merge is read, merge, write: this is the
 * merge. Values of `patch` override, `null` removes.
 */
export function applyTagsPatch(current: ConversationTags, patch: ConversationTagsPatch): ConversationTags {
  const merged: ConversationTags = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

function tagIssues(tags: unknown, field: string, allowNull: boolean): ValidationIssue[] {
  // A Map (or any non-plain object) would be sent as `{}`, which wipes every tag (the PATCH replaces the map).
  if (!isPlainObject(tags)) {
    return [
      {
        path: [field],
        message: `must be a plain object mapping tag key to string value, got ${describe(tags)}`,
      },
    ];
  }
  const issues: ValidationIssue[] = [];
  for (const [key, value] of Object.entries(tags)) {
    const shown = key.length > 40 ? `${JSON.stringify(key.slice(0, 40))}…` : JSON.stringify(key);
    if (!TAG_KEY_PATTERN.test(key)) {
      issues.push({
        path: [field, key],
        message: `tag key ${shown} is invalid: keys must be lowercase alphanumeric only`,
      });
    }
    if (value === null && allowNull) continue;
    if (typeof value !== 'string') {
      issues.push({ path: [field, key], message: `tag value for ${shown} must be a string` });
    } else if (hasControlCharacters(value)) {
      issues.push({
        path: [field, key],
        message: `tag value for ${shown} must not contain control or invisible characters`,
      });
    } else if (codePoints(value) > MAX_TAG_VALUE_LENGTH) {
      issues.push({
        path: [field, key],
        message: `tag value for ${shown} exceeds ${MAX_TAG_VALUE_LENGTH} characters (${codePoints(value)})`,
      });
    }
  }
  return issues;
}

function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}
