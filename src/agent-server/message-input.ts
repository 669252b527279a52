import { describe } from '../core/validate.js';
import { invalid } from './invalid.js';

/** TextContent `{type:"text", text}`. */
export interface TextContentInput {
  type?: 'text';
  text: string;
  cache_prompt?: boolean;
}

/** ImageContent `{type:"image", image_urls}` (http(s) or `data:` URLs). */
export interface ImageContentInput {
  type?: 'image';
  image_urls: string[];
  cache_prompt?: boolean;
}

export type MessageRole = 'user' | 'system' | 'assistant' | 'tool';

/**
 * A message to send (OpenAPI `SendMessageRequest`): a plain string is one user text; `content` may be a string
 * too. `run` (REST only, default false) starts the agent loop if it is not running.
 */
export type MessageInput =
  | string
  | {
      role?: MessageRole;
      content: string | (TextContentInput | ImageContentInput)[];
      run?: boolean;
    };

/** The wire shape `{role, content: [...]}` (+ `run` for REST). */
export interface WireMessage {
  role: MessageRole;
  content: (
    | { type: 'text'; text: string; cache_prompt?: boolean }
    | { type: 'image'; image_urls: string[] }
  )[];
  run?: boolean;
}

const ROLES: readonly string[] = ['user', 'system', 'assistant', 'tool'];

/** Validates and normalises a message; RequestValidationError names the bad field. */
export function toWireMessage(input: MessageInput, field = 'message'): WireMessage {
  if (typeof input === 'string') return { role: 'user', content: [textItem(input, field)] };
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw invalid(field, `must be a string or an object, got ${describe(input)}`);
  }
  const role = input.role ?? 'user';
  if (!ROLES.includes(role)) {
    throw invalid(`${field}.role`, `must be one of ${ROLES.join(', ')}, got ${describe(role)}`);
  }
  if (input.run !== undefined && typeof input.run !== 'boolean') {
    throw invalid(`${field}.run`, `must be a boolean, got ${describe(input.run)}`);
  }
  const content = typeof input.content === 'string' ? [input.content] : input.content;
  if (!Array.isArray(content) || content.length === 0) {
    throw invalid(
      `${field}.content`,
      `must be a non-empty string or array of content, got ${describe(input.content)}`,
    );
  }
  const items = content.map((item, index) => contentItem(item, `${field}.content.${index}`));
  return {
    role: role as MessageRole,
    content: items,
    ...(input.run === undefined ? {} : { run: input.run }),
  };
}

function contentItem(item: unknown, field: string): WireMessage['content'][number] {
  if (typeof item === 'string') return textItem(item, field);
  if (typeof item !== 'object' || item === null) {
    throw invalid(field, `must be a TextContent or ImageContent, got ${describe(item)}`);
  }
  const record = item as Record<string, unknown>;
  if (record.type === 'image' || (record.type === undefined && 'image_urls' in record)) {
    const urls = record.image_urls;
    if (
      !Array.isArray(urls) ||
      urls.length === 0 ||
      urls.some((url) => typeof url !== 'string' || url === '')
    ) {
      throw invalid(`${field}.image_urls`, `must be a non-empty array of URLs, got ${describe(urls)}`);
    }
    return { ...record, type: 'image', image_urls: urls as string[] };
  }
  if (record.type !== undefined && record.type !== 'text') {
    throw invalid(`${field}.type`, `must be "text" or "image", got ${describe(record.type)}`);
  }
  if (typeof record.text !== 'string') {
    throw invalid(`${field}.text`, `must be a string, got ${describe(record.text)}`);
  }
  return { ...record, type: 'text', text: record.text };
}

function textItem(text: string, field: string): { type: 'text'; text: string } {
  if (text.trim() === '') throw invalid(field, 'must not be empty');
  return { type: 'text', text };
}
