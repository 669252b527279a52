import type { SecretRegistry } from '../core/auth.js';
import { BaseClient } from '../core/base-client.js';
import { type DeleteResult, deleteResult } from '../core/delete-result.js';
import { type APIError, asNotFoundError, NotFoundError } from '../core/errors.js';
import type { RequestOptions } from '../core/options.js';
import { type Page, PagedIterable } from '../core/paginate.js';
import { encodePath } from '../core/transport.js';
import { describe, optionsObject, requireNonEmptyString, requireUuid } from '../core/validate.js';
import { EXECUTION_STATUSES, type ExecutionStatus, TERMINAL_EXECUTION_STATUSES } from '../models/index.js';
import { requireObject } from './api/paths.js';
import { registerKeys } from './api/settings.js';
import { AgentServerTransport, BaseUrlCheck, shownBaseUrl } from './base-url-check.js';
import {
  type ConversationInfo,
  comparableConversationId,
  decodeConversationInfo,
  decodeConversationPage,
} from './conversation-info.js';
import { type ConversationTrace, traceHeaders } from './conversation-trace.js';
import { decodeCount, decodeSuccess } from './event-page.js';
import { clampLimit } from './event-query.js';
import { EventsClient } from './events-client.js';
import { type ConversationReadOptions, includeSkillsQuery } from './include-skills.js';
import { invalid } from './invalid.js';
import { type MessageInput, toWireMessage } from './message-input.js';
import { type AgentServerClientOptions, agentServerClientSetup } from './options.js';
import type { ServerInfo } from './server-info.js';
import { type WaitUntilOptions, waitForStatus } from './wait-until.js';

/** Options of `create`: a read's options plus how the conversation is traced. */
export interface CreateConversationOptions extends ConversationReadOptions {
  /** Span name, tags, metadata and parent span of the conversation's traces (1.58.0 and later). */
  trace?: ConversationTrace | undefined;
}

/** Conversation sort orders (default `CREATED_AT_DESC`). */
export type ConversationSortOrder = 'CREATED_AT' | 'UPDATED_AT' | 'CREATED_AT_DESC' | 'UPDATED_AT_DESC';

export interface ConversationSearchQuery {
  /** Only conversations with this execution status. */
  status?: ExecutionStatus;
  sortOrder?: ConversationSortOrder;
  /** Page size, clamped to 1..100 (same 500-above-100 bug as events). */
  limit?: number;
}

/** OpenAPI ConfirmationPolicyBase: when the agent asks before acting. */
export type ConfirmationPolicy =
  | { kind: 'NeverConfirm' }
  | { kind: 'AlwaysConfirm' }
  | { kind: 'ConfirmRisky'; threshold?: 'UNKNOWN' | 'LOW' | 'MEDIUM' | 'HIGH'; confirm_unknown?: boolean };

/** OpenAPI `Agent` (kind "Agent"): the LLM and tools. Other fields of the schema pass through unchanged. */
export interface AgentSpec {
  kind?: 'Agent' | undefined;
  llm: {
    model: string;
    api_key?: string | null | undefined;
    base_url?: string | null | undefined;
    usage_id?: string | undefined;
    [field: string]: unknown;
  };
  tools?: { name: string; params?: Record<string, unknown> }[];
  [field: string]: unknown;
}

/**
 * OpenAPI `StartConversationRequest`, field names as on the wire. `initial_message` may be a plain string.
 * `agent.kind` defaults to `Agent` and `workspace.kind` to `LocalWorkspace`.
 */
export interface StartConversationRequest {
  agent: AgentSpec;
  workspace: { working_dir: string; kind?: 'LocalWorkspace'; [field: string]: unknown };
  /** A UUID; starting an id that already runs returns that conversation. */
  conversation_id?: string | undefined;
  confirmation_policy?: ConfirmationPolicy | undefined;
  initial_message?: MessageInput | undefined;
  max_iterations?: number | undefined;
  stuck_detection?: boolean | undefined;
  /** `name → value` or `{kind:"StaticSecret", value}` / `{kind:"LookupSecret", url, headers}`. */
  secrets?: Record<string, string | { kind: string; [field: string]: unknown }>;
  tool_module_qualnames?: Record<string, string> | undefined;
  plugins?: unknown[] | null | undefined;
  hook_config?: Record<string, unknown> | null | undefined;
}

/** A start from saved agent settings or a saved agent profile instead of a full `agent`. */
export interface SavedAgentStart {
  /** A full agent (checked as the `StartConversationRequest` form is), or leave it out for one of the next two. */
  agent?: Record<string, unknown>;
  agent_settings?: Record<string, unknown>;
  agent_profile_id?: string;
  workspace: Record<string, unknown>;
  secrets?: Record<string, unknown>;
  [field: string]: unknown;
}

