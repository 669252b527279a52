import { RequestValidationError, type ValidationIssue } from '../core/errors.js';
import type { GatewayApiKey } from './api-key.js';
import { type GatewayConfigNote, type NoteSink, pushNote } from './config-note.js';
import type { GatewayKind } from './kinds.js';
import { explainGatewayModelEntry, type GatewayModelEntry } from './model-entry.js';

export interface PatternAInput {
  gatewayKind: GatewayKind;
  /** Default provider of every model (OpenAI-compatible gateways); a model may override it. */
  provider?: string;
  /** Shared by every entry. */
  apiBase: string;
  /** Shared by every entry. */
  apiKey: GatewayApiKey;
  allowPlainHttp?: boolean;
  /** One entry per exposed model: users see exactly these `modelName` values. */
  models: { modelName: string; upstreamModel: string; provider?: string }[];
}

/**
 * Pattern A: one `model_list` entry per exposed model, all sharing `api_base` and `api_key`.
 * Issues of every model are reported together, with the model's index in the path.
 */
export function patternAEntries(
  input: PatternAInput,
  options: { onNote?: NoteSink } = {},
): GatewayModelEntry[] {
  const { entries, notes } = explainPatternA(input);
  for (const note of notes) options.onNote?.(note);
  return entries;
}

export function explainPatternA(input: PatternAInput): {
  entries: GatewayModelEntry[];
  notes: GatewayConfigNote[];
} {
  if (!Array.isArray(input?.models) || input.models.length === 0) {
    throw new RequestValidationError('must list at least one model', 'models');
  }
  const issues: ValidationIssue[] = [];
  const notes: GatewayConfigNote[] = [];
  const entries: GatewayModelEntry[] = [];
  const seen = new Set<string>();
  input.models.forEach((model, index) => {
    if (typeof model?.modelName === 'string' && seen.has(model.modelName)) {
      issues.push({ path: ['models', index, 'modelName'], message: `"${model.modelName}" is listed twice` });
    }
    seen.add(model?.modelName);
    try {
      const provider = model?.provider ?? input.provider;
      const result = explainGatewayModelEntry({
        modelName: model?.modelName,
        upstreamModel: model?.upstreamModel,
        gatewayKind: input.gatewayKind,
        ...(provider === undefined ? {} : { provider }),
        apiBase: input.apiBase,
        apiKey: input.apiKey,
        ...(input.allowPlainHttp === undefined ? {} : { allowPlainHttp: input.allowPlainHttp }),
      });
      entries.push(result.entry);
      for (const note of result.notes) pushNote(notes, note);
    } catch (error) {
      if (!(error instanceof RequestValidationError)) throw error;
      for (const issue of error.issues) {
        const shared =
          issue.path[0] === 'apiBase' || issue.path[0] === 'apiKey' || issue.path[0] === 'gatewayKind';
        const path = shared ? issue.path : ['models', index, ...issue.path];
        if (!issues.some((i) => i.path.join('.') === path.join('.') && i.message === issue.message)) {
          issues.push({ ...issue, path });
        }
      }
    }
  });
  if (issues.length > 0) throw new RequestValidationError(issues);
  return { entries, notes };
}
