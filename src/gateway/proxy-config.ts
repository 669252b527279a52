import { RequestValidationError, type ValidationIssue } from '../core/errors.js';
import { toYaml, type YamlValue } from '../core/yaml.js';
import { type GatewayConfigNote, pushNote } from './config-note.js';
import { lintGatewayModelEntry } from './lint-entry.js';
import type { GatewayModelEntry } from './model-entry.js';
import { explainWildcardEntry, isWildcardEntry, type WildcardEntryInput } from './wildcard-entry.js';

/** The installer's values for the built-in gateway (`proxy_config`), as in the spec's examples. */
export interface ProxyConfigDocument {
  proxy_config: {
    model_list: GatewayModelEntry[];
    general_settings?: { forward_client_headers_to_llm_api: boolean };
  };
}

export interface ProxyConfigInput {
  /** Pattern A entries (from `patternAEntries`, `gatewayModelEntry` or `perTeamModelEntries`). */
  entries?: GatewayModelEntry[];
  /** Pattern B: adds the wildcard entry, with the spec's warnings. */
  wildcard?: WildcardEntryInput;
  /** `general_settings.forward_client_headers_to_llm_api` (needed by recipes 2 and 4). */
  forwardClientHeaders?: boolean;
}

export interface ProxyConfigResult {
  config: ProxyConfigDocument;
  /** The same document as YAML text, ready for the installer. */
  yaml: string;
  notes: GatewayConfigNote[];
}

/**
 * Builds the built-in gateway's `proxy_config` (docs/gateway-and-attribution.md): the model list (Pattern A
 * entries, optionally the Pattern B wildcard) and header forwarding, as an object and as YAML text.
 * Every entry is checked against the entry rules of docs/gateway-and-attribution.md; problems that would break the config are errors,
 * risks are notes.
 */
export function buildProxyConfig(input: ProxyConfigInput): ProxyConfigResult {
  const entries = input?.entries ?? [];
  if (!Array.isArray(entries))
    throw new RequestValidationError('must be an array of model entries', 'entries');
  const issues: ValidationIssue[] = [];
  const notes: GatewayConfigNote[] = [];
  const names = new Map<string, number>();
  entries.forEach((entry, index) => {
    const bad = entryShapeIssue(entry, index);
    if (bad) {
      issues.push(bad);
      return;
    }
    if (isWildcardEntry(entry)) {
      issues.push({ path: ['entries', index], message: 'is a wildcard entry; pass Pattern B as `wildcard`' });
      return;
    }
    const first = names.get(entry.model_name);
    if (first !== undefined) {
      notes.push({
        level: 'warning',
        code: 'duplicate-model-name',
        path: ['entries', index, 'model_name'],
        message: `"${entry.model_name}" is also entry ${first}: users see one name for two routes`,
      });
    }
    names.set(entry.model_name, index);
    for (const note of lintGatewayModelEntry(entry, index)) pushNote(notes, note);
  });
  const modelList = [...entries];
  if (input?.wildcard !== undefined) {
    try {
      const wildcard = explainWildcardEntry(input.wildcard);
      modelList.push(wildcard.entry);
      for (const note of wildcard.notes)
        pushNote(notes, { ...note, path: ['wildcard', ...(note.path ?? [])] });
      for (const note of lintGatewayModelEntry(wildcard.entry, modelList.length - 1)) pushNote(notes, note);
    } catch (error) {
      if (!(error instanceof RequestValidationError)) throw error;
      issues.push(...error.issues.map((issue) => ({ ...issue, path: ['wildcard', ...issue.path] })));
    }
  }
  if (modelList.length === 0 && issues.length === 0) {
    issues.push({ path: ['entries'], message: 'the model list is empty: give entries or a wildcard' });
  }
  if (issues.length > 0) throw new RequestValidationError(issues);

  const config: ProxyConfigDocument = { proxy_config: { model_list: modelList } };
  if (input.forwardClientHeaders === true) {
    config.proxy_config.general_settings = { forward_client_headers_to_llm_api: true };
  } else {
    notes.push({
      level: 'info',
      code: 'headers-not-forwarded',
      message:
        'client headers (profile extra_headers, x-gateway-session-id) are not forwarded upstream; set forwardClientHeaders for recipes 2 and 4',
    });
  }
  return { config, yaml: proxyConfigYaml(config), notes };
}

/** YAML text of a `proxy_config` document. */
export function proxyConfigYaml(config: ProxyConfigDocument): string {
  return toYaml(config as unknown as YamlValue);
}

function entryShapeIssue(entry: unknown, index: number): ValidationIssue | undefined {
  const e = entry as Partial<GatewayModelEntry> | null;
  const params = e?.gateway_params;
  const ok =
    typeof e?.model_name === 'string' &&
    e.model_name.trim() !== '' &&
    typeof params === 'object' &&
    params !== null &&
    ['model', 'api_base', 'api_key'].every((k) => typeof (params as Record<string, unknown>)[k] === 'string');
  return ok
    ? undefined
    : {
        path: ['entries', index],
        message: 'must be { model_name, gateway_params: { model, api_base, api_key } } with string values',
      };
}
