import type { APIPromise } from '../../core/api-promise.js';
import { CollectionLimitError } from '../../core/errors.js';
import type { RequestOptions } from '../../core/options.js';
import { optionsObject, requireNonEmptyString, requireUuid } from '../../core/validate.js';
import { type ConversationInfo, decodeConversationInfo } from '../conversation-info.js';
import { ConversationsClient } from '../conversations-client.js';
import { isAgentServerVersionError } from '../errors.js';
import type { EventsClient } from '../events-client.js';
import { type ConversationReadOptions, includeSkillsQuery } from '../include-skills.js';
import { invalid } from '../invalid.js';
import type { AgentServerClientOptions } from '../options.js';
import type { ApiContext } from './api-context.js';
import { arrayOf, nullable, shape, successAnswer } from './decode.js';
import { finalResponseFromEvents } from './final-response.js';
import { op } from './operation.js';
import { optionalInt, requireObject } from './paths.js';
import { registerKeys } from './settings.js';
import type { JsonObject } from './types.js';

const C = '/api/conversations/{conversation_id}';

/** Every method of `client.conversations` and the operation it calls (inherited ones included). */
export const CONVERSATIONS_OPERATIONS = {
  create: op('POST', '/api/conversations'),
  get: op('GET', C),
  getMany: op('GET', '/api/conversations'),
  search: op('GET', '/api/conversations/search'),
  pages: op('GET', '/api/conversations/search'),
  count: op('GET', '/api/conversations/count'),
  delete: op('DELETE', C),
  setTitle: op('PATCH', C),
  update: op('PATCH', C),
  run: op('POST', `${C}/run`),
  pause: op('POST', `${C}/pause`),
  setConfirmationPolicy: op('POST', `${C}/confirmation_policy`),
  interrupt: op('POST', `${C}/interrupt`, '1.31.1'),
  finalResponse: op('GET', `${C}/agent_final_response`, '1.18.0'),
  askAgent: op('POST', `${C}/ask_agent`),
  condense: op('POST', `${C}/condense`),
  fork: op('POST', `${C}/fork`, '1.18.0'),
  navigate: op('POST', `${C}/navigate`, '1.31.1'),
  startChild: op('POST', `${C}/children`, '1.58.0'),
  startGoal: op('POST', `${C}/goal`, '1.31.1'),
  stopGoal: op('POST', `${C}/goal/stop`, '1.31.1'),
  resumeGoal: op('POST', `${C}/goal/resume`, '1.31.1'),
  updateSecrets: op('POST', `${C}/secrets`),
  setSecurityAnalyzer: op('POST', `${C}/security_analyzer`),
  switchProfile: op('POST', `${C}/switch_profile`, '1.18.0'),
  switchLlm: op('POST', `${C}/switch_llm`, '1.31.1'),
  switchAcpModel: op('POST', `${C}/switch_acp_model`, '1.31.1'),
  loadPlugin: op('POST', `${C}/load_plugin`, '1.31.1'),
  runtime: op('GET', `${C}/runtime`, '1.58.0'),
  reprovisionRuntime: op('POST', `${C}/runtime/reprovision`, '1.58.0'),
  workspaceIndex: op('GET', `${C}/workspace`, '1.31.1'),
  workspaceFile: op('GET', `${C}/workspace/{file_path}`, '1.31.1'),
} as const;

/** OpenAPI `ForkConversationRequest`. */
export interface ForkRequest {
  /** Id of the fork (generated when omitted). */
  id?: string;
  title?: string;
  tags?: Record<string, string>;
  /** Start cost and token stats afresh (server default true). */
  reset_metrics?: boolean;
  /** Fork only the branch up to and including this event. */
  from_event_id?: string;
}

/** OpenAPI `ConversationRuntimeStatus`. */
export interface ConversationRuntime {
  runtime_status?: string;
  can_resume?: boolean;
  runtime_error?: string | null;
  [field: string]: unknown;
}

/** Default cap of the event scan behind `finalResponse` on servers without the route. */
export const DEFAULT_MAX_FINAL_RESPONSE_EVENTS = 10_000;

/** Options of `finalResponse`: a call's options plus the cap of its fallback scan. */
export interface FinalResponseOptions extends RequestOptions {
  /**
   * Servers older than the route (1.18.0): most events scanned, newest first, for the answer; more is
   * `CollectionLimitError`. Default 10 000.
   */
  maxEvents?: number;
}

