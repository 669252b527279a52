import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

export interface ReceivedExport {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** A loopback OTLP/HTTP JSON receiver: records every request and answers `{}` like a collector. */
export async function startReceiver() {
  const received: ReceivedExport[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let raw = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') raw = gunzipSync(raw);
      received.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: JSON.parse(raw.toString('utf8')),
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
