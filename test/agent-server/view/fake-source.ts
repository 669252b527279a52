// A deterministic stand-in for what a ConversationView reads: the REST event search (newest first, `timestamp__lt`,
// `limit`, `next_page_id`), `POST /events` and a live subscription driven by hand (no sockets, no timers), so the
// view's own rules can be tested under fake timers and without depending on the machine's speed.
import { EventEmitter } from 'eventemitter3';
import type { EventsClient } from '../../../src/agent-server/index.js';
import type { ConversationView } from '../../../src/agent-server/view/conversation-view.js';
import { ConversationView as View } from '../../../src/agent-server/view/conversation-view.js';
import type { ConversationViewOptions } from '../../../src/agent-server/view/types.js';
import type { ConversationStateMirror, Event } from '../../../src/models/index.js';
import { applyStateUpdate } from '../../../src/models/index.js';

export const CONVERSATION = '6a1f3c2e-9b8d-4e7f-a6c5-0d1e2f3a4b5c';

let clock = Date.UTC(2026, 11, 1, 12, 0, 0);
/** Strictly increasing naive timestamps with microseconds, as the real server writes them. */
export function nextTimestamp(): string {
  clock += 1;
  return new Date(clock).toISOString().replace('Z', '000');
}

let counter = 0;
const nextId = () => `ev-${String(++counter).padStart(6, '0')}`;

export function userMessage(text: string, timestamp = nextTimestamp()): Event {
  return {
    id: nextId(),
    timestamp,
    source: 'user',
    kind: 'MessageEvent',
    llm_message: { role: 'user', content: [{ type: 'text', text }] },
    activated_skills: [],
    extended_content: [],
  } as unknown as Event;
}

export function agentMessage(text: string): Event {
  return {
    ...(userMessage(text) as object),
    source: 'agent',
    llm_message: { role: 'assistant', content: [{ type: 'text', text }] },
  } as unknown as Event;
}

export function action(toolCallId = `call-${counter + 1}`): Event {
  return {
    id: nextId(),
    timestamp: nextTimestamp(),
    source: 'agent',
    kind: 'ActionEvent',
    thought: [],
    thinking_blocks: [],
    action: { kind: 'TerminalAction', command: 'ls', is_input: false, reset: false },
    tool_name: 'terminal',
    tool_call_id: toolCallId,
    tool_call: { id: toolCallId, name: 'terminal', arguments: '{}', origin: 'completion' },
    llm_response_id: 'resp-1',
    security_risk: 'LOW',
  } as unknown as Event;
}

export function observation(of: Event): Event {
  const a = of as unknown as { id: string; tool_call_id: string };
  return {
    id: nextId(),
    timestamp: nextTimestamp(),
    source: 'environment',
    kind: 'ObservationEvent',
    tool_name: 'terminal',
    tool_call_id: a.tool_call_id,
    action_id: a.id,
    observation: { kind: 'TerminalObservation', content: [{ type: 'text', text: 'ok' }], is_error: false },
  } as unknown as Event;
}

export function agentError(of: Event): Event {
  const a = of as unknown as { tool_call_id: string };
  return {
    id: nextId(),
    timestamp: nextTimestamp(),
    source: 'agent',
    kind: 'AgentErrorEvent',
    tool_name: 'terminal',
    tool_call_id: a.tool_call_id,
    error: 'not executable',
  } as unknown as Event;
}

export function stateUpdate(key: string, value: unknown): Event {
  return {
    id: nextId(),
    timestamp: nextTimestamp(),
    source: 'environment',
    kind: 'ConversationStateUpdateEvent',
    key,
    value,
  } as unknown as Event;
}

/** A live subscription driven by the test: `connect()` makes it ready, `emit` delivers. */
export class FakeSubscription extends EventEmitter {
  state: ConversationStateMirror | undefined;
  readonly ready: Promise<ConversationStateMirror>;
  closed = false;
  #resolve!: (state: ConversationStateMirror) => void;
  #reject!: (error: Error) => void;

  constructor() {
    super();
    this.ready = new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    this.ready.catch(() => undefined);
  }

