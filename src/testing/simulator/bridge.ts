import { getResponse, type RequestHandler } from 'msw';
import { HttpResponse, http } from 'msw/http';
import { type AgentServerStore, isUuid, type StoredConversation } from '../agent-server/store.js';
import type { PlatformStore, StoredAppConversation } from '../platform/store.js';

export interface BridgeOptions {
  agentStore: AgentServerStore;
  platformStore: PlatformStore;
  /** The agent server's key, which is also every conversation URL's key. */
  sessionApiKey: string;
  /** Base of the agent-server routes (`*` on a loopback port of its own). */
  agentBase: string;
  /** Base of the platform-app routes. */
  appBase: string;
  /** The agent server's handlers, asked for what the bridge does not change. */
  agentHandlers: () => RequestHandler[];
  /** The platform's handlers; their sandbox routes answer for `platformStore.sandboxUrl`. */
  platformHandlers: () => RequestHandler[];
}

/**
 * Joins the agent server and the platform application into one platform: every agent-server
 * conversation is listed by the app, its `conversation_url` is the agent server's
 * `/api/conversations/{id}` with the agent server's key, and a `PATCH` with `tags` there updates the app's
 * record (tags replace the whole map) and shows in `GET /api/conversations/{id}`. Place each set before the
 * agent server's and the app's handlers: what they do not handle falls through.
 */
export function platformBridgeHandlers(options: BridgeOptions): {
  agentServer: RequestHandler[];
  app: RequestHandler[];
} {
  const { agentStore, platformStore } = options;
  const conversationUrl = (id: string) => `${platformStore.sandboxUrl}/api/conversations/${id}`;

  const record = (conversation: StoredConversation): StoredAppConversation => {
    const { info } = conversation;
    const existing = platformStore.conversations.get(conversation.id);
    const llm = info.agent.llm as { model?: unknown } | undefined;
    const fields: Partial<StoredAppConversation> = {
      title: info.title,
      llm_model: typeof llm?.model === 'string' ? llm.model : null,
      created_at: info.created_at,
      updated_at: existing && existing.updated_at > info.updated_at ? existing.updated_at : info.updated_at,
    };
    if (existing) return Object.assign(existing, fields);
    return platformStore.addConversation({
      ...fields,
      id: conversation.id,
      created_by_user_id: 'simulated-user',
      conversation_url: conversationUrl(conversation.id),
      session_api_key: options.sessionApiKey,
    });
  };

  /** The app lists what the agent server has (the real app learns it from its sandboxes). */
  const sync = () => {
    for (const conversation of agentStore.conversations.values()) record(conversation);
    for (const id of platformStore.conversations.keys()) {
      if (!agentStore.getConversation(id)) platformStore.conversations.delete(id);
    }
  };

  const app = [
    http.get(`${options.appBase}/api/v1/app-conversations/search`, () => {
      sync();
      return undefined;
    }),
  ];

  const agentServer = [
    http.patch(`${options.agentBase}/api/conversations/:conversationId`, async ({ request, params }) => {
      const body = (await request
        .clone()
        .json()
        .catch(() => null)) as Record<string, unknown> | null;
      if (!body || !('tags' in body)) return undefined;
      const conversation = agentStore.getConversation(String(params.conversationId));
      if (conversation) record(conversation);
      const id = conversation?.id ?? String(params.conversationId);
      if ('title' in body) {
        // UpdateConversationRequest {title?, tags?}: the title goes to the agent server first.
        const titled = await getResponse(
          options.agentHandlers(),
          new Request(request.url, {
            method: 'PATCH',
            headers: request.headers,
            body: JSON.stringify({ title: body.title }),
          }),
        );
        const answer = (await titled
          ?.clone()
          .json()
          .catch(() => null)) as { success?: unknown } | null | undefined;
        if (titled?.status !== 200 || answer?.success !== true) return titled;
      }
      // The platform's sandbox route keeps the tags; ask it at the canonical conversation URL.
      return getResponse(
        options.platformHandlers(),
        new Request(conversationUrl(id), {
          method: 'PATCH',
          headers: request.headers,
          body: JSON.stringify({ tags: body.tags }),
        }),
      );
    }),

    http.get(`${options.agentBase}/api/conversations/:conversationId`, async ({ request, params }) => {
      const id = String(params.conversationId);
      if (!isUuid(id)) return undefined;
      const tags = platformStore.conversations.get(agentStore.getConversation(id)?.id ?? '')?.tags;
      if (!tags) return undefined;
      const response = await getResponse(options.agentHandlers(), request);
      if (response?.status !== 200) return response;
      // Newer agent servers return `tags` with ConversationInfo.
      const info = (await response.json()) as Record<string, unknown>;
      return HttpResponse.json({ ...info, tags: { ...tags } });
    }),
  ];
  return { agentServer, app };
}
