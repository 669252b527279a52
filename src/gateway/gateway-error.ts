import { type APIError, isAPIError } from '../core/errors.js';

/**
 * Every gateway error answers `{error: {message, type, param, code}}`, where `code` is the HTTP
 * status as a string and `param` is often the literal string "None".
 */
export interface GatewayErrorBody {
  message: string;
  type: string | null;
  param: string | null;
  code: string | null;
}

/** The gateway's error envelope carried by an SDK `APIError`, or undefined for any other error. */
export function readGatewayError(error: unknown): GatewayErrorBody | undefined {
  if (!isAPIError(error)) return undefined;
  const inner = (error.body as { error?: unknown } | null)?.error;
  if (typeof inner !== 'object' || inner === null) return undefined;
  const { message, type, param, code } = inner as Record<string, unknown>;
  if (typeof message !== 'string') return undefined;
  const text = (value: unknown) => (typeof value === 'string' && value !== 'None' ? value : null);
  return {
    message,
    type: text(type),
    param: text(param),
    code: typeof code === 'number' ? String(code) : text(code),
  };
}

// An error raised upstream names the provider's exception ("<Provider>Exception - …"); without one the
// built-in gateway itself refused the call (docs/gateway-and-attribution.md, "Checking the chain").
const UPSTREAM_MARK = /\b\w+Exception - /;

// The built-in gateway without a database (docs/compatibility.md, "Model gateway"): 500 "No DB Connected" on
// /model/new and /model/delete, 500 asking for STORE_MODEL_IN_DB when it has one but does not keep models
// there, 401 "Prisma Client is not initialized" on spend logs.
const NO_DATABASE = /No DB Connected|STORE_MODEL_IN_DB|Prisma Client is not initialized|db_not_connected/i;
// Without a database a key other than the master key cannot be looked up: 400 "No connected db."
// (type no_db_connection) instead of 401.
const KEY_NOT_CHECKABLE = /No connected db/i;
/**
 * Newer gateways (1.106.2, 1.108.7, 1.110.2; not 1.94.1) after storing a model (create or update) when the
 * reload that followed left it, or other models, unserved by this pod (G3): "Model <action> was saved to the
 * database, but the model id(s) [...] are not live in this pod's router …" or "… but the reload it triggered
 * degraded this pod's serving state. …".
 */
export const SAVED_NOT_LIVE =
  /\bwas saved to the database, but (the model id\(s\) .* not live|the reload it triggered degraded)/i;

/**
 * The `code` of the error `addModel` and `updateModel` throw for that answer (an `InternalServerError`): the row
 * is stored, so adding the model again would make a second one (docs/gateway-and-attribution.md).
 */
export const MODEL_SAVED_NOT_LIVE = 'GATEWAY_MODEL_SAVED_NOT_LIVE';

/** True when the gateway refused because it has no database (see {@link diagnoseGatewayError}). */
export function isNoDatabaseAnswer(error: APIError): boolean {
  const message = readGatewayError(error)?.message ?? '';
  return !UPSTREAM_MARK.test(message) && NO_DATABASE.test(message);
}

export type GatewayFailure =
  | 'model-not-in-list'
  | 'gateway-auth'
  | 'no-database'
  | 'saved-not-live'
  | 'upstream-auth'
  | 'upstream-model-not-found'
  | 'upstream-endpoint-not-found'
  | 'other';

export interface GatewayDiagnosis {
  /** Which gateway answered: the built-in one, or the external one behind it. */
  origin: 'built-in' | 'external';
  failure: GatewayFailure;
  status: number;
  /** What to check, citing the spec. */
  hint: string;
  gatewayError: GatewayErrorBody | undefined;
}

/**
 * Reads a failed call through the gateway chain and says which gateway refused it and what to
 * check. Undefined for errors that are not HTTP answers.
 */
export function diagnoseGatewayError(error: unknown): GatewayDiagnosis | undefined {
  if (!isAPIError(error)) return undefined;
  const gatewayError = readGatewayError(error);
  const message = gatewayError?.message ?? error.message;
  const origin = UPSTREAM_MARK.test(message) ? 'external' : 'built-in';
  const status = error.status;
  const diagnose = (failure: GatewayFailure, hint: string): GatewayDiagnosis => ({
    origin,
    failure,
    status,
    hint,
    gatewayError,
  });
  if (origin === 'built-in') {
    // The real gateway answers 400 "Invalid model name passed in model=…" (not 404: docs/compatibility.md).
    if (status === 404 || (status === 400 && /Invalid model name passed in model=/.test(message))) {
      return diagnose(
        'model-not-in-list',
        "the model is not in the built-in gateway's model list: add it (addModel or proxy_config.model_list) or use a listed model_name",
      );
    }
    if (status === 500 && SAVED_NOT_LIVE.test(message)) {
      return diagnose(
        'saved-not-live',
        "the model WAS stored (do not add it again; deleteModel removes it): this gateway's router could not load it, e.g. a provider it does not know; its log says why ('Error upserting deployment')",
      );
    }
    if (NO_DATABASE.test(message)) {
      return diagnose(
        'no-database',
        'the built-in gateway has no database (or does not keep models in it): /model/new, /model/delete and spend logs need one, as in the platform default deployment; without one, models belong in proxy_config.model_list',
      );
    }
    if (status === 401 || status === 403 || (status === 400 && KEY_NOT_CHECKABLE.test(message))) {
      return diagnose(
        'gateway-auth',
        'the built-in gateway refused the master key; a gateway without a database answers 400 "No connected db." for any key but its master key',
      );
    }
    return diagnose('other', 'the built-in gateway refused the call; see gatewayError');
  }
  if (status === 401) {
    return diagnose(
      'upstream-auth',
      'the external gateway refused gateway_params.api_key; when it enforces auth on inference a valid virtual key is needed',
    );
  }
  if (status === 400 && /model/i.test(message)) {
    return diagnose(
      'upstream-model-not-found',
      'the model string does not match the external gateway: same-kind → gateway_proxy/<its model_name>, OpenAI-compatible → compat/<provider>/<model>; under the wildcard pattern send provider/model, not a bare name',
    );
  }
  if (status === 404) {
    return diagnose(
      'upstream-endpoint-not-found',
      'the external gateway has no such path: check the /v1 rule of api_base (same-kind: without /v1; OpenAI-compatible: ending in /v1)',
    );
  }
  return diagnose('other', 'the external gateway refused the call; see gatewayError');
}
