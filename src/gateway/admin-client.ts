import { headerAuth, SecretRegistry } from '../core/auth.js';
import { BaseClient } from '../core/base-client.js';
import { resolveClientOptions } from '../core/client-options.js';
import { type DeleteResult, deleteResult } from '../core/delete-result.js';
import {
  type APIError,
  asNotFoundError,
  NotFoundError,
  RequestValidationError,
  withMessage,
} from '../core/errors.js';
import type { RequestOptions } from '../core/options.js';
import { PagedIterable } from '../core/paginate.js';
import { pathSegment } from '../core/path-segment.js';
import { optionsObject, requireNonEmptyString } from '../core/validate.js';
import { isEnvReference } from './api-key.js';
import { isNoDatabaseAnswer, MODEL_SAVED_NOT_LIVE, SAVED_NOT_LIVE } from './gateway-error.js';
import { lintGatewayModelEntry } from './lint-entry.js';
import type { GatewayModelEntry } from './model-entry.js';
import { type GatewayModelUpdate, modelUpdateBody } from './model-update.js';
import { GATEWAY_ENV, type GatewayAdminClientOptions } from './options.js';
import {
  type AddedGatewayModel,
  addedModelSchema,
  deleteModelSchema,
  type GatewayModel,
  type GatewayModelInfo,
  modelInfoListSchema,
  modelListSchema,
  probeAnswerSchema,
  type SpendLogRow,
  spendLogPageSchema,
} from './schemas.js';
import { gatewayDate } from './spend-dates.js';

export interface ProbeOptions extends RequestOptions {
  /**
   * The body `user` field, as the platform sends it: recorded in the built-in gateway's spend logs, passed on
   * to a same-kind external gateway (`gateway_proxy/`), not to an OpenAI-compatible one (`compat/`).
   */
  user?: string;
}

export interface SpendLogQuery {
  /** Start of the window (UTC); a `Date` or `YYYY-MM-DD HH:MM:SS`. */
  startDate: Date | string;
  endDate: Date | string;
  /** Rows per page, 1 to 100 (the gateway answers 422 above). Default 100. */
  pageSize?: number;
}

/**
 * Administration of the built-in model gateway: add and list models, and what operators need
 * besides (delete, model info, a probe through the chain, spend logs for recipe 5). Every call sends the
 * master key as `Authorization: Bearer`.
 */
export class GatewayAdminClient extends BaseClient {
  readonly #secrets: SecretRegistry;

  constructor(options?: GatewayAdminClientOptions) {
    const resolved = resolveClientOptions(options, GATEWAY_ENV);
    const { masterKey } = resolved;
    if (typeof masterKey !== 'function') requireNonEmptyString(masterKey, 'masterKey');
    const secrets = new SecretRegistry();
    super(
      {
        ...resolved,
        secrets: secrets.list,
        authHeaders: headerAuth(masterKey, 'Authorization', secrets, 'Bearer '),
      },
      { masterKey },
    );
    this.#secrets = secrets;
  }

  /**
   * Adds a model: `POST /model/new`. It needs the gateway's database (the platform's default deployment keeps
   * models there): the model is then persisted and survives restarts and upgrades, and other gateway pods pick
   * it up after their next reload (about 30 s). Without a database the gateway answers 500 and nothing is
   * added: the error (an `InternalServerError`) says so, and `diagnoseGatewayError` reads it as
   * `no-database`. A newer gateway that stored the model but could not serve it answers 500 too: that error has
   * `code` `'GATEWAY_MODEL_SAVED_NOT_LIVE'` (the row exists: do not add it again). (docs/compatibility.md: not
   * "lost on restart".) Build `entry` with
   * `gatewayModelEntry`; models that must exist at start-up belong in the proxy configuration.
   */
  async addModel(entry: GatewayModelEntry, options: RequestOptions = {}): Promise<AddedGatewayModel> {
    checkEntry(entry);
    // The literal key must never show up in an error or a log line.
    if (!isEnvReference(entry.gateway_params.api_key)) this.#secrets.add(entry.gateway_params.api_key);
    // A key in the request body is normal here (the gateway stores it encrypted); the 2.6 rules still apply.
    for (const note of lintGatewayModelEntry(entry)) {
      if (note.code !== 'plaintext-api-key') this.transport.logger.warn(note.message);
    }
    return this.transport.request({
      method: 'POST',
      path: 'model/new',
      json: entry,
      ...options,
      decode: (input) => addedModelSchema.safeParse(input),
      mapError: (error) => explainSavedNotLive(explainNoDatabase(error)),
    });
  }

