// Records the raw frames a real agent server sends on its event sockets (the legacy `/sockets/events` and,
// from 1.45.0, `/sockets/session`), with the built-in WebSocket and query-string auth (which every version takes).
import type { RealAgentServer } from './agent-server.js';

export type SocketProtocol = 'events' | 'session';

export interface SocketCapture {
  readonly frames: string[];
  readonly opened: Promise<void>;
  /** Resolves when at least `count` frames arrived; bounded. */
  waitForFrames(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<{ code: number; reason: string } | undefined>;
}

export function captureSocket(
  server: RealAgentServer,
  conversationId: string,
  protocol: SocketProtocol,
): SocketCapture {
  const base = server.url.replace(/^http/, 'ws');
  const query =
    protocol === 'events'
      ? `session_api_key=${encodeURIComponent(server.sessionApiKey)}&resend_all=true`
      : `session_api_key=${encodeURIComponent(server.sessionApiKey)}&after_seq=-1`;
  const socket = new WebSocket(`${base}/sockets/${protocol}/${conversationId}?${query}`);
  const frames: string[] = [];
  let closed: { code: number; reason: string } | undefined;
  const closedPromise = new Promise<void>((resolve) => {
    socket.addEventListener('close', (event) => {
      closed = { code: event.code, reason: event.reason };
      resolve();
    });
  });
  const opened = new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve());
    socket.addEventListener('error', () => reject(new Error(`socket ${protocol} failed to open`)));
  });
  opened.catch(() => {});
  socket.addEventListener('message', (event) => {
    frames.push(typeof event.data === 'string' ? event.data : String(event.data));
  });
  return {
    frames,
    opened,
    async waitForFrames(count, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (frames.length < count && closed === undefined) {
        if (Date.now() > deadline)
          throw new Error(`socket ${protocol}: ${frames.length}/${count} frames after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async close() {
      if (closed === undefined) {
        socket.close();
        await Promise.race([closedPromise, new Promise((resolve) => setTimeout(resolve, 2000))]);
      }
      return closed;
    },
  };
}
