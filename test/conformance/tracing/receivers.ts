// Loopback OTLP receivers for the tracing differential test: an HTTP server and a gRPC endpoint (node:http2,
// plaintext) that record what the real tracing SDK sends. The gRPC port is a small TCP relay that sniffs the
// first byte of each connection: a TLS attempt (a ClientHello starts with 0x16) is recorded instead of hanging,
// anything else is piped to the HTTP/2 server.
import { createServer as createHttpServer, type IncomingHttpHeaders } from 'node:http';
import { createServer as createHttp2Server, type IncomingHttpHeaders as Http2Headers } from 'node:http2';
import { type AddressInfo, connect, createServer as createNetServer, type Socket } from 'node:net';

export interface Capture {
  transport: 'http' | 'grpc';
  /** True when the client opened TLS on the plaintext gRPC port (nothing else is observable then). */
  tls?: boolean;
  path?: string;
  headers?: Record<string, string>;
  /** HTTP: the Content-Encoding; gRPC: the grpc-encoding and whether the message frame was compressed. */
  encoding?: string;
  compressedFrame?: boolean;
}

const plain = (headers: IncomingHttpHeaders | Http2Headers): Record<string, string> =>
  Object.fromEntries(
    Object.entries(headers)
      .filter(([name]) => !name.startsWith(':'))
      .map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)]),
  );

export interface Receivers {
  httpPort: number;
  grpcPort: number;
  captures: Capture[];
  close(): Promise<void>;
}

export async function startReceivers(): Promise<Receivers> {
  const captures: Capture[] = [];
  const http = createHttpServer((req, res) => {
    req.resume();
    req.on('end', () => {
      captures.push({
        transport: 'http',
        path: req.url ?? '',
        headers: plain(req.headers),
        encoding: req.headers['content-encoding'] ?? 'identity',
      });
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  const h2 = createHttp2Server();
  h2.on('stream', (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      const body = Buffer.concat(chunks);
      captures.push({
        transport: 'grpc',
        tls: false,
        path: String(headers[':path']),
        headers: plain(headers),
        encoding: String(headers['grpc-encoding'] ?? 'identity'),
        compressedFrame: body[0] === 1,
      });
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
      // An empty ExportTraceServiceResponse: uncompressed frame of length 0.
      stream.end(Buffer.alloc(5));
    });
  });
  h2.on('sessionError', () => {});
  const sockets = new Set<Socket>();
  const grpc = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.once('data', (first: Buffer) => {
      if (first[0] === 0x16) {
        captures.push({ transport: 'grpc', tls: true });
        socket.destroy();
        return;
      }
      const upstream = connect((h2.address() as AddressInfo).port, '127.0.0.1');
      sockets.add(upstream);
      upstream.on('error', () => socket.destroy());
      upstream.on('close', () => sockets.delete(upstream));
      upstream.write(first);
      socket.pipe(upstream).pipe(socket);
    });
  });
  const listen = (server: { listen: (port: number, host: string, cb: () => void) => unknown }) =>
    new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  await listen(http);
  await listen(h2);
  await listen(grpc);
  return {
    httpPort: (http.address() as AddressInfo).port,
    grpcPort: (grpc.address() as AddressInfo).port,
    captures,
    async close() {
      for (const socket of sockets) socket.destroy();
      http.closeAllConnections();
      await Promise.all([
        new Promise<void>((resolve) => http.close(() => resolve())),
        new Promise<void>((resolve) => grpc.close(() => resolve())),
        new Promise<void>((resolve) => h2.close(() => resolve())),
      ]);
    },
  };
}
