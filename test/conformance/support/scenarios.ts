// Conversations the conformance suite runs on a real agent server, with raw HTTP (not the SDK, so that what is
// recorded does not depend on the code under test). Each scenario scripts the fake LLM, starts a conversation
// with an initial message, waits for the run to settle and returns the conversation id.
import type { RealAgentServer } from './agent-server.js';
import {
  applyPatch,
  BASIC_RUN,
  createFile,
  type FakeLlm,
  finish,
  type Reply,
  task,
  taskTracker,
  terminal,
  think,
} from './fake-llm.js';

export function headers(server: RealAgentServer): Record<string, string> {
  return { 'content-type': 'application/json', 'X-Session-API-Key': server.sessionApiKey };
}

export async function call(
  server: RealAgentServer,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: unknown; text: string }> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: headers(server),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, json, text };
}

export interface StartOptions {
  readonly text?: string;
  readonly stream?: boolean;
  readonly confirm?: boolean;
  readonly tools?: readonly string[];
  /** Summarise the history once it passes a few events (an `LLMSummarizingCondenser` on the same fake LLM). */
  readonly condense?: boolean;
  /** `HookConfig` of the conversation (servers run the hooks' commands and record `HookExecutionEvent`s). */
  readonly hooks?: Record<string, unknown>;
  /**
   * Modules the server imports before building the agent (`tool_module_qualnames`), by tool name: tools outside
   * the server's default set (apply_patch, glob, grep, the Gemini-style file tools) register themselves on import.
   */
  readonly toolModules?: Record<string, string>;
  /** A security analyzer (`{kind: 'LLMSecurityAnalyzer'}`): actions get a `SecurityAnalysisEvent`. */
  readonly securityAnalyzer?: Record<string, unknown>;
}

/** The StartConversationRequest body the suite sends (older servers ignore keys they do not know). */
export function startBody(server: RealAgentServer, llm: FakeLlm, options: StartOptions = {}) {
  const tools = options.tools ?? ['terminal'];
  return {
    agent: {
      kind: 'Agent' as const,
      llm: {
        model: 'openai/conformance-fake',
        base_url: llm.baseUrl,
        api_key: 'sk-conformance-fake',
        usage_id: 'agent',
        native_tool_calling: true,
        stream: options.stream ?? false,
        api_mode: 'chat',
        num_retries: 0,
      },
      tools: tools.map((name) => ({
        name,
        params: name === 'terminal' ? { terminal_type: 'subprocess' } : {},
      })),
      include_default_tools: ['FinishTool', 'ThinkTool'],
      ...(options.condense
        ? {
            condenser: {
              kind: 'LLMSummarizingCondenser',
              llm: {
                model: 'openai/conformance-fake',
                base_url: llm.baseUrl,
                api_key: 'sk-conformance-fake',
                usage_id: 'condenser',
                num_retries: 0,
              },
              max_size: 6,
              keep_first: 1,
            },
          }
        : {}),
    },
    workspace: { kind: 'LocalWorkspace' as const, working_dir: server.workspaceDir },
    initial_message: { role: 'user', content: [{ type: 'text', text: options.text ?? 'go' }], run: true },
    max_iterations: 20,
    stuck_detection: false,
    autotitle: false,
    ...(options.confirm ? { confirmation_policy: { kind: 'AlwaysConfirm' } } : {}),
    ...(options.hooks ? { hook_config: options.hooks } : {}),
    ...(options.toolModules ? { tool_module_qualnames: options.toolModules } : {}),
    ...(options.securityAnalyzer ? { security_analyzer: options.securityAnalyzer } : {}),
  };
}

const TERMINAL_STATES = new Set(['finished', 'error', 'stuck', 'paused', 'waiting_for_confirmation']);

export async function conversationStatus(server: RealAgentServer, id: string): Promise<string | undefined> {
  const { json } = await call(server, 'GET', `/api/conversations/${id}`);
  return (json as { execution_status?: string } | undefined)?.execution_status;
}

