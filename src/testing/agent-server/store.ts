/** A wire-shaped event as the agent server stores it (the SDK parses it; the store does not). */
export type StoredEvent = Record<string, unknown> & { id: string; timestamp: string; kind: string };

/** The statuses of `execution_status`. */
export type SimulatedExecutionStatus =
  | 'idle'
  | 'running'
  | 'paused'
  | 'waiting_for_confirmation'
  | 'finished'
  | 'error'
  | 'stuck'
  | 'deleting';

/**
 * ConversationInfo fields other than the event log (ConversationState + title, metrics,
 * created_at, updated_at). Kept as plain JSON, as the server serializes it.
 */
export interface StoredConversationInfo {
  agent: Record<string, unknown>;
  workspace: Record<string, unknown>;
  persistence_dir: string | null;
  max_iterations: number;
  stuck_detection: boolean;
  execution_status: SimulatedExecutionStatus;
  confirmation_policy: Record<string, unknown>;
  security_analyzer: Record<string, unknown> | null;
  activated_knowledge_skills: string[];
  blocked_actions: Record<string, string>;
  blocked_messages: Record<string, string>;
  last_user_message_id: string | null;
  stats: Record<string, unknown>;
  secret_registry: Record<string, unknown>;
  agent_state: Record<string, unknown>;
  title: string | null;
  metrics: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
}

export interface StoredConversation {
  id: string;
  events: StoredEvent[];
  info: StoredConversationInfo;
}

/** Called for every event published to a conversation; `persisted` is false for `full_state` snapshots. */
export type StoreEventListener = (event: StoredEvent, persisted: boolean) => void;

/**
 * In-memory state of a mock agent server: conversations, their event logs and their subscribers. Everything
 * the msw handlers and the loopback server answer comes from here, so a test can drive a conversation
 * (`publish`) and watch what clients see.
 */
/** ConversationInfo fields 1.58.0 answers that the simulated conversations do not track: their defaults. */
const INFO_DEFAULTS = {
  invoked_skills: [],
  leaf_event_id: null,
  hook_config: null,
  forked_from_conversation_id: null,
  forked_from_event_id: null,
  parent_conversation_id: null,
  sub_conversation_ids: [],
  tags: {},
  current_model_id: null,
  available_models: [],
  supports_runtime_model_switch: false,
  launched_agent_profile: null,
  client_tools: [],
  tool_module_qualnames: {},
  runtime_info: null,
} as const;

export class AgentServerStore {
  readonly conversations = new Map<string, StoredConversation>();
  readonly #listeners = new Map<string, Set<StoreEventListener>>();
  #lastMicros = 0;

  /** Adds a conversation; ids are stored dashed and lowercase, the server's canonical form. */
  addConversation(
    id: string = crypto.randomUUID(),
    info: Partial<StoredConversationInfo> = {},
  ): StoredConversation {
    const canonical = canonicalUuid(id);
    const now = new Date().toISOString();
    const conversation: StoredConversation = {
      id: canonical,
      events: [],
      info: {
        agent: {
          kind: 'Agent',
          llm: { model: 'simulated/model', api_key: '**********', usage_id: 'default' },
          tools: [{ name: 'terminal', params: {} }],
        },
        workspace: { kind: 'LocalWorkspace', working_dir: 'workspace/project' },
        persistence_dir: `workspace/conversations/${canonical.replaceAll('-', '')}`,
        max_iterations: 500,
        stuck_detection: true,
        execution_status: 'idle',
        confirmation_policy: { kind: 'NeverConfirm' },
        security_analyzer: null,
        activated_knowledge_skills: [],
        blocked_actions: {},
        blocked_messages: {},
        last_user_message_id: null,
        stats: { usage_to_metrics: {} },
        secret_registry: { secret_sources: {} },
        agent_state: {},
        title: null,
        metrics: null,
        created_at: now,
        updated_at: now,
        ...info,
      },
    };
    this.conversations.set(canonical, conversation);
    return conversation;
  }

  getConversation(id: string): StoredConversation | undefined {
    return this.conversations.get(canonicalUuid(id));
  }

  deleteConversation(id: string): boolean {
    return this.conversations.delete(canonicalUuid(id));
  }

  /** Appends a persisted event (creating the conversation if needed) and tells the subscribers. */
  appendEvent(conversationId: string, event: StoredEvent): StoredEvent {
    const conversation = this.getConversation(conversationId) ?? this.addConversation(conversationId);
    conversation.events.push(event);
    this.#applyStateUpdate(conversation, event);
    this.#notify(conversation.id, event, true);
    return event;
  }

