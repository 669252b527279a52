import { APIPromise } from '../core/api-promise.js';
import { SecretRegistry } from '../core/auth.js';
import { resolveClientOptions } from '../core/client-options.js';
import type { HttpMethod, QueryValue } from '../core/transport.js';
import { requireNonEmptyString, requireUuid } from '../core/validate.js';
import { AgentProfilesApi } from './api/agent-profiles.js';
import type { PathValue } from './api/api-context.js';
import { AuthApi } from './api/auth.js';
import { BashApi } from './api/bash.js';
import { CanvasExtensionsApi } from './api/canvas-extensions.js';
import { ConversationHandle } from './api/conversation-handle.js';
import { ConversationsApi } from './api/conversations.js';
import { EventsApi } from './api/events.js';
import { FilesApi } from './api/files.js';
import { GitApi } from './api/git.js';
import { HooksApi } from './api/hooks.js';
import { LlmApi } from './api/llm.js';
import { McpApi } from './api/mcp.js';
import { MetaProfilesApi } from './api/meta-profiles.js';
import { OpenAIApi } from './api/openai.js';
import { PluginsApi } from './api/plugins.js';
import { ProfilesApi } from './api/profiles.js';
import { SecretsApi } from './api/secrets.js';
import { ServerApi } from './api/server.js';
import { SettingsApi } from './api/settings.js';
import { SkillsApi } from './api/skills.js';
import { ToolsApi } from './api/tools.js';
import { VSCodeApi } from './api/vscode.js';
import { WorkspacesApi } from './api/workspaces.js';
import { invalid } from './invalid.js';
import { AGENT_SERVER_ENV, type AgentServerClientOptions, shareClientState } from './options.js';
import type { AgentServerFeature } from './version-gate.js';

