// Conversations the conformance suite runs on a real agent server, with raw HTTP (not the SDK, so that what is
// recorded does not depend on the code under test). Each scenario scripts the fake LLM, starts a conversation
// with an initial message, waits for the run to settle and returns the conversation id.
import type { RealAgentServer } from './agent-server.js';
import {
  BASIC_RUN,
  createFile,
  type FakeLlm,
  finish,
  type Reply,
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

/** The scripted runs that together make every event kind the fake LLM can provoke. */
export const SCENARIOS: Record<string, { replies: readonly Reply[]; options?: StartOptions }> = {
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
};

export { finish, terminal, think };
