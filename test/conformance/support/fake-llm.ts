// A deterministic OpenAI-compatible chat-completions server on loopback, scripted per test. The real agent
// server's LLM `base_url` points at it. A script is a list of replies, one per request that offers tools,
// in order from the last `script()` call (a count, not the history's length: condensation shortens the
// history). Requests without tools (titles, summaries, side questions) get plain text and take no step.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ToolCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

/** One reply of the fake LLM: tool calls, plain text, or an HTTP error the agent turns into an error event. */
export type Reply =
  | { readonly toolCalls: readonly ToolCall[]; readonly content?: string }
  | { readonly text: string }
  | { readonly fail: { readonly status: number; readonly message: string } };

export interface FakeLlm {
  readonly baseUrl: string;
  /** Requests received, newest last (the parsed JSON bodies). */
  readonly requests: readonly Record<string, unknown>[];
  /** Replace the script and start it from its first reply; steps past its end answer with the `finish` tool. */
  script(replies: readonly Reply[]): void;
  /** Wait until a request is received (e.g. to kill the agent server mid-run); bounded. */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  /** Hold replies until release() (to kill a server while the agent waits on its LLM). */
  hold(): void;
  release(): void;
  close(): Promise<void>;
}

export const terminal = (command: string): ToolCall => ({ name: 'terminal', arguments: { command } });
export const think = (thought: string): ToolCall => ({ name: 'think', arguments: { thought } });
export const finish = (message: string): ToolCall => ({ name: 'finish', arguments: { message } });
export const taskTracker = (tasks: readonly { title: string; status: string }[]): ToolCall => ({
  name: 'task_tracker',
  arguments: { command: 'plan', task_list: tasks.map((task) => ({ ...task, notes: '' })) },
});
export const createFile = (path: string, fileText: string): ToolCall => ({
  name: 'file_editor',
  arguments: { command: 'create', path, file_text: fileText },
});

/** A patch in the format of the `apply_patch` tool (the GPT-5 presets' editor): `*** Begin Patch` … `*** End Patch`. */
export const applyPatch = (patch: string): ToolCall => ({ name: 'apply_patch', arguments: { patch } });
/** Runs a sub-agent (the `task` tool of `TaskToolSet`); the sub-agent asks the same fake LLM. */
export const task = (prompt: string): ToolCall => ({
  name: 'task',
  arguments: { description: 'conformance sub-task', prompt, subagent_type: 'general-purpose' },
});

/** The default run: terminal → think → finish (a short, complete conversation). */
export const BASIC_RUN: readonly Reply[] = [
  { toolCalls: [terminal('echo conformance-ok')] },
  { toolCalls: [think('ok')] },
  { toolCalls: [finish('All done.')] },
];

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function completion(model: string, message: Record<string, unknown>, finishReason: string, id: number) {
  return {
    id: `chatcmpl-fake-${id}`,
    object: 'chat.completion',
    created: 1_760_000_000 + id,
    model,
    choices: [{ index: 0, message, finish_reason: finishReason }],
    usage: { prompt_tokens: 100 + id, completion_tokens: 10, total_tokens: 110 + id },
  };
}

function streamChunks(model: string, text: string, id: number): string {
  const base = {
    id: `chatcmpl-fake-${id}`,
    object: 'chat.completion.chunk',
    created: 1_760_000_000 + id,
    model,
  };
  const words = text.split(/(?<= )/);
  const chunks = [
    { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] },
    ...words.map((word) => ({
      ...base,
      choices: [{ index: 0, delta: { content: word }, finish_reason: null }],
    })),
    { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
  ];
  return `${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}data: [DONE]\n\n`;
}

export async function startFakeLlm(initial: readonly Reply[] = BASIC_RUN): Promise<FakeLlm> {
  let replies = initial;
  let step = 0;
  const requests: Record<string, unknown>[] = [];
  const waiters = new Set<() => void>();
  let held: (() => void)[] | undefined;
  let counter = 0;

  const server: Server = createServer(async (request, response) => {
    const raw = await readBody(request);
    if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions')) {
      response
        .writeHead(404, { 'content-type': 'application/json' })
        .end('{"error":{"message":"not found"}}');
      return;
    }
    const body = JSON.parse(raw) as Record<string, unknown>;
    requests.push(body);
    for (const wake of waiters) wake();
    if (held) await new Promise<void>((resolve) => held?.push(resolve));
    counter += 1;
    const model = String(body.model ?? 'fake');
    const hasTools = Array.isArray(body.tools) && body.tools.length > 0;
    // Requests without tools (titles, side questions, condensation summaries) get plain text.
    const reply: Reply = hasTools
      ? (replies[step++] ?? { toolCalls: [finish('Done.')] })
      : { text: 'A short answer.' };
    if ('fail' in reply) {
      response.writeHead(reply.fail.status, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          error: { message: reply.fail.message, type: 'invalid_request_error', code: null },
        }),
      );
      return;
    }
    const text = 'text' in reply ? reply.text : undefined;
    if (body.stream === true) {
      response
        .writeHead(200, { 'content-type': 'text/event-stream' })
        .end(streamChunks(model, text ?? '', counter));
      return;
    }
    const message =
      text !== undefined
        ? { role: 'assistant', content: text }
        : {
            role: 'assistant',
            content: 'toolCalls' in reply ? (reply.content ?? null) : null,
            tool_calls: ('toolCalls' in reply ? reply.toolCalls : []).map((call, index) => ({
              id: `call_${counter}_${index}`,
              type: 'function',
              function: { name: call.name, arguments: JSON.stringify(call.arguments) },
            })),
          };
    const payload = completion(model, message, text !== undefined ? 'stop' : 'tool_calls', counter);
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    script(next) {
      replies = next;
      step = 0;
    },
    async waitForRequests(count, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < count) {
        if (Date.now() > deadline)
          throw new Error(`fake LLM: ${requests.length}/${count} requests after ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            resolve();
          };
          waiters.add(wake);
          setTimeout(wake, 200);
        });
      }
    },
    hold() {
      held ??= [];
    },
    release() {
      const pending = held ?? [];
      held = undefined;
      for (const resume of pending) resume();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