const INSPECT = Symbol.for('nodejs.util.inspect.custom');
const METHODS: readonly string[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'];

/** `client.request()`: any route of the server, with the client's auth, base URL, retries, abort and redaction. */
export interface RawRequest<T = unknown> {
  method: HttpMethod;
  /**
   * Path relative to the base URL, e.g. `/api/tools/`. `{name}` placeholders are filled from `params`, each
   * value percent-encoded; the rest of the path is sent as written.
   */
  path: string;
  params?: Record<string, PathValue>;
  query?: Record<string, QueryValue>;
  /** A JSON body. */
  json?: unknown;
  /** Any other body (`FormData`, bytes, text). */
  body?: BodyInit;
  headers?: Record<string, string>;
  /** `json` (default), `text`, `bytes` (a `Uint8Array`), `stream` (a `ReadableStream<Uint8Array>`, unbuffered) or `none`. */
  responseType?: 'json' | 'text' | 'bytes' | 'stream' | 'none';
  /** Checks the JSON answer: return `{success: true, data}` or `{success: false, error: {issues}}` (zod's `safeParse` fits). */
  decode?: (
    input: unknown,
  ) =>
    | { success: true; data: T }
    | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
  /** Set false to never retry, even an idempotent method. */
  retry?: boolean;
  signal?: AbortSignal;
  timeout?: number;
}

/**
 * The whole agent server in one client: a namespace per area, all on one transport configuration, one
 * secret registry (a credential seen by any namespace is redacted by all) and one `/server_info` cache (one
 * version gate). `conversation(id)` gives a handle for the everyday flow. See docs/agent-server-client.md.
 */
export class AgentServerClient {
  readonly events: EventsApi;
  readonly conversations: ConversationsApi;
  readonly files: FilesApi;
  readonly bash: BashApi;
  readonly git: GitApi;
  readonly vscode: VSCodeApi;
  readonly tools: ToolsApi;
  readonly skills: SkillsApi;
  readonly plugins: PluginsApi;
  readonly canvasExtensions: CanvasExtensionsApi;
  readonly hooks: HooksApi;
  readonly mcp: McpApi;
  readonly settings: SettingsApi;
  readonly secrets: SecretsApi;
  readonly profiles: ProfilesApi;
  readonly agentProfiles: AgentProfilesApi;
  readonly metaProfiles: MetaProfilesApi;
  readonly workspaces: WorkspacesApi;
  readonly llm: LlmApi;
  readonly openai: OpenAIApi;
  readonly auth: AuthApi;
  readonly server: ServerApi;

  constructor(options?: AgentServerClientOptions) {
    const shared: AgentServerClientOptions = resolveClientOptions(options, AGENT_SERVER_ENV);
    const secrets = new SecretRegistry();
    shareClientState(shared, secrets);
    const addSecret = (value: string | undefined) => secrets.add(value);
    this.events = new EventsApi(shared, addSecret);
    const api = this.events.context;
    this.conversations = new ConversationsApi(shared, api, this.events);
    this.files = new FilesApi(api);
    this.bash = new BashApi(api, undefined, (options) => this.events.followBash(options));
    this.git = new GitApi(api);
    this.vscode = new VSCodeApi(api);
    this.tools = new ToolsApi(api);
    this.skills = new SkillsApi(api);
    this.plugins = new PluginsApi(api);
    this.canvasExtensions = new CanvasExtensionsApi(api);
    this.hooks = new HooksApi(api);
    this.mcp = new McpApi(api);
    this.settings = new SettingsApi(api);
    this.secrets = new SecretsApi(api);
    this.profiles = new ProfilesApi(api);
    this.agentProfiles = new AgentProfilesApi(api);
    this.metaProfiles = new MetaProfilesApi(api);
    this.workspaces = new WorkspacesApi(api);
    this.llm = new LlmApi(api);
    this.openai = new OpenAIApi(api);
    this.auth = new AuthApi(api);
    this.server = new ServerApi(api);
  }

  get baseUrl(): string {
    return this.events.baseUrl;
  }

  /** A handle on one conversation (no request is made). */
  conversation(conversationId: string): ConversationHandle {
    requireUuid(conversationId, 'conversationId');
    return new ConversationHandle(conversationId, this.conversations, this.events);
  }

  /** Throws `AgentServerVersionError` unless the server is at least the feature's version. */
  requireFeature(feature: AgentServerFeature, options: { signal?: AbortSignal } = {}): Promise<void> {
    return this.events.requireFeature(feature, options);
  }

  /**
   * Any route, typed by the caller: for what the namespaces do not cover yet (a newer server's route). The
   * answer is JSON-parsed (or text, bytes, nothing, per `responseType`) and checked by `decode` if given;
   * errors are the SDK's typed errors, redacted.
   */
  request<T = unknown>(spec: RawRequest<T>): APIPromise<T> {
    // Bad input rejects the promise, as every other call's does.
    return new APIPromise((async () => APIPromise.answerOf(this.#request(spec)))());
  }

  #request<T>(spec: RawRequest<T>): APIPromise<T> {
    if (typeof spec !== 'object' || spec === null || !METHODS.includes(spec.method)) {
      throw invalid('spec.method', `must be one of ${METHODS.join(', ')}`);
    }
    requireNonEmptyString(spec.path, 'spec.path');
    const { method, path, signal, timeout, ...call } = spec;
    return this.events.context.call<T>(
      { method, path },
      {
        ...(call.params ? { params: call.params } : {}),
        ...(call.query ? { query: call.query } : {}),
        ...(call.json === undefined ? {} : { json: call.json }),
        ...(call.body === undefined ? {} : { body: call.body }),
        ...(call.headers ? { headers: call.headers } : {}),
        ...(call.responseType ? { responseType: call.responseType } : {}),
        ...(call.decode ? { decode: call.decode } : {}),
        ...(call.retry === undefined ? {} : { retry: call.retry }),
        options: { ...(signal ? { signal } : {}), ...(timeout === undefined ? {} : { timeout }) },
      },
    );
  }

  toJSON(): Record<string, unknown> {
    return { ...this.events.toJSON(), client: 'AgentServerClient' };
  }

  [INSPECT](): string {
    const { client: _client, ...shown } = this.events.toJSON();
    return `AgentServerClient ${JSON.stringify(shown)}`;
  }
}