/** Polls until the run reaches a settled state; bounded. */
export async function settle(
  server: RealAgentServer,
  id: string,
  timeoutMs = 60_000,
  alsoSettled: readonly string[] = [],
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let status: string | undefined;
  while (Date.now() < deadline) {
    status = await conversationStatus(server, id);
    if (status && (TERMINAL_STATES.has(status) || alsoSettled.includes(status))) return status;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(
    `conversation ${id} did not settle in ${timeoutMs} ms (last status ${status})\n${server.log().slice(-2000)}`,
  );
}

export async function startConversation(
  server: RealAgentServer,
  llm: FakeLlm,
  replies: readonly Reply[],
  options: StartOptions = {},
) {
  llm.script(replies);
  const started = await call(server, 'POST', '/api/conversations', startBody(server, llm, options));
  if (started.status !== 200 && started.status !== 201) {
    throw new Error(`start failed: ${started.status} ${started.text.slice(0, 2000)}`);
  }
  return (started.json as { id: string }).id;
}

export async function runScenario(
  server: RealAgentServer,
  llm: FakeLlm,
  replies: readonly Reply[],
  options: StartOptions = {},
) {
  const id = await startConversation(server, llm, replies, options);
  const status = await settle(server, id);
  return { id, status };
}

/** Every event of a conversation over REST, oldest first. */
export async function allEvents(server: RealAgentServer, id: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let pageId: string | undefined;
  for (let page = 0; page < 100; page++) {
    const query = new URLSearchParams({ limit: '100', ...(pageId ? { page_id: pageId } : {}) });
    const { status, json, text } = await call(
      server,
      'GET',
      `/api/conversations/${id}/events/search?${query}`,
    );
    if (status !== 200) throw new Error(`search failed: ${status} ${text.slice(0, 500)}`);
    const body = json as { items: Record<string, unknown>[]; next_page_id?: string | null };
    items.push(...body.items);
    if (!body.next_page_id) return items;
    pageId = body.next_page_id;
  }
  throw new Error('more than 100 pages');
}

/** One scripted run. */
export interface Scenario {
  readonly replies: readonly Reply[];
  readonly options?: StartOptions;
  /** The first server version that has what the run needs (a tool, a route); older versions skip it. */
  readonly since?: string;
  /**
   * Runs once the sockets are open, while the fake LLM still holds its first answer; it must release the LLM.
   * For what a client does mid-run (pause, interrupt).
   */
  readonly during?: (server: RealAgentServer, llm: FakeLlm, id: string) => Promise<void>;
  /**
   * Record it after `/openapi.json`: the server builds that document once, on first request, from the classes
   * imported so far, and this run imports more (tools, hooks, an analyzer). Recording the document after the
   * default-tool runs keeps it what a server with the default tools serves, whatever scenarios are added.
   */
  readonly afterOpenApi?: boolean;
}

/**
 * Calls `route` on the conversation while the agent waits on its first LLM answer, then lets the LLM answer.
 * The call is not awaited before the release: servers before 1.36 answer `pause` only once the running step ends
 * (docs/compatibility.md A12), which needs the LLM's answer.
 */
const midRun =
  (route: 'pause' | 'interrupt') => async (server: RealAgentServer, llm: FakeLlm, id: string) => {
    try {
      await llm.waitForRequests(1, 30_000);
    } catch (error) {
      llm.release();
      throw error;
    }
    const answer = call(server, 'POST', `/api/conversations/${id}/${route}`);
    // Let the request reach the server before the step can go on.
    await new Promise((resolve) => setTimeout(resolve, 300));
    llm.release();
    const { status, text } = await answer;
    if (status >= 300) throw new Error(`${route}: ${status} ${text.slice(0, 500)}`);
  };

const call_ = (name: string, args: Record<string, unknown>) => ({ name, arguments: args });

/** A hook that runs before every tool call and prints one line. */
const PRE_TOOL_HOOK = {
  pre_tool_use: [
    { matcher: '*', hooks: [{ type: 'command', command: 'echo conformance-hook', timeout: 10 }] },
  ],
};

/** The scripted runs that together make every event kind the fake LLM can provoke. */
export const SCENARIOS: Record<string, Scenario> = {
  basic: { replies: BASIC_RUN },
  tools: {
    replies: [
      { toolCalls: [createFile('notes.txt', 'hello from the fake LLM\n')] },
      { toolCalls: [taskTracker([{ title: 'write notes', status: 'done' }])] },
      { toolCalls: [terminal('echo one'), terminal('echo two')], content: 'Two commands at once.' },
      { toolCalls: [finish('Files written.')] },
    ],
    options: { tools: ['terminal', 'file_editor', 'task_tracker'] },
  },
  llmError: { replies: [{ fail: { status: 400, message: 'conformance: the model refuses' } }] },
  confirmation: {
    replies: [{ toolCalls: [terminal('echo needs-approval')] }, { toolCalls: [finish('ok')] }],
    options: { confirm: true },
  },
  textOnly: { replies: [{ text: 'Nothing to do: here is the answer.' }] },
  condensation: {
    replies: [
      ...Array.from({ length: 8 }, (_, step) => ({ toolCalls: [think(`step ${step}`)] })),
      { toolCalls: [finish('condensed')] },
    ],
    options: { condense: true },
  },
  streamed: { replies: [{ text: 'Streamed answer in several words.' }], options: { stream: true } },
  applyPatch: {
    replies: [
      {
        toolCalls: [
          applyPatch('*** Begin Patch\n*** Add File: patched.txt\n+patched by the fake LLM\n*** End Patch'),
        ],
      },
      { toolCalls: [finish('Patched.')] },
    ],
    options: { tools: ['apply_patch'], toolModules: { apply_patch: 'openhands.tools.apply_patch' } },
    afterOpenApi: true,
  },
  /** The search and Gemini-style file tools, one call each. */
  fileTools: {
    replies: [
      {
        toolCalls: [
          call_('write_file', { file_path: 'gemini.txt', content: 'one\ntwo\n' }),
          call_('read_file', { file_path: 'gemini.txt' }),
        ],
      },
      { toolCalls: [call_('edit', { file_path: 'gemini.txt', old_string: 'two', new_string: 'three' })] },
      { toolCalls: [call_('list_directory', { dir_path: '.' }), call_('glob', { pattern: '*.txt' })] },
      { toolCalls: [call_('grep', { pattern: 'three' })] },
      { toolCalls: [finish('Files searched.')] },
    ],
    options: {
      tools: ['write_file', 'read_file', 'edit', 'list_directory', 'glob', 'grep'],
      toolModules: {
        write_file: 'openhands.tools.gemini',
        read_file: 'openhands.tools.gemini',
        edit: 'openhands.tools.gemini',
        list_directory: 'openhands.tools.gemini',
        glob: 'openhands.tools.glob',
        grep: 'openhands.tools.grep',
      },
    },
    afterOpenApi: true,
  },
  task: {
    // The sub-agent asks the same fake LLM: its first request gets the second reply.
    replies: [
      { toolCalls: [task('Say that the sub-task is done.')] },
      { toolCalls: [finish('Sub-task done.')] },
      { toolCalls: [finish('The sub-agent finished.')] },
    ],
    options: { tools: ['terminal', 'task_tool_set'] },
    since: '1.18.1',
    afterOpenApi: true,
  },
  /** A call to a tool the agent does not have: the server records an AgentErrorEvent and the run goes on. */
  unknownTool: {
    replies: [
      { toolCalls: [{ name: 'no_such_tool', arguments: {} }] },
      { toolCalls: [finish('Recovered.')] },
    ],
  },
  hooks: { replies: BASIC_RUN, options: { hooks: PRE_TOOL_HOOK }, afterOpenApi: true },
  securityAnalysis: {
    replies: [
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo analysed', security_risk: 'LOW' } }] },
      { toolCalls: [finish('Analysed.')] },
    ],
    options: { securityAnalyzer: { kind: 'LLMSecurityAnalyzer' } },
    since: '1.18.0',
    afterOpenApi: true,
  },
  pause: { replies: BASIC_RUN, during: midRun('pause'), afterOpenApi: true },
  interrupt: { replies: BASIC_RUN, during: midRun('interrupt'), since: '1.31.1', afterOpenApi: true },
};

export { finish, terminal, think };
