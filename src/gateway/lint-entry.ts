import { isEnvReference } from './api-key.js';
import type { GatewayConfigNote } from './config-note.js';
import { COMPAT_PREFIX, SAME_KIND_PREFIX } from './kinds.js';
import type { GatewayModelEntry } from './model-entry.js';

/**
 * Warnings about an existing entry (hand-written or read from a config) against the entry rules of docs/gateway-and-attribution.md. It never
 * throws: an entry for another provider is simply not checked for prefixes.
 */
export function lintGatewayModelEntry(entry: GatewayModelEntry, index?: number): GatewayConfigNote[] {
  const notes: GatewayConfigNote[] = [];
  const at = (...rest: string[]) => (index === undefined ? rest : ['model_list', index, ...rest]);
  const { model, api_base: apiBase, api_key: apiKey } = entry.gateway_params;
  const base = apiBase.replace(/\/+$/, '');
  if (model.startsWith(SAME_KIND_PREFIX) && base.endsWith('/v1')) {
    notes.push({
      level: 'warning',
      code: 'same-kind-api-base-v1',
      path: at('gateway_params', 'api_base'),
      message: `${entry.model_name}: a same-kind gateway takes api_base without /v1 (/chat/completions is appended)`,
    });
  }
  if (model.startsWith(COMPAT_PREFIX) && !base.endsWith('/v1')) {
    notes.push({
      level: 'warning',
      code: 'compat-api-base-missing-v1',
      path: at('gateway_params', 'api_base'),
      message: `${entry.model_name}: an OpenAI-compatible gateway needs api_base ending in /v1 (only /chat/completions is appended)`,
    });
  }
  if (
    model.startsWith(COMPAT_PREFIX) &&
    model !== `${COMPAT_PREFIX}*` &&
    !model.slice(COMPAT_PREFIX.length).includes('/')
  ) {
    notes.push({
      level: 'warning',
      code: 'compat-missing-provider',
      path: at('gateway_params', 'model'),
      message: `${entry.model_name}: the model should be compat/<provider>/<model-on-gateway>`,
    });
  }
  if (!isEnvReference(apiKey)) {
    notes.push({
      level: 'warning',
      code: 'plaintext-api-key',
      path: at('gateway_params', 'api_key'),
      message: `${entry.model_name}: the key is written in plaintext; keep it in a cluster secret and use os.environ/<VAR_NAME>`,
    });
  }
  return notes;
}
