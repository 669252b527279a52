// The server side of bench/stream.ts, in a worker thread so that it does not share the client's CPU. A minimal
// agent server on loopback: `GET /server_info` (version 1.25.0, or 1.58.0 with `--protocol session`, unsecured)
// and the event socket (`/sockets/session` envelopes with `seq` in session mode), which sends
// the `full_state` snapshot on connect (notes §2.1) and, on `{publish: {conversationId, count}}`, `count` events
// built from the real sample events of test/fixtures/anchor-events (fresh ids and timestamps). The frames are
// serialized before the clock starts, so the server costs as little as possible and the clients are measured.
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { type WebSocket, WebSocketServer } from 'ws';

// The resolve hook for the TypeScript sources, first (a variable: tsc rejects `.ts` specifiers).
const hooks = './_ts-sources.ts';
await import(hooks);

const { AgentServerStore } = await import('../src/testing/agent-server/store.js');

const dir = fileURLToPath(new URL('../test/fixtures/anchor-events/', import.meta.url));
const samples = readdirSync(dir)
  .filter((file) => file.endsWith('.json'))
  .sort()
  .map((file) => JSON.parse(readFileSync(`${dir}${file}`, 'utf8')) as Record<string, unknown>)
  .filter((sample) => JSON.stringify(sample).length < 8_000);

/** `session`: `/sockets/session` envelopes as a 1.58.0 server sends them; `events`: bare frames of 1.25.0. */
const session = (workerData as { protocol?: string } | undefined)?.protocol === 'session';
const store = new AgentServerStore();
const sockets = new Map<string, Set<WebSocket>>();
const frames = new Map<string, string[]>();

const http = createServer((request, response) => {
  if (request.url === '/server_info') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        uptime: 1,
        idle_time: 0,
        title: 'OpenHands Agent Server',
        version: session ? '1.58.0' : '1.25.0',
      }),
    );
  } else {
    response.writeHead(404).end();
  }
});
const wss = new WebSocketServer({ server: http });
wss.on('connection', (socket, request) => {
  const id = decodeURIComponent((request.url ?? '').split('?')[0]!.split('/').pop()!);
  if (!sockets.has(id)) sockets.set(id, new Set());
  sockets.get(id)!.add(socket);
  socket.on('close', () => sockets.get(id)?.delete(socket));
  const state = store.fullState(id);
  if (session) {
    socket.send(JSON.stringify({ type: 'sync', through_seq: -1 }));
    socket.send(JSON.stringify({ type: 'transient', event: state }));
  } else socket.send(JSON.stringify(state));
});
await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));

const port = parentPort!;
port.on('message', (message: { create?: number; publish?: string; stop?: true }) => {
  if (message.create !== undefined) {
    const { id } = store.addConversation();
    const list: string[] = [];
    for (let i = 0; i < message.create; i += 1) {
      const sample = samples[i % samples.length]!;
      const event = { ...sample, id: crypto.randomUUID(), timestamp: store.timestamp() };
      list.push(JSON.stringify(session ? { type: 'durable', seq: i, event } : event));
    }
    frames.set(id, list);
    port.postMessage({ conversationId: id });
  } else if (message.publish !== undefined) {
    const list = frames.get(message.publish) ?? [];
    for (const socket of sockets.get(message.publish) ?? []) for (const frame of list) socket.send(frame);
    frames.delete(message.publish);
  } else if (message.stop) {
    wss.close();
    http.close(() => process.exit(0));
  }
});
port.postMessage({
  url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
  samples: samples.length,
});
