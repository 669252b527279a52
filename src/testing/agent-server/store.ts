/** A wire-shaped event as the agent server stores it (the SDK parses it; the store does not). */
export type StoredEvent = Record<string, unknown> & { id: string; timestamp: string; kind: string };

export interface StoredConversation {
  id: string;
  events: StoredEvent[];
}

/** In-memory state of a mock agent server: conversations and their event logs. */
export class AgentServerStore {
  readonly conversations = new Map<string, StoredConversation>();

  /** Adds a conversation; ids are stored dashed and lowercase, the server's canonical form. */
  addConversation(id: string = crypto.randomUUID()): StoredConversation {
    const conversation = { id: canonicalUuid(id), events: [] };
    this.conversations.set(conversation.id, conversation);
    return conversation;
  }

  getConversation(id: string): StoredConversation | undefined {
    return this.conversations.get(canonicalUuid(id));
  }

  appendEvent(conversationId: string, event: StoredEvent): StoredEvent {
    const conversation = this.getConversation(conversationId) ?? this.addConversation(conversationId);
    conversation.events.push(event);
    return event;
  }
}

/** notes §1.2.7: the server parses dashed and 32-hex forms alike. */
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
