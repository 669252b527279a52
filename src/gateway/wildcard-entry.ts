import { RequestValidationError } from '../core/errors.js';
import { checkApiBase } from './api-base.js';
import { type GatewayApiKey, resolveApiKey } from './api-key.js';
import type { GatewayConfigNote, NoteSink } from './config-note.js';
import { COMPAT_PREFIX } from './kinds.js';
import type { GatewayModelEntry } from './model-entry.js';

export interface WildcardEntryInput {
  /** Base URL of the OpenAI-compatible gateway (`/v1` is added when missing). */
  apiBase: string;
  apiKey: GatewayApiKey;
  allowPlainHttp?: boolean;
}

/** The effects of Pattern B, each reported as a warning whenever a wildcard entry is built. */
export const PATTERN_B_WARNINGS: readonly GatewayConfigNote[] = [
  {
    level: 'warning',
    code: 'pattern-b-not-recommended',
    message: 'Pattern B (wildcard) is not recommended; prefer explicit per-model entries (Pattern A)',
  },
  {
    level: 'warning',
    code: 'pattern-b-model-list-size',
    message:
      'the model list will return 200 or more entries: the configured ones, the built-in registry of the compatible family (as compat/<model> up to gateway 1.108, sent upstream with their provider prefix; as bare names from 1.110), most of which do not exist upstream, and a literal "*" on some gateway versions',
  },
  {
    level: 'warning',
    code: 'pattern-b-bare-name-400',
    message: 'callers must send the exact provider/model string: a bare model name yields HTTP 400',
  },
  {
    level: 'warning',
    code: 'pattern-b-unknown-forwarded',
    message:
      'every chat model name is forwarded verbatim to /chat/completions (no prefix removed; registry names of Responses-only or completion models go to /responses or /completions instead); names the external gateway does not serve are its 400',
  },
];

/**
 * Pattern B: `model_name: "*"` and `gateway_params.model: "compat/*"`. Every call reports the
 * spec's warnings through `onNote` and in `explainWildcardEntry`.
 */
export function wildcardGatewayEntry(
  input: WildcardEntryInput,
  options: { onNote?: NoteSink } = {},
): GatewayModelEntry {
  const { entry, notes } = explainWildcardEntry(input);
  for (const note of notes) options.onNote?.(note);
  return entry;
}

export function explainWildcardEntry(input: WildcardEntryInput): {
  entry: GatewayModelEntry;
  notes: GatewayConfigNote[];
} {
  const base = checkApiBase(input?.apiBase, 'openai-compatible', ['apiBase'], {
    allowPlainHttp: input?.allowPlainHttp,
  });
  const key = resolveApiKey(input?.apiKey, ['apiKey']);
  const issues = [...base.issues, ...key.issues];
  if (issues.length > 0) throw new RequestValidationError(issues);
  return {
    entry: {
      model_name: '*',
      gateway_params: { model: `${COMPAT_PREFIX}*`, api_base: base.value!, api_key: key.value! },
    },
    notes: [...PATTERN_B_WARNINGS.map((note) => ({ ...note })), ...base.notes],
  };
}

export function isWildcardEntry(entry: GatewayModelEntry): boolean {
  return entry.model_name === '*' || entry.gateway_params.model.endsWith('/*');
}
