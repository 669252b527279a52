import { RequestValidationError, type ValidationIssue } from '../core/errors.js';
import { checkApiBase } from './api-base.js';
import { type GatewayApiKey, resolveApiKey } from './api-key.js';
import type { GatewayConfigNote, NoteSink } from './config-note.js';
import {
  COMPAT_PREFIX,
  GATEWAY_KINDS,
  type GatewayKind,
  routingPrefixOf,
  SAME_KIND_PREFIX,
} from './kinds.js';

/** One entry of `proxy_config.model_list`, also the body of `POST /model/new`. */
export interface GatewayModelEntry {
  /** Friendly name shown to users in the model dropdown. */
  model_name: string;
  gateway_params: {
    /** Upstream model with its routing prefix. */
    model: string;
    /** Base URL of the external gateway. */
    api_base: string;
    /** Key for the external gateway, or `os.environ/<VAR_NAME>`. */
    api_key: string;
  };
}

export interface GatewayModelEntryInput {
  /** What users see in the model dropdown. */
  modelName: string;
  /**
   * The model as the external gateway names it, without any prefix. A same-kind gateway receives it as is; an
   * OpenAI-compatible one receives `<provider>/<upstreamModel>` (the built-in gateway drops only `compat/`).
   */
  upstreamModel: string;
  gatewayKind: GatewayKind;
  /**
   * Required for `openai-compatible` (`compat/<provider>/<model>`; the external gateway receives
   * `<provider>/<model>` in the body); not used for `same-kind`.
   */
  provider?: string;
  /** Base URL of the external gateway, reachable from the cluster. */
  apiBase: string;
  /** The gateway key, or `{ env: 'VAR' }` for `os.environ/VAR` (keys come from cluster secrets). */
  apiKey: GatewayApiKey;
  /** Accept plain `http` to a host outside the cluster (a warning note instead of an error). */
  allowPlainHttp?: boolean;
}

export interface GatewayModelEntryOptions {
  /** Receives each correction or warning (e.g. a `/v1` suffix removed). */
  onNote?: NoteSink;
}

const PROVIDER = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * Builds a gateway model entry by the rules of docs/gateway-and-attribution.md:
 * `same-kind` → `gateway_proxy/<model>` with `api_base` without `/v1`;
 * `openai-compatible` → `compat/<provider>/<model>` with `api_base` ending in `/v1`.
 * A fixable base is corrected with a note; anything else is a `RequestValidationError` naming every bad field.
 */
export function gatewayModelEntry(
  input: GatewayModelEntryInput,
  options: GatewayModelEntryOptions = {},
): GatewayModelEntry {
  const { entry, notes } = explainGatewayModelEntry(input);
  for (const note of notes) options.onNote?.(note);
  return entry;
}

/** `gatewayModelEntry` returning its notes too. */
export function explainGatewayModelEntry(input: GatewayModelEntryInput): {
  entry: GatewayModelEntry;
  notes: GatewayConfigNote[];
} {
  if (typeof input !== 'object' || input === null) {
    throw new RequestValidationError(
      'must be an object with modelName, upstreamModel, gatewayKind…',
      'entry',
    );
  }
  const issues: ValidationIssue[] = [];
  const notes: GatewayConfigNote[] = [];
  const kind = GATEWAY_KINDS.includes(input.gatewayKind) ? input.gatewayKind : undefined;
  if (!kind) issues.push({ path: ['gatewayKind'], message: "must be 'same-kind' or 'openai-compatible'" });

  checkName(input.modelName, ['modelName'], issues);
  checkName(input.upstreamModel, ['upstreamModel'], issues);
  if (typeof input.upstreamModel === 'string' && /\s/.test(input.upstreamModel.trim())) {
    issues.push({ path: ['upstreamModel'], message: 'must not contain whitespace' });
  }
  const prefix = typeof input.upstreamModel === 'string' ? routingPrefixOf(input.upstreamModel) : undefined;
  if (prefix) {
    issues.push({
      path: ['upstreamModel'],
      message: `already carries the routing prefix "${prefix}"; give the model as the external gateway names it`,
    });
  }

  let model: string | undefined;
  if (kind === 'same-kind') {
    if (input.provider !== undefined) {
      notes.push({
        level: 'info',
        code: 'provider-ignored',
        path: ['provider'],
        message: 'provider is not used for a same-kind gateway: the model is sent as the gateway names it',
      });
    }
    model = `${SAME_KIND_PREFIX}${input.upstreamModel}`;
  } else if (kind === 'openai-compatible') {
    const provider = input.provider;
    if (typeof provider !== 'string' || !PROVIDER.test(provider)) {
      issues.push({
        path: ['provider'],
        message: 'is required for an OpenAI-compatible gateway: compat/<provider>/<model> (no slash)',
      });
    } else if (typeof input.upstreamModel === 'string' && input.upstreamModel.startsWith(`${provider}/`)) {
      issues.push({
        path: ['upstreamModel'],
        message: `already starts with the provider "${provider}/"; give the model without it`,
      });
    }
    model = `${COMPAT_PREFIX}${provider}/${input.upstreamModel}`;
    notes.push({
      level: 'info',
      code: 'compat-standard-calls-only',
      message:
        'an OpenAI-compatible gateway gets standard compatible calls; virtual-key headers, spend tracking and team/org metadata are preserved only with a same-kind gateway',
    });
  }

  const base = checkApiBase(input.apiBase, kind, ['apiBase'], { allowPlainHttp: input.allowPlainHttp });
  issues.push(...base.issues);
  notes.push(...base.notes);
  const key = resolveApiKey(input.apiKey, ['apiKey']);
  issues.push(...key.issues);

  if (issues.length > 0) throw new RequestValidationError(issues);
  return {
    entry: {
      model_name: input.modelName,
      gateway_params: { model: model!, api_base: base.value!, api_key: key.value! },
    },
    notes,
  };
}

function checkName(value: unknown, path: string[], issues: ValidationIssue[]): void {
  if (typeof value !== 'string' || value.trim() === '') {
    issues.push({ path, message: 'must be a non-empty string' });
  } else if (value !== value.trim()) {
    issues.push({ path, message: 'must not start or end with whitespace' });
  } else if (value.includes('*')) {
    issues.push({ path, message: 'must not be a wildcard; use wildcardGatewayEntry (Pattern B)' });
  }
}