  connect(state: ConversationStateMirror, resumed = false): void {
    this.state = state;
    this.#resolve(state);
    this.emit('state', state);
    this.emit('open', { connection: 1, resumed, auth: 'none', serverVersion: '1.58.2', protocol: 'session' });
  }

  /** A persisted event, live (state updates also move the mirror, as the live layer does). */
  deliver(event: Event): void {
    if (event.kind === 'ConversationStateUpdateEvent') {
      this.state = applyStateUpdate(this.state, event as never);
      this.emit('event', event);
      this.emit('state', this.state);
      return;
    }
    this.emit('event', event);
  }

  fail(error: Error): void {
    this.#reject(error);
    this.closed = true;
    this.emit('close', { reason: 'error', error });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.#reject(new Error('closed'));
    this.emit('close', { reason: 'closed' });
  }
}

export interface FakeSourceOptions {
  /** Whether `send` persists the user message (and delivers it live when connected). Default true. */
  echo?: boolean;
  /** Makes `send` fail with this error. */
  sendError?: Error;
}

/** The history, the live subscription and the counters of one fake conversation. */
export class FakeSource {
  readonly history: Event[] = [];
  readonly subscriptions: FakeSubscription[] = [];
  /** Every search query asked, as passed. */
  readonly queries: Record<string, unknown>[] = [];
  readonly sent: unknown[] = [];
  options: FakeSourceOptions;
  /** Resolvers of page reads held back by `holdPages()`. */
  #held: (() => void)[] | undefined;

  constructor(options: FakeSourceOptions = {}) {
    this.options = options;
  }

  get live(): FakeSubscription {
    const sub = this.subscriptions.at(-1);
    if (!sub) throw new Error('no subscription');
    return sub;
  }

  /** Persists events (not delivered live). */
  store(...events: Event[]): void {
    this.history.push(...events);
  }

  /** Persists and delivers live. */
  publish(...events: Event[]): void {
    for (const event of events) {
      this.history.push(event);
      this.live.deliver(event);
    }
  }

  /** Page reads wait until `releasePages()`. */
  holdPages(): void {
    this.#held = [];
  }

  releasePages(): void {
    const held = this.#held ?? [];
    this.#held = undefined;
    for (const release of held) release();
  }

  view(options: ConversationViewOptions = {}): ConversationView {
    return new View(CONVERSATION, this.client(), options);
  }

  client(): EventsClient {
    return {
      subscribe: () => {
        const sub = new FakeSubscription();
        this.subscriptions.push(sub);
        return sub;
      },
      pages: (_id: string, query: Record<string, unknown>) => this.#pages(query),
      send: async (_id: string, message: unknown) => {
        this.sent.push(message);
        if (this.options.sendError) throw this.options.sendError;
        if (this.options.echo === false) return;
        const text =
          typeof message === 'object' && message !== null
            ? (message as { content: string }).content
            : message;
        const echo = userMessage(String(text));
        this.history.push(echo);
        this.subscriptions.at(-1)?.deliver(echo);
      },
    } as unknown as EventsClient;
  }

  #pages(query: Record<string, unknown>): AsyncIterable<{ items: Event[]; nextPageId: string | null }> {
    this.queries.push(query);
    const source = this;
    const limit = (query.limit as number | undefined) ?? 100;
    const lt = query.timestampLt as string | undefined;
    return {
      async *[Symbol.asyncIterator]() {
        let next: string | undefined;
        for (let first = true; first || next !== undefined; first = false) {
          if (source.#held) await new Promise<void>((resolve) => source.#held?.push(resolve));
          // The server's paging: from the event `next_page_id` named, in the order of the history now.
          const matching = source.history
            .filter((event) => lt === undefined || (event.timestamp as string) < lt)
            .reverse();
          const start = next === undefined ? 0 : matching.findIndex((event) => event.id === next);
          const items = matching.slice(start, start + limit);
          const following = matching[start + limit];
          next = following ? (following.id as string) : undefined;
          yield { items, nextPageId: next ?? null };
        }
      },
    };
  }
}

/** Lets every queued microtask and promise continuation run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}
