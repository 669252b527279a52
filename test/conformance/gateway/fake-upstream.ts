// A fake OpenAI-compatible model provider on loopback, the last hop of the gateway chain: it records every
// request it receives (path, headers, JSON body) and answers a one-word chat completion.
import { createServer, type IncomingMessage, type Server } from 'node:http';

export interface ReceivedRequest {
  method: string;
  path: string;
  /** Lower-case names, as Node gives them. */
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

export interface FakeUpstream {
  readonly url: string;
  readonly received: ReceivedRequest[];
  close(): Promise<void>;
}

export async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export function flatHeaders(request: IncomingMessage): Record<string, string> {
  return Object.fromEntries(
    Object.entries(request.headers).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.join(', ') : String(value),
    ]),
  );
}

export function parseJson(raw: Buffer): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(raw.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** Starts the upstream; calls must carry `Authorization: Bearer <key>` (else 401, as a provider answers). */
export async function startFakeUpstream(key: string): Promise<FakeUpstream> {
  const received: ReceivedRequest[] = [];
  const server: Server = createServer(async (request, response) => {
    const raw = await readBody(request);
    const path = new URL(request.url ?? '/', 'http://upstream').pathname;
    const body = parseJson(raw);
    received.push({ method: request.method ?? 'GET', path, headers: flatHeaders(request), body });
    const send = (status: number, value: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(value));
    };
    if (request.headers.authorization !== `Bearer ${key}`) {
      send(401, {
        error: {
          message: 'Incorrect API key provided',
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      });
      return;
    }
    if (request.method === 'GET' && path.endsWith('/models')) {
      send(200, {
        object: 'list',
        data: [{ id: 'up-model', object: 'model', created: 0, owned_by: 'upstream' }],
      });
      return;
    }
    if (request.method === 'POST' && path.endsWith('/chat/completions')) {
      send(200, {
        id: `chatcmpl-${received.length}`,
        object: 'chat.completion',
        created: 0,
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: 'pong' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      });
      return;
    }
    send(404, {
      error: { message: `no route ${path}`, type: 'invalid_request_error', param: null, code: null },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
