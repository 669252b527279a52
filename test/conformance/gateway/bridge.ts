// A loopback HTTP proxy between two hops of the chain. As the neutral-name bridge it sits between the SDK
// and the real built-in gateway and maps the neutral names the SDK speaks to the real gateway's names and
// back (JSON keys `gateway_params` ↔ `litellm_params`, model strings `gateway_proxy/` ↔ `litellm_proxy/` and
// `compat/` ↔ `openai/`, headers `x-gateway-*` ↔ `x-litellm-*`). With `map: false` it only passes requests
// through and records them (what the external gateway receives from the built-in one).
import { createServer, request as httpRequest, type Server } from 'node:http';
import { flatHeaders, parseJson, type ReceivedRequest, readBody } from './fake-upstream.js';

type Direction = 'toReal' | 'toNeutral';

const STRING_RULES: Record<Direction, [RegExp, string][]> = {
  toReal: [
    [/^gateway_proxy\//, 'litellm_proxy/'],
    [/^compat\//, 'openai/'],
  ],
  toNeutral: [
    [/^litellm_proxy\//, 'gateway_proxy/'],
    [/^openai\//, 'compat/'],
  ],
};
const KEYS: Record<Direction, Record<string, string>> = {
  toReal: { gateway_params: 'litellm_params' },
  toNeutral: { litellm_params: 'gateway_params' },
};

/** Maps the names inside a JSON value (keys and whole-string prefixes; free text such as messages is kept). */
export function mapNames(value: unknown, direction: Direction): unknown {
  if (typeof value === 'string') {
    for (const [pattern, replacement] of STRING_RULES[direction]) {
      if (pattern.test(value)) return value.replace(pattern, replacement);
    }
    return value;
  }
  if (Array.isArray(value)) return value.map((item) => mapNames(item, direction));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [KEYS[direction][key] ?? key, mapNames(item, direction)]),
    );
  }
  return value;
}

export function mapHeaderName(name: string, direction: Direction): string {
  const [from, to] = direction === 'toReal' ? ['x-gateway-', 'x-litellm-'] : ['x-litellm-', 'x-gateway-'];
  return name.toLowerCase().startsWith(from) ? `${to}${name.slice(from.length)}` : name;
}

export interface Bridge {
  readonly url: string;
  /** Requests as they left the bridge towards the target (real names when mapping). */
  readonly received: ReceivedRequest[];
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host']);

export async function startBridge(target: string, options: { map: boolean }): Promise<Bridge> {
  const received: ReceivedRequest[] = [];
  const targetUrl = new URL(target);
  const server: Server = createServer(async (request, response) => {
    const raw = await readBody(request);
    const isJson = (request.headers['content-type'] ?? '').includes('json') && raw.length > 0;
    const body =
      isJson && options.map ? Buffer.from(JSON.stringify(mapNames(parseJson(raw), 'toReal'))) : raw;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(flatHeaders(request))) {
      // No compressed answers: the bridge must read them to map the names back.
      if (HOP_BY_HOP.has(name) || (options.map && name === 'accept-encoding')) continue;
      headers[options.map ? mapHeaderName(name, 'toReal') : name] = value;
    }
    if (body.length > 0) headers['content-length'] = String(body.length);
    received.push({
      method: request.method ?? 'GET',
      path: new URL(request.url ?? '/', 'http://bridge').pathname,
      headers,
      body: parseJson(body),
    });
    const outgoing = httpRequest(
      { host: targetUrl.hostname, port: targetUrl.port, method: request.method, path: request.url, headers },
      async (answer) => {
        const answerRaw = await readBody(answer);
        const answerJson = (answer.headers['content-type'] ?? '').includes('json');
        let out = answerRaw;
        if (answerJson && options.map) {
          try {
            out = Buffer.from(JSON.stringify(mapNames(JSON.parse(answerRaw.toString('utf8')), 'toNeutral')));
          } catch {
            // not JSON after all: passed through
          }
        }
        const answerHeaders: Record<string, string> = {};
        for (const [name, value] of Object.entries(answer.headers)) {
          if (value === undefined || HOP_BY_HOP.has(name)) continue;
          answerHeaders[options.map ? mapHeaderName(name, 'toNeutral') : name] = Array.isArray(value)
            ? value.join(', ')
            : value;
        }
        answerHeaders['content-length'] = String(out.length);
        response.writeHead(answer.statusCode ?? 502, answerHeaders);
        response.end(out);
      },
    );
    outgoing.on('error', (error) => {
      response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(`bridge: ${error.message}`);
    });
    outgoing.end(body);
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
