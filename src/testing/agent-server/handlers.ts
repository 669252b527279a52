import { HttpResponse, http } from 'msw/http';
import { AgentServerStore, isUuid } from './store.js';

export interface AgentServerHandlersOptions {
  /** `{base_url}` the handlers answer for, e.g. `http://localhost:8000`. Default: any origin. */
  baseUrl?: string;
  /** When set, requests without this `X-Session-API-Key` get 401 (notes §1.1). */
  sessionApiKey?: string;
  store?: AgentServerStore;
}

/**
 * msw handlers that answer like the real agent server, quirks included (notes §1.2, §1.5): 401
 * `{"detail":"Unauthorized"}`, 422 for a non-UUID conversation id, 404 for an unknown conversation and
 * 500 "Unknown event_id" for an unknown event.
 */
export function agentServerHandlers(options: AgentServerHandlersOptions) {
  const store = options.store ?? new AgentServerStore();
  const base = options.baseUrl ? options.baseUrl.replace(/\/+$/, '') : '*';

  const unauthorized = (request: Request) =>
    options.sessionApiKey !== undefined && request.headers.get('x-session-api-key') !== options.sessionApiKey;

  return [
    http.get(`${base}/api/conversations/:conversationId/events/:eventId`, ({ request, params }) => {
      if (unauthorized(request)) return HttpResponse.json({ detail: 'Unauthorized' }, { status: 401 });
      const conversationId = String(params.conversationId);
      const eventId = String(params.eventId);
      if (!isUuid(conversationId)) return invalidUuid(conversationId);
      const conversation = store.getConversation(conversationId);
      if (!conversation) {
        return HttpResponse.json({ detail: `Conversation not found: ${conversationId}` }, { status: 404 });
      }
      const event = conversation.events.find((candidate) => candidate.id === eventId);
      if (!event) {
        return HttpResponse.json(
          { detail: 'Internal Server Error', exception: `'Unknown event_id: ${eventId}'` },
          { status: 500 },
        );
      }
      return HttpResponse.json(event);
    }),
  ];
}

/** FastAPI's 422 body for a path parameter that is not a UUID. */
function invalidUuid(value: string) {
  return HttpResponse.json(
    {
      detail: [
        {
          type: 'uuid_parsing',
          loc: ['path', 'conversation_id'],
          msg: 'Input should be a valid UUID, invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `x` at 1',
          input: value,
        },
      ],
    },
    { status: 422 },
  );
}
