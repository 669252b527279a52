/**
 * The conversation tree `conversation` > `conversation.run` > `agent.step` > `llm.completion` /
 * `tool.execute`, recognised by the spec's names and by the names real deployments emit (e.g. the gateway
 * client's `litellm.completion`, `agent.astep`, tool spans named after the action with a `TOOL` type).
 */
import type { Attributes, AttributeValue, DecodedSpan } from './otlp-json.js';

export type SpanRole =
  | 'conversation'
  | 'conversation.run'
  | 'agent.step'
  | 'llm.completion'
  | 'tool.execute'
  | 'other';

export interface LlmAttributes {
  model?: string;
  inputTokens?: number;
  outputTokens?: number;
  /** `gen_ai.input.messages` parsed, or the indexed `gen_ai.prompt.<i>.*` attributes as objects. */
  inputMessages?: unknown;
  /** `gen_ai.output`, `gen_ai.completion`, `gen_ai.output.messages` or the indexed `gen_ai.completion.<i>.*`. */
  output?: unknown;
  /** `openinference.span.kind` (LLM, TOOL, AGENT or CHAIN). */
  spanKind?: string;
  /** `gen_ai.usage.cost`: left undefined unless the backend priced the span. */
  cost?: number;
}

export interface TraceNode {
  span: DecodedSpan;
  role: SpanRole;
  children: TraceNode[];
  /** Set on `llm.completion` nodes. */
  llm?: LlmAttributes;
}

/** The role of a span in the trace tree (docs/tracing.md). */
export function spanRole(span: DecodedSpan): SpanRole {
  const { name, attributes } = span;
  const type = attributes['openinference.span.kind'] ?? attributes['lmnr.span.type'];
  if (/^conversation(\.a?run)?$/.test(name)) return name.length > 12 ? 'conversation.run' : 'conversation';
  if (/^(acp_)?agent\.a?step$/.test(name)) return 'agent.step';
  if (type === 'LLM' || /^(llm\.completion|litellm\.(completion|responses))$/.test(name))
    return 'llm.completion';
  return type === 'TOOL' || name === 'tool.execute' ? 'tool.execute' : 'other';
}

const num = (v: AttributeValue | undefined) => (typeof v === 'number' ? v : undefined);

function parsed(v: AttributeValue | undefined): unknown {
  if (typeof v !== 'string' || !/^\s*[[{]/.test(v)) return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

/** Indexed attributes `<prefix>.<i>.<rest>` as an array of objects keyed by `<rest>`. */
function indexed(a: Attributes, prefix: string): Record<string, AttributeValue>[] | undefined {
  const out: Record<string, AttributeValue>[] = [];
  for (const [key, value] of Object.entries(a)) {
    const m = /^(\d+)\.(.+)$/.exec(key.startsWith(`${prefix}.`) ? key.slice(prefix.length + 1) : '');
    if (!m) continue;
    const i = Number(m[1]);
    out[i] = { ...out[i], [m[2] as string]: value };
  }
  return out.length ? out : undefined;
}

/** The LLM attributes (docs/tracing.md) of a span. */
export function llmAttributes(span: DecodedSpan): LlmAttributes {
  const a = span.attributes;
  const g = (key: string) => a[`gen_ai.${key}`];
  const kind = a['openinference.span.kind'];
  return {
    model: (g('request.model') ?? g('response.model')) as string | undefined,
    inputTokens: num(g('usage.input_tokens')),
    outputTokens: num(g('usage.output_tokens')),
    inputMessages: parsed(g('input.messages')) ?? indexed(a, 'gen_ai.prompt'),
    output: parsed(g('output') ?? g('completion') ?? g('output.messages')) ?? indexed(a, 'gen_ai.completion'),
    spanKind: typeof kind === 'string' ? kind : undefined,
    cost: num(g('usage.cost')),
  };
}

/** Builds the trees of `spans` (one root per trace, or more when parents are missing), children by start time. */
export function buildTraceTree(spans: readonly DecodedSpan[]): TraceNode[] {
  const nodes = new Map<string, TraceNode>();
  for (const span of spans) {
    const role = spanRole(span);
    nodes.set(`${span.traceId}/${span.spanId}`, {
      span,
      role,
      children: [],
      ...(role === 'llm.completion' ? { llm: llmAttributes(span) } : {}),
    });
  }
  const roots: TraceNode[] = [];
  for (const node of nodes.values()) {
    const { traceId, parentSpanId } = node.span;
    const parent = parentSpanId && nodes.get(`${traceId}/${parentSpanId}`);
    (parent ? parent.children : roots).push(node);
  }
  const order = (list: TraceNode[]) => {
    list.sort((x, y) => (x.span.startTimeUnixNano < y.span.startTimeUnixNano ? -1 : 1));
    for (const n of list) order(n.children);
  };
  order(roots);
  return roots;
}

/** Attributes that carry the conversation id as a session id, searched by {@link findConversationTrace}. */
export const SESSION_ID_KEYS = [
  'session.id',
  'gen_ai.conversation.id',
  'lmnr.association.properties.session_id',
];

export interface ConversationTrace {
  matchedBy: 'trace-id' | 'session-id';
  traceIds: string[];
  spans: DecodedSpan[];
  roots: TraceNode[];
}

/**
 * A conversation's spans: the trace whose id is the conversation UUID without dashes or, since real
 * deployments start traces with random ids, every trace holding a span whose session id is the conversation id.
 */
export function findConversationTrace(
  spans: readonly DecodedSpan[],
  conversationId: string,
  sessionKeys: readonly string[] = SESSION_ID_KEYS,
): ConversationTrace | undefined {
  const norm = (v: unknown) => String(v).replace(/-/g, '').toLowerCase();
  const id = norm(conversationId);
  const byTraceId = spans.some((s) => s.traceId === id);
  const bySession = () => spans.filter((s) => sessionKeys.some((k) => norm(s.attributes[k]) === id));
  const traceIds = byTraceId ? [id] : [...new Set(bySession().map((s) => s.traceId))];
  if (!traceIds.length) return undefined;
  const found = spans.filter((s) => traceIds.includes(s.traceId));
  const matchedBy = byTraceId ? 'trace-id' : 'session-id';
  return { matchedBy, traceIds, spans: found, roots: buildTraceTree(found) };
}