  /** Same as `appendEvent`: what the agent or a client does to a conversation. */
  publish(conversationId: string, event: StoredEvent): StoredEvent {
    return this.appendEvent(conversationId, event);
  }

  /** Tells the subscribers without persisting (`full_state` snapshots are not in the log). */
  publishEphemeral(conversationId: string, event: StoredEvent): void {
    this.#notify(canonicalUuid(conversationId), event, false);
  }

  /** Sets `execution_status`, persisting the per-key ConversationStateUpdateEvent the server emits. */
  setStatus(conversationId: string, status: SimulatedExecutionStatus): StoredEvent {
    return this.appendEvent(conversationId, this.stateUpdate('execution_status', status));
  }

  subscribe(conversationId: string, listener: StoreEventListener): () => void {
    const id = canonicalUuid(conversationId);
    let set = this.#listeners.get(id);
    if (!set) {
      set = new Set();
      this.#listeners.set(id, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }

  subscriberCount(conversationId: string): number {
    return this.#listeners.get(canonicalUuid(conversationId))?.size ?? 0;
  }

  /**
   * The next event timestamp: naive local-looking ISO text with microseconds, strictly increasing
   * (`datetime.now().isoformat()`; microseconds are omitted when zero, as Python does).
   */
  timestamp(): string {
    const micros = Math.max(Date.now() * 1000, this.#lastMicros + 1);
    this.#lastMicros = micros;
    const date = new Date(Math.floor(micros / 1000));
    const base = date.toISOString().slice(0, 19);
    const fraction = micros % 1_000_000;
    return fraction === 0 ? base : `${base}.${String(fraction).padStart(6, '0')}`;
  }

  /** A ConversationStateUpdateEvent for one key (persisted by `appendEvent`). */
  stateUpdate(key: string, value: unknown): StoredEvent {
    return {
      id: crypto.randomUUID(),
      timestamp: this.timestamp(),
      source: 'environment',
      kind: 'ConversationStateUpdateEvent',
      key,
      value,
    };
  }

  /** The `full_state` snapshot a subscriber gets first: fresh id, never persisted. */
  fullState(conversationId: string): StoredEvent {
    return this.stateUpdate('full_state', this.state(conversationId));
  }

  /** ConversationState of a conversation (ConversationInfo minus title, metrics and timestamps). */
  state(conversationId: string): Record<string, unknown> {
    const conversation = this.getConversation(conversationId);
    if (!conversation) throw new Error(`unknown conversation ${conversationId}`);
    const {
      title: _title,
      metrics: _metrics,
      created_at: _created,
      updated_at: _updated,
      ...state
    } = conversation.info;
    return { id: conversation.id, ...structuredClone(state) };
  }

  /** ConversationInfo as `GET /api/conversations/{id}` answers it (1.58.0's fields, defaults where unset). */
  info(conversationId: string): Record<string, unknown> {
    const conversation = this.getConversation(conversationId);
    if (!conversation) throw new Error(`unknown conversation ${conversationId}`);
    return { id: conversation.id, ...INFO_DEFAULTS, ...structuredClone(conversation.info) };
  }

  /** A MessageEvent as the server stores a sent message (`POST /events`). */
  message(
    text: string,
    source: 'user' | 'agent' = 'user',
    role = source === 'user' ? 'user' : 'assistant',
  ): StoredEvent {
    return {
      id: crypto.randomUUID(),
      timestamp: this.timestamp(),
      source,
      kind: 'MessageEvent',
      llm_message: { role, content: [{ cache_prompt: false, type: 'text', text }], thinking_blocks: [] },
      activated_skills: [],
      extended_content: [],
    };
  }

  // Per-key updates change the state, as on the server.
  #applyStateUpdate(conversation: StoredConversation, event: StoredEvent): void {
    if (
      event.kind !== 'ConversationStateUpdateEvent' ||
      typeof event.key !== 'string' ||
      event.key === 'full_state'
    ) {
      if (event.kind === 'MessageEvent' && event.source === 'user')
        conversation.info.last_user_message_id = event.id;
      return;
    }
    if (event.key in conversation.info) {
      (conversation.info as unknown as Record<string, unknown>)[event.key] = event.value;
      conversation.info.updated_at = new Date().toISOString();
    }
  }

  #notify(conversationId: string, event: StoredEvent, persisted: boolean): void {
    const listeners = this.#listeners.get(conversationId);
    if (!listeners) return;
    for (const listener of [...listeners]) listener(event, persisted);
  }
}

/** The server parses dashed and 32-hex forms alike. */
export function canonicalUuid(id: string): string {
  const hex = id.replaceAll('-', '').toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex)) return id;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function isUuid(id: string): boolean {
  return (
    canonicalUuid(id) !== id || /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id)
  );
}