  /** Every model of the gateway's list, configured and API-added: `GET /v1/models`. */
  async listModels(options: RequestOptions = {}): Promise<GatewayModel[]> {
    const page = await this.transport.request({
      method: 'GET',
      path: 'v1/models',
      ...options,
      decode: (input) => modelListSchema.safeParse(input),
    });
    return page.data;
  }

  /** One model of the list by `model_name`; a model missing from the list is a `NotFoundError`. */
  async getModel(modelName: string, options: RequestOptions = {}): Promise<GatewayModel> {
    requireNonEmptyString(modelName, 'modelName');
    const found = (await this.listModels(options)).find((model) => model.id === modelName);
    if (found) return found;
    throw new NotFoundError({
      status: 404,
      headers: {},
      body: undefined,
      method: 'GET',
      url: this.transport.url('v1/models'),
      message: `Model "${modelName}" is not in the gateway's model list`,
    });
  }

  /** Models with their parameters (secrets stripped) and ids: `GET /model/info` (beyond the spec). */
  async modelInfo(options: RequestOptions = {}): Promise<GatewayModelInfo[]> {
    const page = await this.transport.request({
      method: 'GET',
      path: 'model/info',
      ...options,
      decode: (input) => modelInfoListSchema.safeParse(input),
    });
    return page.data;
  }

  /**
   * Changes a stored model by id (from `addModel` or `modelInfo`): `PATCH /model/{id}/update` (beyond the
   * spec), which changes only the fields given and keeps the others, the stored key included. The other route,
   * `POST /model/update`, is not used: up to 1.108.7 it ignores the `model_info` it is sent (docs/compatibility.md,
   * D1). Like `addModel`, it needs the gateway's database; an unknown id is a `NotFoundError`, a model of the
   * proxy configuration a `BadRequestError` ("Cannot edit config-based model"), and a newer gateway that
   * stored the change but does not serve the model answers 500 with `code` `'GATEWAY_MODEL_SAVED_NOT_LIVE'`.
   */
  async updateModel(
    id: string,
    update: GatewayModelUpdate,
    options: RequestOptions = {},
  ): Promise<AddedGatewayModel> {
    const path = `model/${pathSegment(id, 'id')}/update`;
    const body = modelUpdateBody(update);
    const apiKey = body.gateway_params?.api_key;
    if (apiKey !== undefined && !isEnvReference(apiKey)) this.#secrets.add(apiKey);
    return this.transport.request({
      method: 'PATCH',
      path,
      json: body,
      ...options,
      decode: (input) => addedModelSchema.safeParse(input),
      mapError: (error) => explainSavedNotLive(explainNoDatabase(error)),
    });
  }

  /**
   * Deletes an API-added model by id (from `addModel` or `modelInfo`): `POST /model/delete` (beyond the
   * spec). The gateway answers an unknown id with 400 "… not found"; that is a `NotFoundError`.
   */
  async deleteModel(id: string, options: RequestOptions = {}): Promise<DeleteResult> {
    requireNonEmptyString(id, 'id');
    const answer = await this.transport.request({
      method: 'POST',
      path: 'model/delete',
      json: { id },
      ...options,
      decode: (input) => deleteModelSchema.safeParse(input ?? {}),
      mapError: (error) =>
        error.status === 400 && /not found/i.test(error.message)
          ? asNotFound(error)
          : explainNoDatabase(error),
    });
    return deleteResult(id, answer.message);
  }

  /**
   * Sends a one-token chat completion through the chain to check a model end to end (beyond the spec).
   * A failure is the usual typed error; `diagnoseGatewayError(error)` says which gateway refused it and
   * why. Costs one small upstream call.
   */
  async probeModel(modelName: string, options: ProbeOptions = {}): Promise<{ model: string | undefined }> {
    requireNonEmptyString(modelName, 'modelName');
    const { user, ...callOptions } = optionsObject(options);
    if (user !== undefined) requireNonEmptyString(user, 'user');
    const answer = await this.transport.request({
      method: 'POST',
      path: 'v1/chat/completions',
      json: {
        model: modelName,
        messages: [{ role: 'user', content: 'ping' }],
        max_tokens: 1,
        ...(user === undefined ? {} : { user }),
      },
      retry: false,
      ...callOptions,
      decode: (input) => probeAnswerSchema.safeParse(input),
    });
    return { model: answer.model };
  }

