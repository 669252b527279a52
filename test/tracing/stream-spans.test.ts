import { readFileSync } from 'node:fs';
import * as api from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { RandomIdGenerator, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Event } from '../../src/models/index.js';
import {
  buildTraceTree,
  conversationIdGenerator,
  createEventSpans,
  type DecodedSpan,
  decodeOtlpTraces,
  type EventSpansOptions,
  findConversationTrace,
  type PlainEvent,
  type TraceNode,
} from '../../src/tracing.js';
import { startReceiver } from './otlp-receiver.js';

// The SDK's own parsed events (the subscriber's) are accepted as they are; tsc checks this line.
const sdkEventsAccepted: Event extends PlainEvent ? true : never = true;

const fixture = (name: string) =>
  JSON.parse(
    readFileSync(new URL(`../fixtures/anchor-events/${name}.json`, import.meta.url), 'utf8'),
  ) as PlainEvent;

const CONVERSATION = '5f1c0a2e-7d3b-4e8a-9c6f-1b2d3e4f5a6b';
const status = (value: string) => ({
  ...fixture('ConversationStateUpdateEvent.execution_status.with-nulls'),
  value,
});
const statsFixture = fixture('ConversationStateUpdateEvent.stats.with-nulls') as PlainEvent & {
  value: { usage_to_metrics: { default: { accumulated_token_usage: Record<string, number> } } };
};
/** The stats fixture with the agent's accumulated tokens moved on. */
function stats(prompt: number, completion: number): PlainEvent {
  const copy = structuredClone(statsFixture);
  Object.assign(copy.value.usage_to_metrics.default.accumulated_token_usage, {
    prompt_tokens: prompt,
    completion_tokens: completion,
  });
  return copy;
}

/** A real conversation's events (anchor fixtures), in their order, with the state updates a subscriber sees. */
const events: PlainEvent[] = [
  fixture('SystemPromptEvent'),
  { kind: 'ConversationStateUpdateEvent', key: 'full_state', value: { execution_status: 'idle' } },
  fixture('MessageEvent.user'),
  status('running'),
  fixture('ActionEvent.TerminalAction'),
  statsFixture,
  fixture('ObservationEvent.TerminalObservation'),
  fixture('ActionEvent.FinishAction'),
  stats(1300, 800),
  fixture('ObservationEvent.FinishObservation'),
  status('finished'),
];

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(() => receiver.close());

/** Runs `events` through createEventSpans on a real SDK that exports OTLP JSON to the loopback receiver. */
async function trace(
  list: PlainEvent[],
  options: Partial<EventSpansOptions> = {},
  withIdGenerator = true,
  afterEnd: PlainEvent[] = [],
) {
  const idGenerator = conversationIdGenerator(new RandomIdGenerator());
  const provider = new TracerProvider({
    ...(withIdGenerator ? { idGenerator } : {}),
    spanProcessors: [
      new SimpleSpanProcessor({ exporter: new OTLPTraceExporter({ url: `${receiver.origin}/v1/traces` }) }),
    ],
  });
  let clock = 1_770_000_000_000;
  const spans = createEventSpans({
    api,
    tracer: provider.getTracer('test'),
    conversationId: CONVERSATION,
    userId: 'user-7',
    now: () => (clock += 1000),
    ...(withIdGenerator ? { idGenerator } : {}),
    ...options,
  });
  for (const event of list) spans.handle(event);
  spans.end();
  for (const event of afterEnd) spans.handle(event);
  await provider.forceFlush();
  await provider.shutdown();
  return decodeOtlpTraces(receiver.received.map((r) => r.body));
}

const shape = (nodes: TraceNode[]): unknown => nodes.map((n) => [n.span.name, shape(n.children)]);
const attr = (span: DecodedSpan | undefined, key: string) => span?.attributes[key];

