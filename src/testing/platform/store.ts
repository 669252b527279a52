/** A stored LLM profile: what was written, and whether a key is set. */
export interface StoredProfile {
  llm: Record<string, unknown>;
  api_key_set: boolean;
}

/** A platform conversation with the fields the platform returns. */
export interface StoredAppConversation {
  id: string;
  title: string | null;
  created_by_user_id: string | null;
  llm_model: string | null;
  tags: Record<string, string>;
  created_at: string;
  updated_at: string;
  conversation_url: string;
  session_api_key: string;
}

/** A custom secret: its value stays in the app. */
export interface StoredSecret {
  value: string;
  description: string;
}

export interface PlatformStoreInit {
  /**
   * A user who never stored settings, as on a fresh app: `GET /api/v1/settings` and profile writes answer 404
   * `Settings not found` until settings are stored once. Default false (an existing user).
   */
  freshUser?: boolean;
  /** Base URL of the sandbox serving conversation URLs. Default `http://sandbox.test`. */
  sandboxUrl?: string;
  /** Profiles per user (409 beyond). Default 50. */
  maxProfiles?: number;
}

/** State of a mock platform: LLM profiles and conversations (with their tags). */
export class PlatformStore {
  readonly profiles = new Map<string, StoredProfile>();
  readonly conversations = new Map<string, StoredAppConversation>();
  readonly secrets = new Map<string, StoredSecret>();
  /** The user's stored settings (what `POST /api/v1/settings` merged), `null` until stored. */
  settings: Record<string, unknown> | null;
  activeProfile: string | null = null;
  /** Whether the user's running LLM settings hold a key (set by activating a profile that has one). */
  llmApiKeySet = false;
  readonly sandboxUrl: string;
  readonly maxProfiles: number;

  constructor(init: PlatformStoreInit = {}) {
    this.sandboxUrl = (init.sandboxUrl ?? 'http://sandbox.test').replace(/\/+$/, '');
    this.maxProfiles = init.maxProfiles ?? 50;
    this.settings = init.freshUser ? null : {};
  }

  addConversation(fields: Partial<StoredAppConversation> = {}): StoredAppConversation {
    const id = fields.id ?? crypto.randomUUID();
    const now = new Date().toISOString();
    const conversation: StoredAppConversation = {
      title: null,
      created_by_user_id: null,
      llm_model: null,
      tags: {},
      created_at: now,
      updated_at: now,
      session_api_key: `conv-key-${crypto.randomUUID()}`,
      ...fields,
      id,
      conversation_url: fields.conversation_url ?? `${this.sandboxUrl}/api/conversations/${id}`,
    };
    this.conversations.set(id, conversation);
    return conversation;
  }
}
