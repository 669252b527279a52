import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  buildTraceTree,
  decodeOtlpTraces,
  findConversationTrace,
  llmAttributes,
  OtlpDecodeError,
} from '../../src/tracing.js';

const exampleText = readFileSync(
  new URL('../fixtures/gateway-runtime-tracing/otlp-http-json-trace-example.json', import.meta.url),
  'utf8',
);

/** An export request with one scope, spans given in OTLP JSON. */
const request = (spans: object[], resource: object[] = []) => ({
  resourceSpans: [{ resource: { attributes: resource }, scopeSpans: [{ scope: { name: 'test' }, spans }] }],
});
const str = (key: string, value: string) => ({ key, value: { stringValue: value } });
const int = (key: string, value: number) => ({ key, value: { intValue: String(value) } });

describe('decodeOtlpTraces', () => {
  it('decodes the OpenTelemetry example export', () => {
    const [span, ...rest] = decodeOtlpTraces(exampleText);
    expect(rest).toEqual([]);
    expect(span).toEqual({
      traceId: '5b8efff798038103d269b633813fc60c',
      spanId: 'eee19b7ec3c1b174',
      parentSpanId: 'eee19b7ec3c1b173',
      name: "I'm a server span",
      kind: 2,
      startTimeUnixNano: 1544712660000000000n,
      endTimeUnixNano: 1544712661000000000n,
      attributes: { 'my.span.attr': 'some value' },
      status: { code: 0, message: undefined },
      events: [],
      resource: { 'service.name': 'my.service' },
      scope: { name: 'my.library', version: '1.0.0' },
    });
    // Same result from the parsed object, and from an array of requests.
    expect(decodeOtlpTraces(JSON.parse(exampleText))).toEqual(decodeOtlpTraces(exampleText));
    expect(decodeOtlpTraces([JSON.parse(exampleText), JSON.parse(exampleText)])).toHaveLength(2);
  });

  it('decodes every AnyValue form, int64 strings beyond 2^53 as bigint, and status and events', () => {
    const [span] = decodeOtlpTraces(
      request([
        {
          traceId: '0af7651916cd43dd8448eb211c80319c',
          spanId: 'b7ad6b7169203331',
          name: 'x',
          kind: 3,
          startTimeUnixNano: 1700000000000000000,
          endTimeUnixNano: '1700000001123456789',
          attributes: [
            str('s', 'text'),
            { key: 'b', value: { boolValue: true } },
            int('i', 42),
            { key: 'big', value: { intValue: '9223372036854775807' } },
            { key: 'd', value: { doubleValue: 0.25 } },
            { key: 'bytes', value: { bytesValue: 'AQID' } },
            { key: 'arr', value: { arrayValue: { values: [{ stringValue: 'a' }, { intValue: '1' }] } } },
            { key: 'kv', value: { kvlistValue: { values: [str('inner', 'v')] } } },
            { key: 'empty', value: {} },
          ],
          events: [
            {
              timeUnixNano: '1700000000500000000',
              name: 'exception',
              attributes: [str('exception.type', 'E')],
            },
          ],
          status: { code: 2, message: 'boom' },
          unknownField: 'ignored',
        },
      ]),
    );
    expect(span?.attributes).toEqual({
      s: 'text',
      b: true,
      i: 42,
      big: 9223372036854775807n,
      d: 0.25,
      bytes: 'AQID',
      arr: ['a', 1],
      kv: { inner: 'v' },
      empty: null,
    });
    expect(span?.kind).toBe(3);
    expect(span?.parentSpanId).toBeUndefined();
    expect(span?.status).toEqual({ code: 2, message: 'boom' });
    expect(span?.events).toEqual([
      { name: 'exception', timeUnixNano: 1700000000500000000n, attributes: { 'exception.type': 'E' } },
    ]);
    expect(span?.endTimeUnixNano).toBe(1700000001123456789n);
  });

  it('rejects base64 ids and non-integer times, naming the field', () => {
    const base64Id = request([
      { traceId: 'W47/95gDgQPSabYzgT/GDA==', spanId: 'eee19b7ec3c1b174', name: 'x' },
    ]);
    expect(() => decodeOtlpTraces(base64Id)).toThrow(OtlpDecodeError);
    expect(() => decodeOtlpTraces(base64Id)).toThrow(/spans\[0\]\.traceId: not 32 hex digits/);
    const badTime = request([
      { traceId: '5b8efff798038103d269b633813fc60c', spanId: 'eee19b7ec3c1b174', startTimeUnixNano: '1.5e9' },
    ]);
    expect(() => decodeOtlpTraces(badTime)).toThrow(/spans\[0\]\.startTimeUnixNano/);
  });
});