  /**
   * Spend-log rows of a time window, page after page: `GET /spend/logs/v2` (beyond the spec). Input of
   * recipe 5 (`reconcileSpend`). Needs the gateway's database: without one the gateway answers 401 "Prisma
   * Client is not initialized", an error whose message says so (`diagnoseGatewayError`: `no-database`).
   * Rows are written in batches about 10 s after the call; a row that comes again on a later page (new rows
   * shift the pages) is given once.
   */
  spendLogs(query: SpendLogQuery, options: RequestOptions = {}): PagedIterable<SpendLogRow> {
    const start = gatewayDate(query?.startDate, 'startDate');
    const end = gatewayDate(query?.endDate, 'endDate');
    const pageSize = query.pageSize ?? 100;
    // The gateway answers 422 above 100 rows per page.
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100) {
      throw new RequestValidationError('must be an integer from 1 to 100', 'pageSize');
    }
    // Rows come newest first (docs/compatibility.md, G6): a row written while the pages are read pushes older
    // rows onto the next page, so a row may come twice; the repeat is dropped. A closed window (an end date at
    // least one batch interval, about 10 s, in the past) also avoids the rows it would skip.
    let seen = new Set<string>();
    // Numbered pages: the cursor is the next page's number.
    const readPage = (page: number) =>
      this.transport.request({
        method: 'GET',
        path: 'spend/logs/v2',
        query: { start_date: start, end_date: end, page, page_size: pageSize },
        ...options,
        decode: (input) => spendLogPageSchema.safeParse(input),
        mapError: explainNoDatabase,
      });
    return new PagedIterable(async (cursor) => {
      let page = cursor === undefined ? 1 : Number(cursor);
      if (page === 1) seen = new Set();
      // A page of repeats only is skipped (an empty page would end the list).
      for (;;) {
        const answer = await readPage(page);
        const last = answer.data.length === 0 || page >= (answer.total_pages ?? page);
        const items = answer.data.filter((row) => !seen.has(row.request_id));
        for (const row of items) seen.add(row.request_id);
        if (items.length > 0 || last) return { items, nextPageId: last ? null : String(page + 1) };
        page += 1;
      }
    });
  }
}

function checkEntry(entry: GatewayModelEntry): void {
  const params = entry?.gateway_params;
  const issues = [];
  if (typeof entry?.model_name !== 'string' || entry.model_name.trim() === '') {
    issues.push({ path: ['entry', 'model_name'], message: 'must be a non-empty string' });
  }
  for (const key of ['model', 'api_base', 'api_key'] as const) {
    const value = (params as Record<string, unknown> | undefined)?.[key];
    if (typeof value !== 'string' || value.trim() === '') {
      issues.push({ path: ['entry', 'gateway_params', key], message: 'must be a non-empty string' });
    }
  }
  if (issues.length > 0) throw new RequestValidationError(issues);
}

/**
 * The same error (same class and status) with a message that says the gateway has no database, when that is
 * why it refused: its own messages for it ("No DB Connected", "Prisma Client is not initialized") do not say
 * what to do, and the spend-log one comes with a 401 that looks like a wrong key.
 */
function explainNoDatabase(error: APIError): APIError {
  if (!isNoDatabaseAnswer(error)) return error;
  return withMessage(
    error,
    `The gateway has no database (or does not keep models in it), which this endpoint needs; models of such a gateway belong in proxy_config.model_list (it answered ${error.status}: ${readMessage(error)})`,
  );
}

/**
 * G3 (docs/compatibility.md): a newer gateway answers 500 after it stored the model but could not load it into
 * its router. The row exists: the message says so, so that the caller does not add it again.
 */
function explainSavedNotLive(error: APIError): APIError {
  if (error.status !== 500 || !SAVED_NOT_LIVE.test(readMessage(error))) return error;
  const explained = withMessage(
    error,
    `The model was stored in the gateway's database but this gateway does not serve it (its router could not load it); do not add it again, delete it with deleteModel if it is wrong (it answered 500: ${readMessage(error)})`,
  );
  explained.code = MODEL_SAVED_NOT_LIVE;
  return explained;
}

function asNotFound(error: APIError): NotFoundError {
  return asNotFoundError(
    error,
    `Model not found (the gateway answered ${error.status}: ${readMessage(error)})`,
  );
}

function readMessage(error: APIError): string {
  const message = (error.body as { error?: { message?: unknown } } | null)?.error?.message;
  return typeof message === 'string' ? message : 'not found';
}
