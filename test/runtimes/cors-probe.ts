// What a page on a non-loopback origin meets at the real agent server (docs/runtimes.md, "Browsers and CORS"):
// the REST call refused by CORS, reported as such by the SDK, and the socket, which does not check `Origin`.
import { EventsClient } from '../../src/index.js';

export interface CorsProbe {
  /** The error `serverInfo()` failed with, or `ok`. */
  rest: { name: string; message: string } | 'ok';
  /** Whether a WebSocket to the events socket opened from this page. */
  socketOpened: boolean;
  origin: string;
}

export async function probeCors(target: {
  url: string;
  sessionApiKey: string;
  conversationId: string;
}): Promise<CorsProbe> {
  const events = new EventsClient({
    baseUrl: target.url,
    sessionApiKey: target.sessionApiKey,
    maxRetries: 0,
    logLevel: 'off',
  });
  const rest = await events.serverInfo().then(
    () => 'ok' as const,
    (error: unknown) => ({ name: (error as Error).name, message: (error as Error).message }),
  );
  // The key in the query, which every server version takes: what is probed is the Origin, not the auth.
  const key = encodeURIComponent(target.sessionApiKey);
  const socketUrl = `${target.url.replace(/^http/, 'ws')}/sockets/events/${target.conversationId}?session_api_key=${key}`;
  const socketOpened = await new Promise<boolean>((resolve) => {
    const socket = new WebSocket(socketUrl);
    const timer = setTimeout(() => resolve(false), 10_000);
    socket.addEventListener('open', () => {
      clearTimeout(timer);
      socket.close();
      resolve(true);
    });
    socket.addEventListener('error', () => {
      clearTimeout(timer);
      resolve(false);
    });
  });
  return { rest, socketOpened, origin: location.origin };
}
