import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequestHandler } from 'msw';
import { getResponse } from 'msw';

export interface LoopbackServer {
  /** e.g. `http://127.0.0.1:41234` */
  url: string;
  port: number;
  /** The underlying Node server (attach a websocket server to it). */
  server: Server;
  close(): Promise<void>;
}

/**
 * Serves msw request handlers as a real HTTP server on loopback, so the same handlers answer in-process
 * (through msw) and over the network (for browsers, CLIs and other processes). Node only.
 */
export async function serveHandlers(
  handlers: RequestHandler[] | (() => RequestHandler[]),
  options: { port?: number; host?: string } = {},
): Promise<LoopbackServer> {
  // Not a literal specifier: bundlers leave it alone, so `agent-platform-sdk/testing` bundles for browsers.
  const nodeHttp = 'node:http';
  const { createServer } = (await import(
    /* webpackIgnore: true */ /* @vite-ignore */ nodeHttp
  )) as typeof import('node:http');
  const host = options.host ?? '127.0.0.1';
  const server = createServer((req, res) => {
    answer(req, res, typeof handlers === 'function' ? handlers() : handlers, host).catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: 'Internal Server Error', exception: String(error) }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function answer(req: IncomingMessage, res: ServerResponse, handlers: RequestHandler[], host: string) {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  }
  const method = req.method ?? 'GET';
  const request = new Request(`http://${req.headers.host ?? host}${req.url ?? '/'}`, {
    method,
    headers,
    ...(body && method !== 'GET' && method !== 'HEAD' ? { body } : {}),
  });
  const response = await getResponse(handlers, request);
  if (!response && method === 'OPTIONS') {
    res.writeHead(204, corsHeaders(req));
    res.end();
    return;
  }
  if (!response) {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ detail: 'Not Found' }));
    return;
  }
  const outHeaders: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    outHeaders[name] = value;
  });
  res.writeHead(response.status, { ...corsHeaders(req), ...outHeaders });
  res.end(Buffer.from(await response.arrayBuffer()));
}

/** CORS for browser tests and apps served from another loopback port (the agent server allows localhost). */
function corsHeaders(req: IncomingMessage): Record<string, string> {
  return {
    'access-control-allow-origin': req.headers.origin ?? '*',
    'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*',
    'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
    'access-control-expose-headers': '*',
  };
}
