import { isResponseValidationError } from '../core/errors.js';
import type { Page } from '../core/paginate.js';
import type { Decoder } from '../core/transport.js';
import { type ConversationState, parseConversationState } from '../models/index.js';
import { checkFields, type FieldCheck } from './field-checks.js';
import { pageDecoder } from './page-decoder.js';

/**
 * OpenAPI `ConversationInfo`: the ConversationState fields plus `title`, `metrics` and the
 * UTC `created_at`/`updated_at`. Unknown fields of newer servers are kept.
 */
export type ConversationInfo = ConversationState & {
  title?: string | null;
  metrics?: Record<string, unknown> | null;
  created_at?: string;
  updated_at?: string;
};

/** The fields ConversationInfo adds to ConversationState. */
const INFO_FIELDS: Record<string, FieldCheck> = {
  title: 'string?',
  metrics: 'object?',
  created_at: 'string?',
  updated_at: 'string?',
};

/** The state fields through the event model's schema (lenient: `null` counts as absent), then the extras. */
export const decodeConversationInfo: Decoder<ConversationInfo> = (input) => {
  let state: ConversationState;
  try {
    state = parseConversationState(input, { mode: 'lenient' });
  } catch (error) {
    if (isResponseValidationError(error)) return { success: false, error };
    throw error;
  }
  const extra = checkFields<Record<string, unknown>>(input, INFO_FIELDS);
  if (!extra.success) return extra;
  const { title, metrics, created_at, updated_at } = extra.data;
  return {
    success: true,
    data: { ...state, ...definedOnly({ title, metrics, created_at, updated_at }) } as ConversationInfo,
  };
};

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as Partial<T>;
}

/** OpenAPI `ConversationPage {items: ConversationInfo[], next_page_id}`. */
export const decodeConversationPage: Decoder<Page<ConversationInfo>> = pageDecoder(decodeConversationInfo);

/** The conversation search's `next_page_id` is the 32-hex form of the id. */
export function comparableConversationId(id: string): string {
  return id.replaceAll('-', '').toLowerCase();
}