/** What `create()` takes: a full `agent`, or `agent_settings` / `agent_profile_id` (OpenAPI `StartConversationRequest`). */
export type CreateConversationRequest = StartConversationRequest | SavedAgentStart;

const SORT_ORDERS: readonly string[] = ['CREATED_AT', 'UPDATED_AT', 'CREATED_AT_DESC', 'UPDATED_AT_DESC'];
const POLICY_KINDS: readonly string[] = ['NeverConfirm', 'AlwaysConfirm', 'ConfirmRisky'];

/** Agent-server conversations: lifecycle, search and waiting for a status. */
export class ConversationsClient extends BaseClient {
  readonly #secrets: SecretRegistry;
  readonly #events: EventsClient;

  constructor(options?: AgentServerClientOptions) {
    const setup = agentServerClientSetup(options);
    const transport = new AgentServerTransport(setup.transport);
    super(setup.transport, { sessionApiKey: setup.options.sessionApiKey }, transport);
    this.#secrets = setup.secrets;
    this.#events = new EventsClient(options);
    transport.checkBaseUrlWith(
      new BaseUrlCheck(
        (signal) => this.serverInfo(signal ? { signal } : {}),
        () => shownBaseUrl(this.baseUrl, this.#secrets.list()),
      ),
    );
  }

  /**
   * Starts a conversation (`POST /api/conversations`; openai-node's verb: `create`) from a full `agent`
   * (checked before sending), from saved `agent_settings` or from a saved `agent_profile_id` (sent as given).
   * The LLM key, secrets and every key-like field of the request are registered for redaction, so a 422
   * echoing the body never shows them. Never retried: a repeated POST would start a second conversation.
   */
  async create(
    request: CreateConversationRequest,
    options: CreateConversationOptions = {},
  ): Promise<ConversationInfo> {
    const json =
      typeof request === 'object' && request !== null && request.agent === undefined
        ? this.#savedAgentBody(request as SavedAgentStart)
        : this.#startBody(request as StartConversationRequest);
    const { trace, ...readOptions } = optionsObject(options);
    const tracing = traceHeaders(trace);
    const { options: callOptions, query } = includeSkillsQuery(readOptions);
    return this.transport.request({
      method: 'POST',
      path: 'api/conversations',
      json,
      query,
      ...callOptions,
      headers: { ...tracing, ...callOptions.headers },
      retry: false,
      decode: decodeConversationInfo,
    });
  }

  /** One conversation (`GET /api/conversations/{id}`); `NotFoundError` when unknown. */
  async get(conversationId: string, options: ConversationReadOptions = {}): Promise<ConversationInfo> {
    requireUuid(conversationId, 'conversationId');
    const { options: callOptions, query } = includeSkillsQuery(options);
    return this.transport.request({
      method: 'GET',
      path: encodePath('api', 'conversations', { conversationId }),
      query,
      ...callOptions,
      decode: decodeConversationInfo,
    });
  }

  /** Every conversation matching `query`, across pages; `.pages()` iterates the pages. */
  search(
    query: ConversationSearchQuery = {},
    options: ConversationReadOptions = {},
  ): PagedIterable<ConversationInfo> {
    query = optionsObject(query, 'query');
    const { options: callOptions, query: skills } = includeSkillsQuery(options);
    const wire = {
      status: optionalStatus(query.status, 'query.status'),
      sort_order: optionalEnum(query.sortOrder, SORT_ORDERS, 'query.sortOrder'),
      limit: clampLimit(query.limit, 'query.limit'),
      ...skills,
    };
    return new PagedIterable<ConversationInfo>(
      (pageId) =>
        this.transport.request({
          method: 'GET',
          path: 'api/conversations/search',
          query: { ...wire, page_id: pageId },
          ...callOptions,
          decode: decodeConversationPage,
        }),
      { idOf: (info) => info.id, normalizeId: comparableConversationId },
    );
  }

  /** The pages of `search`. */
  pages(
    query: ConversationSearchQuery = {},
    options: ConversationReadOptions = {},
  ): AsyncIterable<Page<ConversationInfo>> {
    return this.search(query, options).pages();
  }

  /** How many conversations have `status` (all when omitted). */
  async count(filter: { status?: ExecutionStatus } = {}, options: RequestOptions = {}): Promise<number> {
    filter = optionsObject(filter, 'filter');
    options = optionsObject(options);
    const status = optionalStatus(filter.status, 'filter.status');
    return this.transport.request({
      method: 'GET',
      path: 'api/conversations/count',
      query: { status },
      ...options,
      decode: decodeCount,
    });
  }

  /**
   * Starts the agent loop in the background (`POST …/run`). `ConflictError` (409) when it already runs,
   * `NotFoundError` for an unknown conversation.
   */
  async run(conversationId: string, options: RequestOptions = {}): Promise<void> {
    await this.#post(conversationId, 'run', undefined, options);
  }

  /** Pauses the agent loop (`POST …/pause`). An unknown id is a 400 there; it is a `NotFoundError` here. */
  async pause(conversationId: string, options: RequestOptions = {}): Promise<void> {
    await this.#post(conversationId, 'pause', undefined, options, badRequestMeansNotFound);
  }

  /** Deletes the conversation (`DELETE /api/conversations/{id}`); unknown id (a 400 there) → `NotFoundError`. */
  async delete(conversationId: string, options: RequestOptions = {}): Promise<DeleteResult> {
    requireUuid(conversationId, 'conversationId');
    await this.transport.request({
      method: 'DELETE',
      path: encodePath('api', 'conversations', { conversationId }),
      ...options,
      decode: decodeSuccess,
      mapError: badRequestMeansNotFound,
    });
    return deleteResult(conversationId);
  }

  /**
   * Sets the title (`PATCH /api/conversations/{id}`, 1..200 characters, trimmed by the server). The server
   * answers an unknown id with `{success: false}`; that is a `NotFoundError` here.
   */
  async setTitle(conversationId: string, title: string, options: RequestOptions = {}): Promise<void> {
    requireUuid(conversationId, 'conversationId');
    if (typeof title !== 'string' || title.trim() === '' || title.length > 200) {
      throw invalid('title', `must be 1 to 200 characters, got ${describe(title)}`);
    }
    const path = encodePath('api', 'conversations', { conversationId });
    const ok = await this.transport.request({
      method: 'PATCH',
      path,
      json: { title },
      ...options,
      decode: decodeSuccess,
    });
    if (!ok) {
      throw new NotFoundError({
        status: 200,
        headers: {},
        body: { success: false },
        method: 'PATCH',
        url: this.transport.url(path),
        message: 'Conversation not found (the server answered success: false)',
      });
    }
  }

  /**
   * Sets when the agent asks before acting (`POST …/confirmation_policy`, body `{policy}`). A kind name is
   * enough for `NeverConfirm` and `AlwaysConfirm`.
   */
  async setConfirmationPolicy(
    conversationId: string,
    policy: ConfirmationPolicy | ConfirmationPolicy['kind'],
    options: RequestOptions = {},
  ): Promise<void> {
    const body = toPolicy(policy, 'policy');
    await this.#post(conversationId, 'confirmation_policy', { policy: body }, options);
  }

  /**
   * Resolves with the execution status once the conversation has one of `statuses` (default: the terminal
   * ones, `finished`, `error`, `stuck`), watching the event stream and polling `GET /api/conversations/{id}`
   * whenever the stream is not live. Resolves at once when the conversation already has one of them: to
   * wait for a run you start, call `waitUntil` after the status has left them, or check the result.
   * Rejects with `WaitTimeoutError` after `timeout` ms, `APIUserAbortError` on abort, `NotFoundError` for an
   * unknown conversation (whether the stream or a poll finds out first), or a fatal subscription error when
   * the conversation cannot be watched.
   */
  async waitUntil(
    conversationId: string,
    statuses: readonly ExecutionStatus[] | ExecutionStatus = TERMINAL_EXECUTION_STATUSES,
    options: WaitUntilOptions = {},
  ): Promise<ExecutionStatus> {
    requireUuid(conversationId, 'conversationId');
    const wanted = (Array.isArray(statuses) ? statuses : [statuses]) as readonly unknown[];
    if (
      wanted.length === 0 ||
      wanted.some((status) => !(EXECUTION_STATUSES as readonly unknown[]).includes(status))
    ) {
      throw invalid(
        'statuses',
        `must be execution statuses (${EXECUTION_STATUSES.join(', ')}), got ${describe(statuses)}`,
      );
    }
    return waitForStatus(
      {
        subscribe: (subscribeOptions) => this.#events.subscribe(conversationId, subscribeOptions),
        poll: async (signal) => (await this.get(conversationId, { signal })).execution_status,
        logger: this.transport.logger,
      },
      wanted as readonly ExecutionStatus[],
      options,
    );
  }

  /** `GET /server_info`, cached per client. */
  serverInfo(options: { signal?: AbortSignal; refresh?: boolean } = {}): Promise<ServerInfo> {
    return this.#events.serverInfo(options);
  }

  async #post(
    conversationId: string,
    action: string,
    json: unknown,
    options: RequestOptions,
    mapError?: (error: APIError) => APIError,
  ): Promise<void> {
    requireUuid(conversationId, 'conversationId');
    await this.transport.request({
      method: 'POST',
      path: encodePath('api', 'conversations', { conversationId }, action),
      ...(json === undefined ? {} : { json }),
      ...options,
      decode: decodeSuccess,
      ...(mapError ? { mapError } : {}),
    });
  }

