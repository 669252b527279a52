// Runs inside Chromium: the SDK's ESM bundle against the loopback platform. Reports what it saw on
// `window.__result` for the test to assert.
import {
  EventsClient,
  isConversationStateUpdateEvent,
  isNotFoundError,
  RuntimeAdminClient,
} from '../../src/index.js';

declare global {
  interface Window {
    __config: {
      agentServerUrl: string;
      runtimeApiUrl: string;
      sessionApiKey: string;
      adminPassword: string;
      conversationId: string;
      eventId: string;
    };
    __result?: Record<string, unknown>;
  }
}

async function main(): Promise<Record<string, unknown>> {
  const config = window.__config;
  const events = new EventsClient({ baseUrl: config.agentServerUrl, sessionApiKey: config.sessionApiKey });

  // One event over REST, and the typed not-found of an unknown one.
  const event = await events.get(config.conversationId, config.eventId);
  const missing = await events.get(config.conversationId, 'no-such-event').catch((error: unknown) => error);

  // A live conversation over a real websocket: send a message, follow the agent's turn to its end.
  const subscription = events.subscribe(config.conversationId, { signal: AbortSignal.timeout(20_000) });
  let opened = false;
  subscription.once('open', () => {
    opened = true;
    void events.send(config.conversationId, { content: 'Run `pwd` please', run: true });
  });
  const kinds: string[] = [];
  for await (const live of subscription) {
    kinds.push(String(live.kind));
    if (
      isConversationStateUpdateEvent(live) &&
      live.key === 'execution_status' &&
      live.value === 'finished'
    ) {
      break;
    }
  }

  // The PBKDF2 challenge-response admin login (WebCrypto in the page), then an admin call.
  const runtime = new RuntimeAdminClient({
    baseUrl: config.runtimeApiUrl,
    adminPassword: config.adminPassword,
  });
  const token = await runtime.login();
  const apiKeys = await runtime.listApiKeys();

  return {
    eventKind: event.kind,
    eventId: event.id,
    missingIsNotFound: isNotFoundError(missing),
    socketOpened: opened,
    liveKinds: kinds,
    tokenParts: token.split('.').length,
    apiKeyNames: apiKeys.map((key) => key.name),
    secureContext: window.isSecureContext,
  };
}

main().then(
  (result) => {
    window.__result = { ok: true, ...result };
  },
  (error: unknown) => {
    window.__result = { ok: false, error: String((error as Error)?.stack ?? error) };
  },
);