const decodeResponse = shape<{ response: string }>({ response: 'string' });

/**
 * `client.conversations`: the `ConversationsClient` (start, get, search, count, run, pause, delete, title,
 * confirmation policy, waitUntil) plus every other conversation operation of the server.
 */
export class ConversationsApi extends ConversationsClient {
  readonly #api: ApiContext;
  readonly #events: EventsClient;

  constructor(options: AgentServerClientOptions, api: ApiContext, events: EventsClient) {
    super(options);
    this.#api = api;
    this.#events = events;
  }

  /** Several conversations in one request (up to 99); `null` where an id is unknown. */
  async getMany(
    conversationIds: readonly string[],
    options: ConversationReadOptions = {},
  ): Promise<(ConversationInfo | null)[]> {
    if (!Array.isArray(conversationIds) || conversationIds.length === 0 || conversationIds.length > 99) {
      throw invalid('conversationIds', 'must be an array of 1 to 99 conversation ids');
    }
    for (const [index, id] of conversationIds.entries()) requireUuid(id, `conversationIds.${index}`);
    const { options: callOptions, query } = includeSkillsQuery(options);
    return this.#api.call(CONVERSATIONS_OPERATIONS.getMany, {
      query: { ids: conversationIds, ...query },
      decode: arrayOf(nullable(decodeConversationInfo)),
      options: callOptions,
    });
  }

  /** Sets the title and/or tags (`PATCH`); tags replace the previous ones. */
  async update(
    conversationId: string,
    update: { title?: string; tags?: Record<string, string> },
    options: RequestOptions = {},
  ): Promise<void> {
    requireObject(update, 'update');
    if (update.title === undefined && update.tags === undefined)
      throw invalid('update', 'needs title or tags');
    if (update.tags !== undefined) requireObject(update.tags, 'update.tags');
    await this.#success(CONVERSATIONS_OPERATIONS.update, conversationId, update, options);
  }

  /** Stops the current LLM call and the loop at once (`pause` waits for the step to end). */
  async interrupt(conversationId: string, options: RequestOptions = {}): Promise<void> {
    await this.#success(CONVERSATIONS_OPERATIONS.interrupt, conversationId, undefined, options);
  }

  /**
   * The agent's final answer: the last `FinishAction` message, else the last agent message text, '' when
   * none. Servers older than the route (1.18.0 recorded) get the same answer computed here from the events.
   */
  async finalResponse(conversationId: string, options: FinalResponseOptions = {}): Promise<string> {
    const { maxEvents = DEFAULT_MAX_FINAL_RESPONSE_EVENTS, ...request } = optionsObject(options);
    if (!Number.isSafeInteger(maxEvents) || maxEvents < 1) {
      throw invalid('options.maxEvents', 'must be a positive integer');
    }
    try {
      const answer = await this.#api.call(CONVERSATIONS_OPERATIONS.finalResponse, {
        params: { conversation_id: requireUuid(conversationId, 'conversationId') },
        decode: decodeResponse,
        options: request,
      });
      return answer.response;
    } catch (error) {
      if (!isAgentServerVersionError(error)) throw error;
      // Newest first, one event at a time: nothing is kept, and the scan stops at `maxEvents`.
      let seen = 0;
      for await (const event of this.#events.search(
        conversationId,
        { sortOrder: 'TIMESTAMP_DESC' },
        request,
      )) {
        const found = finalResponseFromEvents([event]);
        if (found !== '') return found;
        if (++seen >= maxEvents) {
          throw new CollectionLimitError(
            'finalResponse() (events scanned on a server without the route)',
            maxEvents,
            'items',
            'maxEvents',
          );
        }
      }
      return '';
    }
  }

  /** Asks the agent a side question; the answer does not enter the conversation's history. */
  async askAgent(conversationId: string, question: string, options: RequestOptions = {}): Promise<string> {
    requireNonEmptyString(question, 'question');
    const answer = await this.#api.call(CONVERSATIONS_OPERATIONS.askAgent, {
      params: { conversation_id: requireUuid(conversationId, 'conversationId') },
      json: { question },
      decode: decodeResponse,
      options,
    });
    return answer.response;
  }

  /** Forces a condensation of the context. */
  async condense(conversationId: string, options: RequestOptions = {}): Promise<void> {
    await this.#success(CONVERSATIONS_OPERATIONS.condense, conversationId, undefined, options);
  }

  /** Copies the conversation (up to `from_event_id` when given) into a new one; resolves with the fork. */
  async fork(
    conversationId: string,
    request: ForkRequest = {},
    options: ConversationReadOptions = {},
  ): Promise<ConversationInfo> {
    requireObject(request, 'request');
    if (request.id !== undefined) requireUuid(request.id, 'request.id');
    return this.#info(CONVERSATIONS_OPERATIONS.fork, conversationId, request, options);
  }

  /** Makes `eventId` the head of the active branch (the agent continues from there). */
  async navigate(
    conversationId: string,
    eventId: string | null,
    options: ConversationReadOptions = {},
  ): Promise<ConversationInfo> {
    if (eventId !== null) requireNonEmptyString(eventId, 'eventId');
    return this.#info(CONVERSATIONS_OPERATIONS.navigate, conversationId, { event_id: eventId }, options);
  }

  /** Starts a child conversation on a self-contained `task` (OpenAPI `StartChildConversationRequest`). */
  async startChild(
    conversationId: string,
    request: { task: string; title?: string; isolation?: 'worktree' | 'shared'; [field: string]: unknown },
    options: RequestOptions = {},
  ): Promise<JsonObject> {
    requireObject(request, 'request');
    requireNonEmptyString(request.task, 'request.task');
    return this.#api.call(CONVERSATIONS_OPERATIONS.startChild, {
      params: { conversation_id: requireUuid(conversationId, 'conversationId') },
      json: request,
      decode: shape(),
      options,
    });
  }

  /** Pursues `objective`, auditing up to `max_iterations` rounds (server default 10). */
  async startGoal(
    conversationId: string,
    goal: { objective: string; max_iterations?: number },
    options: RequestOptions = {},
  ): Promise<void> {
    requireObject(goal, 'goal');
    requireNonEmptyString(goal.objective, 'goal.objective');
    optionalInt(goal.max_iterations, 'goal.max_iterations');
    await this.#success(CONVERSATIONS_OPERATIONS.startGoal, conversationId, goal, options);
  }

  async stopGoal(conversationId: string, options: RequestOptions = {}): Promise<void> {
    await this.#success(CONVERSATIONS_OPERATIONS.stopGoal, conversationId, undefined, options);
  }

  async resumeGoal(conversationId: string, options: RequestOptions = {}): Promise<void> {
    await this.#success(CONVERSATIONS_OPERATIONS.resumeGoal, conversationId, undefined, options);
  }

  /** Adds or replaces secrets (`name → value` or `{kind: 'StaticSecret' | 'LookupSecret', …}`); values redacted. */
  async updateSecrets(
    conversationId: string,
    secrets: Record<string, string | { kind: string; [field: string]: unknown }>,
    options: RequestOptions = {},
  ): Promise<void> {
    requireObject(secrets, 'secrets');
    for (const value of Object.values(secrets)) {
      if (typeof value === 'string') this.#api.addSecret(value);
      else registerKeys({ value }, this.#api.addSecret);
      if (typeof value === 'object' && value !== null && typeof value.value === 'string')
        this.#api.addSecret(value.value);
    }
    await this.#success(CONVERSATIONS_OPERATIONS.updateSecrets, conversationId, { secrets }, options);
  }

  /** Sets (or with null removes) the security analyzer (OpenAPI `SecurityAnalyzerBase`, e.g. `{kind: 'LLMSecurityAnalyzer'}`). */
  async setSecurityAnalyzer(
    conversationId: string,
    analyzer: JsonObject | null,
    options: RequestOptions = {},
  ): Promise<void> {
    if (analyzer !== null) requireObject(analyzer, 'analyzer');
    await this.#success(
      CONVERSATIONS_OPERATIONS.setSecurityAnalyzer,
      conversationId,
      { security_analyzer: analyzer },
      options,
    );
  }

  /** Switches the agent to the saved LLM profile `profileName`. */
  async switchProfile(
    conversationId: string,
    profileName: string,
    options: RequestOptions = {},
  ): Promise<void> {
    requireNonEmptyString(profileName, 'profileName');
    await this.#success(
      CONVERSATIONS_OPERATIONS.switchProfile,
      conversationId,
      { profile_name: profileName },
      options,
    );
  }

  /** Switches the agent to `llm` (OpenAPI `LLM`); its `api_key` is registered for redaction. */
  async switchLlm(
    conversationId: string,
    llm: { model: string; [field: string]: unknown },
    options: RequestOptions = {},
  ): Promise<void> {
    requireObject(llm, 'llm');
    requireNonEmptyString(llm.model, 'llm.model');
    registerKeys({ llm }, this.#api.addSecret);
    await this.#success(CONVERSATIONS_OPERATIONS.switchLlm, conversationId, { llm }, options);
  }

  /** Switches an ACP agent's model. */
  async switchAcpModel(conversationId: string, model: string, options: RequestOptions = {}): Promise<void> {
    requireNonEmptyString(model, 'model');
    await this.#success(CONVERSATIONS_OPERATIONS.switchAcpModel, conversationId, { model }, options);
  }

  /** Loads a plugin into the running conversation. */
  async loadPlugin(conversationId: string, pluginRef: string, options: RequestOptions = {}): Promise<void> {
    requireNonEmptyString(pluginRef, 'pluginRef');
    await this.#success(
      CONVERSATIONS_OPERATIONS.loadPlugin,
      conversationId,
      { plugin_ref: pluginRef },
      options,
    );
  }

  /** Where the conversation's runtime stands (1.58.0). */
  async runtime(conversationId: string, options: RequestOptions = {}): Promise<ConversationRuntime> {
    return this.#api.call(CONVERSATIONS_OPERATIONS.runtime, {
      params: { conversation_id: requireUuid(conversationId, 'conversationId') },
      decode: shape<ConversationRuntime>(),
      options,
    });
  }

  async reprovisionRuntime(
    conversationId: string,
    options: RequestOptions = {},
  ): Promise<ConversationRuntime> {
    return this.#api.call(CONVERSATIONS_OPERATIONS.reprovisionRuntime, {
      params: { conversation_id: requireUuid(conversationId, 'conversationId') },
      decode: shape<ConversationRuntime>(),
      options,
    });
  }

  /** The `index.html` the server serves at the root of the workspace (404 when there is none), as text. */
  async workspaceIndex(conversationId: string, options: RequestOptions = {}): Promise<string> {
    return this.#api.call(CONVERSATIONS_OPERATIONS.workspaceIndex, {
      params: { conversation_id: requireUuid(conversationId, 'conversationId') },
      responseType: 'text',
      headers: { accept: '*/*' },
      options,
    });
  }

  /** A file of the workspace by its path relative to the working folder, as exact bytes. */
  async workspaceFile(
    conversationId: string,
    relativePath: string,
    options: RequestOptions = {},
  ): Promise<Uint8Array> {
    requireNonEmptyString(relativePath, 'relativePath');
    const segments = relativePath.split('/').filter((part) => part !== '');
    if (segments.includes('..')) throw invalid('relativePath', 'must stay inside the workspace (no "..")');
    return this.#api.call(CONVERSATIONS_OPERATIONS.workspaceFile, {
      params: { conversation_id: requireUuid(conversationId, 'conversationId'), file_path: segments },
      responseType: 'bytes',
      headers: { accept: '*/*' },
      options,
    });
  }

  async #success(
    operation: (typeof CONVERSATIONS_OPERATIONS)['run'],
    conversationId: string,
    json: unknown,
    options: RequestOptions,
  ): Promise<void> {
    await this.#api.call(operation, {
      params: { conversation_id: requireUuid(conversationId, 'conversationId') },
      ...(json === undefined ? {} : { json }),
      decode: successAnswer,
      options,
    });
  }

  #info(
    operation: (typeof CONVERSATIONS_OPERATIONS)['fork' | 'navigate'],
    conversationId: string,
    json: unknown,
    options: ConversationReadOptions,
  ): APIPromise<ConversationInfo> {
    const { options: callOptions, query } = includeSkillsQuery(options);
    return this.#api.call(operation, {
      params: { conversation_id: requireUuid(conversationId, 'conversationId') },
      query,
      json,
      decode: decodeConversationInfo,
      options: callOptions,
    });
  }
}
