import { RequestValidationError, type ValidationIssue } from '../core/errors.js';
import { isPlainObject } from '../core/validate.js';
import { type GatewayApiKey, resolveApiKey } from './api-key.js';

/**
 * What `updateModel` changes (LiteLLM's `PATCH /model/{id}/update` body): only the fields given; within
 * `gateway_params` and `model_info`, only the keys given.
 */
export interface GatewayModelUpdate {
  model_name?: string;
  gateway_params?: {
    model?: string;
    api_base?: string;
    /** A literal key (stored encrypted, redacted from errors and logs) or `{ env }` for a pod variable. */
    api_key?: GatewayApiKey;
    [param: string]: unknown;
  };
  /** Free fields of the model (`description`, `mode`, cost fields, …), kept by the gateway. */
  model_info?: Record<string, unknown>;
}

const FIELDS = new Set(['model_name', 'gateway_params', 'model_info']);

/** The body to send, with the key resolved, or a `RequestValidationError` naming every bad field. */
export function modelUpdateBody(update: unknown): GatewayModelUpdate & {
  gateway_params?: { api_key?: string };
} {
  if (!isPlainObject(update)) throw new RequestValidationError('must be an object', 'update');
  const issues: ValidationIssue[] = [];
  const at = (...path: string[]) => ['update', ...path];
  const keys = Object.keys(update).filter((key) => update[key] !== undefined);
  for (const key of keys) {
    if (!FIELDS.has(key)) issues.push({ path: at(key), message: 'is not a field of a model update' });
  }
  if (keys.length === 0) {
    throw new RequestValidationError('needs model_name, gateway_params or model_info', 'update');
  }
  const body: Record<string, unknown> = {};
  const { model_name: name, gateway_params: params, model_info: info } = update;
  if (name !== undefined) {
    if (typeof name !== 'string' || name.trim() === '') {
      issues.push({ path: at('model_name'), message: 'must be a non-empty string' });
    }
    body.model_name = name;
  }
  if (params !== undefined) {
    if (!isPlainObject(params)) {
      issues.push({ path: at('gateway_params'), message: 'must be an object' });
    } else {
      const wire: Record<string, unknown> = { ...params };
      for (const key of ['model', 'api_base'] as const) {
        const value = params[key];
        if (value !== undefined && (typeof value !== 'string' || value.trim() === '')) {
          issues.push({ path: at('gateway_params', key), message: 'must be a non-empty string' });
        }
      }
      if (params.api_key !== undefined) {
        const key = resolveApiKey(params.api_key, at('gateway_params', 'api_key'));
        issues.push(...key.issues);
        wire.api_key = key.value;
      }
      body.gateway_params = wire;
    }
  }
  if (info !== undefined) {
    if (!isPlainObject(info)) issues.push({ path: at('model_info'), message: 'must be an object' });
    body.model_info = info;
  }
  if (issues.length > 0) throw new RequestValidationError(issues);
  return body as GatewayModelUpdate & { gateway_params?: { api_key?: string } };
}
