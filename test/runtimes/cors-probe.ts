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
  const socketUrl = `${target.url.replace(/^http/, 'ws')}/sockets/events/${target.conversationId}`;
  const socketOpened = await new Promise<boolean>((resolve) => {
    const socket = new WebSocket(socketUrl);
    const timer = setTimeout(() => resolve(false), 10_000);
    socket.addEventListener('open', () => {
      clearTimeout(timer);
      socket.send(JSON.stringify({ type: 'auth', session_api_key: target.sessionApiKey }));
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
