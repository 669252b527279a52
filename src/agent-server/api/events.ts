import { EventsClient } from '../events-client.js';
import type { AgentServerClientOptions } from '../options.js';
import { ApiContext } from './api-context.js';
import { op } from './operation.js';

const C = '/api/conversations/{conversation_id}';

/** The operations `EventsClient` calls (its methods are this namespace's methods). */
export const EVENTS_OPERATIONS = {
  get: op('GET', `${C}/events/{event_id}`),
  search: op('GET', `${C}/events/search`),
  pages: op('GET', `${C}/events/search`),
  count: op('GET', `${C}/events/count`),
  send: op('POST', `${C}/events`),
  respondToConfirmation: op('POST', `${C}/events/respond_to_confirmation`),
} as const;

/**
 * `client.events`: the `EventsClient` (one event, paged search, count, send, live subscription), on the
 * aggregate client's options, secret registry and `/server_info` cache. Also where the other namespaces get
 * their transport from, so that there is one.
 */
export class EventsApi extends EventsClient {
  /** @internal */
  readonly context: ApiContext;

  constructor(options: AgentServerClientOptions, addSecret: (value: string | undefined) => void) {
    super(options);
    this.context = new ApiContext(this.transport, (o) => this.serverInfo(o ?? {}), addSecret);
  }
}