  /** A start from `agent_settings` or `agent_profile_id`: the body goes as given, credentials registered. */
  #savedAgentBody(request: SavedAgentStart): Record<string, unknown> {
    if (request.agent_profile_id === undefined && request.agent_settings === undefined) {
      throw invalid('request.agent', 'one of agent, agent_settings or agent_profile_id is required');
    }
    if (request.agent_profile_id !== undefined)
      requireNonEmptyString(request.agent_profile_id, 'request.agent_profile_id');
    if (request.agent_settings !== undefined) requireObject(request.agent_settings, 'request.agent_settings');
    requireObject(request.workspace, 'request.workspace');
    const add = (value: string | undefined) => this.#secrets.add(value);
    registerKeys(request, add);
    for (const value of Object.values(request.secrets ?? {})) {
      if (typeof value === 'string') add(value);
    }
    return request;
  }

  #startBody(request: StartConversationRequest): Record<string, unknown> {
    if (typeof request !== 'object' || request === null) {
      throw invalid('request', `must be an object, got ${describe(request)}`);
    }
    const { agent, workspace, initial_message, confirmation_policy, conversation_id, secrets } = request;
    if (typeof agent !== 'object' || agent === null || typeof agent.llm !== 'object' || agent.llm === null) {
      throw invalid('request.agent', 'must be an Agent with an llm');
    }
    if (typeof agent.llm.model !== 'string' || agent.llm.model === '') {
      throw invalid(
        'request.agent.llm.model',
        `must be a non-empty string, got ${describe(agent.llm.model)}`,
      );
    }
    if (
      typeof workspace !== 'object' ||
      workspace === null ||
      typeof workspace.working_dir !== 'string' ||
      workspace.working_dir === ''
    ) {
      throw invalid('request.workspace', 'must have a non-empty working_dir');
    }
    if (conversation_id !== undefined) requireUuid(conversation_id, 'request.conversation_id');
    if (
      request.max_iterations !== undefined &&
      !(Number.isInteger(request.max_iterations) && request.max_iterations >= 1)
    ) {
      throw invalid(
        'request.max_iterations',
        `must be an integer of at least 1, got ${describe(request.max_iterations)}`,
      );
    }
    this.#registerSecrets(request);
    const body: Record<string, unknown> = {
      ...request,
      agent: { kind: 'Agent', ...agent },
      workspace: { kind: 'LocalWorkspace', ...workspace },
    };
    if (confirmation_policy !== undefined)
      body.confirmation_policy = toPolicy(confirmation_policy, 'request.confirmation_policy');
    if (initial_message !== undefined) {
      const message = toWireMessage(initial_message, 'request.initial_message');
      body.initial_message = { run: false, ...message };
    }
    if (secrets !== undefined) {
      if (typeof secrets !== 'object' || secrets === null) {
        throw invalid('request.secrets', `must be an object, got ${describe(secrets)}`);
      }
    }
    return body;
  }

  #registerSecrets(request: StartConversationRequest): void {
    const apiKey = request.agent.llm.api_key;
    if (typeof apiKey === 'string') this.#secrets.add(apiKey);
    for (const value of Object.values(request.secrets ?? {})) {
      if (typeof value === 'string') this.#secrets.add(value);
      else if (typeof value === 'object' && value !== null && typeof value.value === 'string')
        this.#secrets.add(value.value);
    }
  }
}

/** Pause and delete answer an unknown conversation with a bare 400 "Bad Request". */
function badRequestMeansNotFound(error: APIError): APIError {
  if (error.status !== 400) return error;
  return asNotFoundError(error, 'Conversation not found (the server answered 400)');
}

function toPolicy(policy: unknown, field: string): ConfirmationPolicy {
  const value = typeof policy === 'string' ? { kind: policy } : policy;
  const kind = (value as { kind?: unknown } | null)?.kind;
  if (typeof value !== 'object' || value === null || !POLICY_KINDS.includes(kind as string)) {
    throw invalid(
      field,
      `must be NeverConfirm, AlwaysConfirm or ConfirmRisky (or {kind, …}), got ${describe(policy)}`,
    );
  }
  return value as ConfirmationPolicy;
}

function optionalStatus(status: unknown, field: string): ExecutionStatus | undefined {
  return optionalEnum(status, EXECUTION_STATUSES, field) as ExecutionStatus | undefined;
}

function optionalEnum(value: unknown, allowed: readonly string[], field: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !allowed.includes(value)) {
    throw invalid(field, `must be one of ${allowed.join(', ')}, got ${describe(value)}`);
  }
  return value;
}