describe('buildTraceTree and llmAttributes', () => {
  const t = '5b8efff798038103d269b633813fc60c';
  const span = (
    spanId: string,
    parent: string | undefined,
    name: string,
    start: number,
    attributes: object[] = [],
  ) => ({
    traceId: t,
    spanId,
    ...(parent ? { parentSpanId: parent } : {}),
    name,
    startTimeUnixNano: String(start),
    endTimeUnixNano: String(start + 10),
    attributes,
  });
  const spans = decodeOtlpTraces(
    request([
      // Out of order on purpose.
      span('0000000000000005', '0000000000000003', 'tool.execute', 40, [
        str('openinference.span.kind', 'TOOL'),
      ]),
      span('0000000000000001', undefined, 'conversation', 0, [str('openinference.span.kind', 'CHAIN')]),
      span('0000000000000004', '0000000000000003', 'llm.completion', 30, [
        str('gen_ai.request.model', 'claude-sonnet-4-5'),
        int('gen_ai.usage.input_tokens', 596),
        int('gen_ai.usage.output_tokens', 775),
        str('gen_ai.input.messages', JSON.stringify([{ role: 'user', content: 'hi' }])),
        str('gen_ai.output', 'hello'),
        str('openinference.span.kind', 'LLM'),
      ]),
      span('0000000000000002', '0000000000000001', 'conversation.run', 10),
      span('0000000000000003', '0000000000000002', 'agent.step', 20, [
        str('openinference.span.kind', 'AGENT'),
      ]),
      span('0000000000000006', '0000000000000003', 'llm.completion', 50, [
        { key: 'gen_ai.usage.cost', value: { doubleValue: 0.0123 } },
      ]),
    ]),
  );

  it('builds conversation > conversation.run > agent.step > llm.completion / tool.execute', () => {
    const roots = buildTraceTree(spans);
    const shape = (nodes: ReturnType<typeof buildTraceTree>): unknown =>
      nodes.map((n) => [n.role, n.span.name, shape(n.children)]);
    expect(shape(roots)).toEqual([
      [
        'conversation',
        'conversation',
        [
          [
            'conversation.run',
            'conversation.run',
            [
              [
                'agent.step',
                'agent.step',
                [
                  ['llm.completion', 'llm.completion', []],
                  ['tool.execute', 'tool.execute', []],
                  ['llm.completion', 'llm.completion', []],
                ],
              ],
            ],
          ],
        ],
      ],
    ]);
    const step = roots[0]?.children[0]?.children[0];
    expect(step?.children[0]?.llm).toEqual({
      model: 'claude-sonnet-4-5',
      inputTokens: 596,
      outputTokens: 775,
      inputMessages: [{ role: 'user', content: 'hi' }],
      output: 'hello',
      spanKind: 'LLM',
      cost: undefined,
    });
    expect(step?.children[2]?.llm?.cost).toBe(0.0123);
    expect(step?.children[1]?.llm).toBeUndefined();
  });

  it('reads the indexed prompt and completion attributes of the gateway client spans', () => {
    const [s] = decodeOtlpTraces(
      request([
        span('00000000000000aa', undefined, 'litellm.completion', 0, [
          str('gen_ai.prompt.0.role', 'system'),
          str('gen_ai.prompt.0.content', 'You are…'),
          str('gen_ai.prompt.1.role', 'user'),
          str('gen_ai.prompt.1.content', 'run pwd'),
          str('gen_ai.completion.0.role', 'assistant'),
          str('gen_ai.completion.0.tool_calls.0.name', 'terminal'),
          str('gen_ai.response.model', 'minimax-m2.7'),
          str('lmnr.span.type', 'LLM'),
        ]),
      ]),
    );
    expect(buildTraceTree(s ? [s] : [])[0]?.role).toBe('llm.completion');
    expect(llmAttributes(s as NonNullable<typeof s>)).toMatchObject({
      model: 'minimax-m2.7',
      inputMessages: [
        { role: 'system', content: 'You are…' },
        { role: 'user', content: 'run pwd' },
      ],
      output: [{ role: 'assistant', 'tool_calls.0.name': 'terminal' }],
      spanKind: undefined,
    });
  });

  it('finds a conversation by trace id (its UUID without dashes) or by session id', () => {
    const byTrace = findConversationTrace(spans, '5B8EFFF7-9803-8103-D269-B633813FC60C');
    expect(byTrace?.matchedBy).toBe('trace-id');
    expect(byTrace?.spans).toHaveLength(spans.length);
    expect(byTrace?.roots).toHaveLength(1);

    const conversationId = '8f2c1d3e-4b5a-4c6d-9e8f-0a1b2c3d4e5f';
    const real = decodeOtlpTraces(
      request([
        {
          traceId: '11111111111111111111111111111111',
          spanId: '1111111111111111',
          name: 'conversation',
          attributes: [str('lmnr.association.properties.session_id', conversationId)],
        },
        {
          traceId: '11111111111111111111111111111111',
          spanId: '2222222222222222',
          parentSpanId: '1111111111111111',
          name: 'agent.step',
        },
        {
          traceId: '33333333333333333333333333333333',
          spanId: '3333333333333333',
          name: 'conversation',
          attributes: [str('session.id', 'other')],
        },
      ]),
    );
    const bySession = findConversationTrace(real, conversationId);
    expect(bySession).toMatchObject({
      matchedBy: 'session-id',
      traceIds: ['11111111111111111111111111111111'],
    });
    expect(bySession?.spans.map((s) => s.name)).toEqual(['conversation', 'agent.step']);
    expect(bySession?.roots[0]?.children[0]?.role).toBe('agent.step');
    expect(findConversationTrace(real, '00000000-0000-4000-8000-000000000000')).toBeUndefined();
  });
});
