import { headerAuth, SecretRegistry } from '../core/auth.js';
import { BaseClient } from '../core/base-client.js';
import type { RequestOptions } from '../core/options.js';
import { encodePath } from '../core/transport.js';
import { requireNonEmptyString, requireUuid } from '../core/validate.js';
import { type Event, safeParseEvent } from '../models/index.js';
import { eventNotFound, isUnknownEventIdBody } from './not-found.js';
import type { AgentServerClientOptions } from './options.js';

/** Events of agent-server conversations (spec 4.1; notes §1.2). */
export class EventsClient extends BaseClient {
  constructor(options: AgentServerClientOptions) {
    const secrets = new SecretRegistry();
    super(
      {
        ...options,
        secrets: secrets.list,
        authHeaders: headerAuth(options.sessionApiKey, 'X-Session-API-Key', secrets),
      },
      { sessionApiKey: options.sessionApiKey },
    );
  }

  /**
   * One event by id: `GET /api/conversations/{conversation_id}/events/{event_id}`.
   * Throws `NotFoundError` for an unknown conversation or event, `RequestValidationError` (before any
   * request) for a conversation id that is not a UUID or an empty event id.
   */
  async get(conversationId: string, eventId: string, options: RequestOptions = {}): Promise<Event> {
    requireUuid(conversationId, 'conversationId');
    requireNonEmptyString(eventId, 'eventId');
    return this.transport.request({
      method: 'GET',
      path: encodePath('api', 'conversations', conversationId, 'events', eventId),
      ...options,
      decode: safeParseEvent,
      // notes §1.2.5: the real server answers an unknown event id with 500 "Unknown event_id".
      isPermanent: (status, body) => status === 500 && isUnknownEventIdBody(body),
      mapError: (error) => (isUnknownEventIdBody(error.body) ? eventNotFound(error) : error),
    });
  }
}
