/**
 * Client-side tracing: turns a live event stream (plain agent-server events, by `kind`) into the
 * tree through `@opentelemetry/api`, which you pass in (`import * as api from '@opentelemetry/api'`), so this
 * module loads without it. Content (messages, tool arguments and output) is recorded unless
 * `captureContent: false`.
 */
import { type ConversationIdGenerator, conversationTraceId } from './id-generator.js';

// The parts of `@opentelemetry/api` used here, written out, so that `agent-platform-sdk/tracing` type-checks
// without the package installed (it is an optional peer); its module object and tracers fit these shapes.
type Attributes = Record<string, string | number | boolean | string[] | number[] | boolean[] | undefined>;
/** A span of `@opentelemetry/api` (the methods used here). */
export interface OtelSpan {
  setAttribute(key: string, value: string | number | boolean): unknown;
  setAttributes(attributes: Attributes): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(endTime?: number): void;
}
/** A tracer of `@opentelemetry/api` (`api.trace.getTracer(…)`). */
export interface OtelTracer {
  startSpan(
    name: string,
    options?: { startTime?: number; kind?: number; root?: boolean; attributes?: Attributes },
    context?: unknown,
  ): OtelSpan;
}
/** The parts of `@opentelemetry/api` used here: pass the module (`import * as api from '@opentelemetry/api'`). */
export interface OtelApi {
  trace: {
    setSpan(context: unknown, span: OtelSpan): unknown;
    getTracer(name: string): OtelTracer;
  };
  ROOT_CONTEXT: unknown;
}

/** Any agent-server event as parsed JSON; only `kind` and the fields read below matter. */
export interface PlainEvent {
  /** The event's kind (a string at run time; the SDK types unknown kinds opaquely, see its event model docs). */
  kind: unknown;
  [field: string]: unknown;
}

interface TextPart {
  text?: string;
}
interface ToolCall {
  id?: string;
  name?: string;
  arguments?: string;
}
interface EventFields {
  source?: string;
  llm_response_id?: string | null;
  tool_name?: string;
  tool_call_id?: string;
  tool_call?: ToolCall;
  thought?: TextPart[];
  llm_message?: { role?: string; content?: TextPart[] };
  system_prompt?: TextPart;
  observation?: { content?: TextPart[]; is_error?: boolean };
  error?: string;
  rejection_reason?: string;
  key?: string;
  value?: unknown;
  code?: string;
  detail?: string;
}
interface Metrics {
  model_name?: string;
  accumulated_cost?: number;
  accumulated_token_usage?: { prompt_tokens?: number; completion_tokens?: number };
}

export interface EventSpansOptions {
  api: OtelApi;
  /** Default `api.trace.getTracer('agent-platform-sdk')`. */
  tracer?: OtelTracer;
  conversationId: string;
  userId?: string;
  /** Model name until a `stats` update names it. */
  model?: string;
  /** The `usage_to_metrics` entry of the agent's LLM. Default `agent` when present, else `default`. */
  usageId?: string;
  captureContent?: boolean;
  /** Makes the trace id the conversation UUID (also give it to your tracer provider). */
  idGenerator?: ConversationIdGenerator;
  /** Clock in epoch milliseconds. Default `Date.now`; e.g. `(e) => Date.parse(e.timestamp + 'Z')` for replays. */
  now?: (event?: PlainEvent) => number;
}

export interface EventSpans {
  handle(event: PlainEvent): void;
  /** Ends every open span; later events are ignored. */
  end(): void;
}

// `join` writes a missing text as ''.
const text = (parts: TextPart[] | undefined) =>
  Array.isArray(parts) ? parts.map((p) => p?.text).join('') : '';
const ERROR = 2;

