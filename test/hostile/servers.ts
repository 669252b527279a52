import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach } from 'vitest';

/** What a hostile server saw: requests, bytes it managed to write, whether the client hung up. */
export interface ServerStats {
  requests: number;
  bytesWritten: number;
  closedByClient: number;
}

export interface HostileServer {
  url: string;
  stats: ServerStats;
  close(): Promise<void>;
}

/** Every server started by a test ends with it, and at the latest after this long. */
const LIFETIME_MS = 15_000;
const open = new Set<HostileServer>();

afterEach(async () => {
  await Promise.all([...open].map((server) => server.close()));
});

/** A loopback HTTP server of our own that misbehaves as `handler` says. */
export async function hostileServer(
  handler: (req: IncomingMessage, res: ServerResponse, stats: ServerStats) => void,
): Promise<HostileServer> {
  const stats: ServerStats = { requests: 0, bytesWritten: 0, closedByClient: 0 };
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    stats.requests++;
    res.on('close', () => {
      if (!res.writableFinished) stats.closedByClient++;
    });
    handler(req, res, stats);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  const timer = setTimeout(() => void handle.close(), LIFETIME_MS);
  timer.unref();
  const handle: HostileServer = {
    url: `http://127.0.0.1:${port}`,
    stats,
    close() {
      closing ??= new Promise<void>((resolve) => {
        clearTimeout(timer);
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
        open.delete(handle);
      });
      return closing;
    },
  };
  open.add(handle);
  return handle;
}

/** Writes `chunk` again and again, honouring backpressure, until the client hangs up or `maxBytes`. */
export function writeForever(
  res: ServerResponse,
  stats: ServerStats,
  chunk: Buffer,
  maxBytes = 1 << 30,
): void {
  const pump = () => {
    while (!res.destroyed && stats.bytesWritten < maxBytes) {
      stats.bytesWritten += chunk.byteLength;
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
  };
  res.on('error', () => undefined);
  pump();
}

/** Sends `text` one byte every `everyMs` until the client hangs up (or the text ends). */
export function trickle(res: ServerResponse, stats: ServerStats, text: string, everyMs = 1000): void {
  let i = 0;
  res.on('error', () => undefined);
  const timer = setInterval(() => {
    if (res.destroyed || i >= text.length) {
      clearInterval(timer);
      if (!res.destroyed) res.end();
      return;
    }
    res.write(text[i++]);
    stats.bytesWritten++;
  }, everyMs);
  res.on('close', () => clearInterval(timer));
}