describe('createEventSpans (client-side tracing of a live event stream)', () => {
  it('builds the trace tree with the LLM attributes, sent through the official OTLP exporter', async () => {
    expect(sdkEventsAccepted).toBe(true);
    const spans = await trace(events);
    expect(receiver.received.every((r) => r.path === '/v1/traces')).toBe(true);

    const found = findConversationTrace(spans, CONVERSATION);
    expect(found?.matchedBy).toBe('trace-id');
    expect(found?.traceIds).toEqual([CONVERSATION.replaceAll('-', '')]);
    expect(shape(found?.roots ?? [])).toEqual([
      [
        'conversation',
        [
          [
            'conversation.run',
            [
              [
                'agent.step',
                [
                  ['llm.completion', []],
                  ['tool.execute', []],
                ],
              ],
              [
                'agent.step',
                [
                  ['llm.completion', []],
                  ['tool.execute', []],
                ],
              ],
            ],
          ],
        ],
      ],
    ]);
    for (const span of spans) {
      expect(attr(span, 'session.id')).toBe(CONVERSATION);
      expect(attr(span, 'user.id')).toBe('user-7');
    }

    const [step1, step2] = found?.roots[0]?.children[0]?.children ?? [];
    const [llm1, tool1] = step1?.children ?? [];
    const [llm2, tool2] = step2?.children ?? [];
    const terminal = fixture('ActionEvent.TerminalAction') as PlainEvent & {
      tool_call: { arguments: string };
    };

    expect(llm1?.llm).toMatchObject({
      model: 'litellm_proxy/minimax-m2.7',
      inputTokens: 596,
      outputTokens: 775,
      spanKind: 'LLM',
      cost: undefined,
    });
    expect(llm1?.span.kind).toBe(3); // CLIENT
    expect(attr(llm1?.span, 'gen_ai.response.id')).toBe('chatcmpl-D5rlWUdHeehJ1YAPoStNh1wWFayTf');
    const input1 = llm1?.llm?.inputMessages as { role: string; content: string }[];
    expect(input1.map((m) => m.role)).toEqual(['system', 'user']);
    expect(input1[1]?.content).toContain('Use the terminal tool to run `pwd`');
    expect(llm1?.llm?.output).toEqual([
      {
        tool_call: {
          id: 'call_KaQ0kUcBb5tbMzhxbIx9dvoZ',
          name: 'terminal',
          arguments: terminal.tool_call.arguments,
        },
      },
    ]);

    // Second LLM call: the tokens it added, and the tool result in its input.
    expect(llm2?.llm).toMatchObject({ inputTokens: 1300 - 596, outputTokens: 800 - 775 });
    const input2 = llm2?.llm?.inputMessages as { role: string; tool_call_id?: string }[];
    expect(input2.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(input2[3]?.tool_call_id).toBe('call_KaQ0kUcBb5tbMzhxbIx9dvoZ');

    expect(tool1?.span.attributes).toMatchObject({
      'openinference.span.kind': 'TOOL',
      'gen_ai.tool.name': 'terminal',
      'gen_ai.tool.call.id': 'call_KaQ0kUcBb5tbMzhxbIx9dvoZ',
      'input.value': terminal.tool_call.arguments,
    });
    expect(attr(tool2?.span, 'output.value')).toBe(
      'The current directory has been written to tool_output.txt.',
    );
    expect(tool1?.span.status.code).toBe(0);

    // Times follow the stream: the LLM call runs from the previous event to the first action of its answer.
    const run = found?.roots[0]?.children[0]?.span;
    expect(llm1?.span.startTimeUnixNano).toBe(run?.startTimeUnixNano);
    expect(tool1?.span.startTimeUnixNano).toBe(llm1?.span.endTimeUnixNano);
    expect(step2?.span.startTimeUnixNano).toBe(tool1?.span.endTimeUnixNano);
    expect(run?.status.code).toBe(0);
  });

  it('without the id generator the trace id is random and the session id finds the conversation', async () => {
    const spans = await trace(events, {}, false);
    const found = findConversationTrace(spans, CONVERSATION);
    expect(found?.matchedBy).toBe('session-id');
    expect(found?.spans).toHaveLength(spans.length);
    expect(found?.traceIds[0]).not.toBe(CONVERSATION.replaceAll('-', ''));
  });

  it('marks tool errors, agent errors and conversation errors', async () => {
    const spans = await trace([
      status('running'),
      fixture('ActionEvent.TerminalAction.reasoning.with-nulls'),
      fixture('ObservationEvent.TerminalObservation.is_error.with-nulls'),
      {
        kind: 'ActionEvent',
        source: 'agent',
        tool_name: 'terminal',
        tool_call_id: 'call-broken',
        tool_call: { id: 'call-broken', name: 'terminal', arguments: '{' },
        llm_response_id: 'resp-2',
        action: null,
        thought: [],
      },
      {
        kind: 'AgentErrorEvent',
        source: 'agent',
        tool_name: 'terminal',
        tool_call_id: 'call-broken',
        error: 'bad JSON',
      },
      { kind: 'ConversationErrorEvent', source: 'environment', code: 'LLMError', detail: 'upstream failed' },
      status('error'),
    ]);
    const [root] = buildTraceTree(spans);
    const run = root?.children[0];
    const tools =
      run?.children.flatMap((step) => step.children.filter((n) => n.role === 'tool.execute')) ?? [];
    expect(tools.map((t) => t.span.status.code)).toEqual([2, 2]);
    expect(attr(tools[1]?.span, 'output.value')).toBe('bad JSON');
    expect(run?.span.status.code).toBe(2);
    expect(root?.span.status).toEqual({ code: 2, message: 'LLMError: upstream failed' });
  });

  it('records no content when captureContent is false', async () => {
    const spans = await trace(events, { captureContent: false });
    const keys = new Set(spans.flatMap((s) => Object.keys(s.attributes)));
    for (const key of ['gen_ai.input.messages', 'gen_ai.output', 'input.value', 'output.value']) {
      expect(keys.has(key)).toBe(false);
    }
    expect(keys.has('gen_ai.usage.input_tokens')).toBe(true);
    expect(spans).toHaveLength(1 + 1 + 2 * 3);
  });

  it('closes open spans on end() when the stream stops mid-run, and ignores later events', async () => {
    const spans = await trace(events.slice(0, 5), {}, true, events.slice(5));
    expect(spans.map((s) => s.name).sort()).toEqual(
      ['agent.step', 'conversation', 'conversation.run', 'llm.completion', 'tool.execute'].sort(),
    );
    const end = spans.find((s) => s.name === 'conversation')?.endTimeUnixNano;
    const tool = spans.find((s) => s.name === 'tool.execute');
    for (const span of spans) {
      // The LLM call ended when its answer arrived; everything else ends with the conversation.
      expect(span.endTimeUnixNano).toBe(span.name === 'llm.completion' ? tool?.startTimeUnixNano : end);
    }
  });
});
