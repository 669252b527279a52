// Runs inside Chromium: the SDK's ESM bundle against the loopback platform. Reports what it saw on
// `window.__result` for the test to assert.
import { EventsClient, isNotFoundError } from '../../src/index.js';

declare global {
  interface Window {
    __config: { agentServerUrl: string; sessionApiKey: string; conversationId: string; eventId: string };
    __result?: Record<string, unknown>;
  }
}

async function main(): Promise<Record<string, unknown>> {
  const config = window.__config;
  const events = new EventsClient({ baseUrl: config.agentServerUrl, sessionApiKey: config.sessionApiKey });
  const event = await events.get(config.conversationId, config.eventId);
  const missing = await events.get(config.conversationId, 'no-such-event').catch((error: unknown) => error);
  return { eventKind: event.kind, eventId: event.id, missingIsNotFound: isNotFoundError(missing) };
}

main().then(
  (result) => {
    window.__result = { ok: true, ...result };
  },
  (error: unknown) => {
    window.__result = { ok: false, error: String((error as Error)?.stack ?? error) };
  },
);
