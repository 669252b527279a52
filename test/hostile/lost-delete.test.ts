/**
 * Issue 18 item 6, for every client: a DELETE that took effect but lost its answer is sent once and fails as a
 * connection error. A retry would meet a 404 and report "not found" for what was just deleted.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { AgentServerClient } from '../../src/agent-server/index.js';
import { isAPIConnectionError } from '../../src/core/errors.js';
import { hostileServer } from './servers.js';

const ID = '6f1c2a4e-3b5d-4e7f-8a9b-0c1d2e3f4a5b';

/** Every DELETE takes effect; the first loses its answer (the connection drops), later ones find nothing. */
function deletesOnce() {
  const deletes: string[] = [];
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'DELETE') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"version":"1.58.0"}');
      return;
    }
    deletes.push(req.url ?? '');
    if (deletes.length === 1) res.socket?.destroy();
    else res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Not Found"}');
  };
  return { deletes, handler };
}

describe('a DELETE whose answer is lost is not retried', () => {
  const calls: [string, (client: AgentServerClient) => Promise<unknown>][] = [
    ['conversations.delete', (client) => client.conversations.delete(ID)],
    ['secrets.delete', (client) => client.secrets.delete('token')],
    ['profiles.delete', (client) => client.profiles.delete('fast')],
    ['workspaces.delete', (client) => client.workspaces.delete('/w/a')],
  ];
  it.each(calls)('%s: one request, APIConnectionError', async (_name, call) => {
    const { deletes, handler } = deletesOnce();
    const server = await hostileServer(handler);
    const client = new AgentServerClient({
      baseUrl: server.url,
      logLevel: 'off',
      maxRetries: 3,
      maxRetryDelay: 5,
    });
    const error = await call(client).catch((e: unknown) => e);
    expect(isAPIConnectionError(error), String(error)).toBe(true);
    expect(deletes).toHaveLength(1);
  });
});
