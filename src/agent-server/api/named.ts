import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../core/options.js';
import { requireNonEmptyString } from '../../core/validate.js';
import type { ApiContext } from './api-context.js';
import { shape } from './decode.js';
import type { Operation } from './operation.js';
import { requireObject } from './paths.js';
import { registerKeys } from './settings.js';
import type { JsonObject } from './types.js';

/** Calls an operation on one named item (`{name}` or another path parameter), answering a JSON object. */
export function callNamed<T extends JsonObject = JsonObject>(
  api: ApiContext,
  operation: Operation,
  param: string,
  name: string,
  json: JsonObject | undefined,
  options: RequestOptions,
): APIPromise<T> {
  requireNonEmptyString(name, 'name');
  if (json !== undefined) {
    requireObject(json, 'request');
    registerKeys(json, api.addSecret);
  }
  return api.call(operation, {
    params: { [param]: name },
    ...(json === undefined ? {} : { json }),
    decode: shape<T>(),
    options,
  });
}
