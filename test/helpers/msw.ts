import type { RequestHandler, WebSocketHandler } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';

/**
 * An msw server for one test file. Unhandled requests and websocket connections are errors, so a test
 * never talks to the network by accident. Returns the server and a log of every request it saw.
 */
export function useMswServer(...handlers: (RequestHandler | WebSocketHandler)[]) {
  const server = setupServer(...handlers);
  const requests: Request[] = [];
  server.events.on('request:start', ({ request }) => {
    requests.push(request.clone());
  });
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterEach(() => {
    server.resetHandlers();
    requests.length = 0;
  });
  afterAll(() => server.close());
  return { server, requests };
}