export function createEventSpans(options: EventSpansOptions): EventSpans {
  const { api, conversationId } = options;
  const tracer = options.tracer ?? api.trace.getTracer('agent-platform-sdk');
  const now = options.now ?? Date.now;
  const common: Attributes = { 'session.id': conversationId };
  if (options.userId) common['user.id'] = options.userId;
  const open = (
    name: string,
    parent: OtelSpan | undefined,
    startTime: number,
    kind: string,
    extra?: Attributes,
  ) =>
    tracer.startSpan(
      name,
      {
        startTime,
        kind: kind === 'LLM' ? 2 : 0,
        root: !parent,
        attributes: { ...common, 'openinference.span.kind': kind, ...extra },
      },
      parent ? api.trace.setSpan(api.ROOT_CONTEXT, parent) : api.ROOT_CONTEXT,
    );
  const content = (span: OtelSpan, key: string, value: unknown) => {
    if (options.captureContent !== false)
      span.setAttribute(key, typeof value === 'string' ? value : JSON.stringify(value));
  };

  let model = options.model;
  let last = now();
  const traceId = conversationTraceId(conversationId);
  if (traceId) options.idGenerator?.useTraceIdOnce(traceId);
  const root = open('conversation', undefined, last, 'CHAIN');
  let run: OtelSpan | undefined;
  let ended = false;
  // The open step: its span, its LLM span, when the LLM answered, its response id, output and token counts.
  let step: OtelSpan | undefined;
  let llm: OtelSpan | undefined;
  let llmEnd = 0;
  let responseId: string | undefined;
  let output: unknown[] = [];
  let tokens = [0, 0];
  let seen = [0, 0];
  const tools = new Map<string | undefined, OtelSpan>();
  /** The LLM's view (condensations are not applied): [response id, message]. */
  const messages: [string | undefined, Record<string, unknown>][] = [];

  const openRun = (t: number) => (run ??= open('conversation.run', root, t, 'CHAIN'));
  const closeStep = (t: number) => {
    if (!step || !llm) return;
    content(llm, 'gen_ai.output', output);
    llm.end(llmEnd);
    for (const tool of tools.values()) tool.end(t);
    tools.clear();
    step.end(t);
    step = llm = responseId = undefined;
  };
  const closeRun = (t: number, status?: string) => {
    closeStep(t);
    if (status === 'error') run?.setStatus({ code: ERROR, message: status });
    run?.end(t);
    run = undefined;
  };
  const ensureStep = (id: string, t: number): OtelSpan => {
    if (responseId !== id || !step) {
      closeStep(last);
      step = open('agent.step', openRun(last), last, 'AGENT');
      llm = open('llm.completion', step, last, 'LLM', { 'gen_ai.response.id': id });
      if (model) llm.setAttribute('gen_ai.request.model', model);
      content(
        llm,
        'gen_ai.input.messages',
        messages.map((m) => m[1]),
      );
      llmEnd = t;
      responseId = id;
      output = [];
      tokens = [0, 0];
    }
    return step;
  };
  /** A `stats` value: the growth of the accumulated token usage goes to the open step's LLM span. */
  const stats = (value: unknown) => {
    const all = (value as { usage_to_metrics?: Record<string, Metrics> } | undefined)?.usage_to_metrics;
    const m = all?.[options.usageId ?? (all.agent ? 'agent' : 'default')];
    if (!m) return;
    model = m.model_name ?? model;
    const u = m.accumulated_token_usage;
    const current = [u?.prompt_tokens ?? 0, u?.completion_tokens ?? 0];
    const before = seen;
    seen = current;
    if (!llm) return;
    tokens = tokens.map((sum, i) => sum + Math.max(0, current[i]! - before[i]!));
    llm.setAttributes({ 'gen_ai.usage.input_tokens': tokens[0], 'gen_ai.usage.output_tokens': tokens[1] });
    if (model) llm.setAttribute('gen_ai.request.model', model);
  };

  const handle = (event: PlainEvent) => {
    if (ended) return;
    const t = now(event);
    const e = event as PlainEvent & EventFields;
    const remember = (message: Record<string, unknown>, response?: string) =>
      messages.push([response, message]);
    switch (e.kind) {
      case 'ConversationStateUpdateEvent': {
        const full = (e.key === 'full_state' ? e.value : {}) as {
          execution_status?: unknown;
          stats?: unknown;
        };
        const status = e.key === 'execution_status' ? e.value : full.execution_status;
        stats(e.key === 'stats' ? e.value : full.stats);
        if (status === 'running') openRun(t);
        else if (typeof status === 'string' && run) closeRun(t, status);
        break;
      }
      case 'SystemPromptEvent':
        remember({ role: 'system', content: e.system_prompt?.text });
        break;
      case 'MessageEvent': {
        const message = { role: e.llm_message?.role ?? e.source, content: text(e.llm_message?.content) };
        if (e.source === 'agent' && e.llm_response_id) {
          ensureStep(e.llm_response_id, t);
          output.push(message);
        }
        remember(message);
        break;
      }
      case 'ActionEvent': {
        const id = e.llm_response_id ?? '';
        const parent = ensureStep(id, t);
        const call = { id: e.tool_call_id, name: e.tool_name, arguments: e.tool_call?.arguments };
        output.push({ tool_call: call });
        const previous = messages.at(-1);
        if (previous?.[0] === id) (previous[1].tool_calls as unknown[]).push(call);
        else remember({ role: 'assistant', content: text(e.thought), tool_calls: [call] }, id);
        const tool = open('tool.execute', parent, t, 'TOOL', {
          'gen_ai.tool.name': e.tool_name ?? '',
          'gen_ai.tool.call.id': e.tool_call_id ?? '',
        });
        content(tool, 'input.value', call.arguments ?? '');
        tools.set(e.tool_call_id, tool);
        break;
      }
      case 'ObservationEvent':
      case 'AgentErrorEvent':
      case 'UserRejectObservation': {
        const result = e.error ?? e.rejection_reason ?? text(e.observation?.content);
        remember({ role: 'tool', tool_call_id: e.tool_call_id, content: result });
        const tool = tools.get(e.tool_call_id);
        if (!tool) break;
        content(tool, 'output.value', result);
        if (e.error || e.observation?.is_error) tool.setStatus({ code: ERROR });
        tool.end(t);
        tools.delete(e.tool_call_id);
        break;
      }
      case 'ConversationErrorEvent':
        for (const span of [run, root]) span?.setStatus({ code: ERROR, message: `${e.code}: ${e.detail}` });
        break;
    }
    last = t;
  };

  return {
    handle,
    end() {
      if (ended) return;
      ended = true;
      last = now();
      closeRun(last);
      root.end(last);
    },
  };
}
