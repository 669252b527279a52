/**
 * Trace ids equal to the conversation UUID. Wrap your SDK's id generator and give the result both
 * to the tracer provider (`new TracerProvider({ idGenerator })`) and to {@link createEventSpans}: it hands out
 * the conversation's id for the next root span and defers to the wrapped generator otherwise.
 */

export interface IdGenerator {
  generateTraceId(): string;
  generateSpanId(): string;
}

export interface ConversationIdGenerator extends IdGenerator {
  /** The next `generateTraceId()` returns `traceId` (32 hex digits). */
  useTraceIdOnce(traceId: string): void;
}

/** The trace id of a conversation: its UUID without dashes, lowercase; undefined when it is not a UUID. */
export function conversationTraceId(conversationId: string): string | undefined {
  const hex = conversationId.replace(/-/g, '').toLowerCase();
  return /^[\da-f]{32}$/.test(hex) ? hex : undefined;
}

/** E.g. `conversationIdGenerator(new RandomIdGenerator())` with the SDK's `RandomIdGenerator`. */
export function conversationIdGenerator(base: IdGenerator): ConversationIdGenerator {
  let next: string | undefined;
  return {
    useTraceIdOnce: (traceId) => {
      next = traceId;
    },
    generateTraceId: () => {
      const id = next ?? base.generateTraceId();
      next = undefined;
      return id;
    },
    generateSpanId: () => base.generateSpanId(),
  };
}
