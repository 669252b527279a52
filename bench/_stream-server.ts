// The server side of bench/stream.ts, bench/cold.ts and bench/memory.ts, in a worker thread. A minimal agent
// server on loopback: `GET /server_info` (version 1.25.0, or 1.58.0 with `protocol: 'session'`, unsecured) and
// the event socket, which sends the `full_state` snapshot on connect (`/sockets/session`: a `sync` envelope
// first, then the snapshot as a `transient` envelope, as the real server does).
//
// The client sets the pace: on `{create: n}` the worker builds the WebSocket frames of `n` events of the
// conversation mix (bench/_corpus.ts, fresh ids and timestamps; `durable` envelopes with `seq` on the session
// protocol) as ONE buffer, before any clock starts. On `{publish: id}` it writes that buffer to the
// conversation's sockets in one write, then bumps `workerData.signal` (a shared Int32Array) so that the client,
// blocked in Atomics.wait, starts its clock with every frame already queued. While the client reads, the
// server only hands the kernel the rest of that buffer: the benchmark measures the client, not a race against
// its own server.
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import { type WebSocket, WebSocketServer } from 'ws';

// The resolve hook for the TypeScript sources, first (a variable: tsc rejects `.ts` specifiers).
const hooks = './_ts-sources.ts';
await import(hooks);
const { conversationMix } = await import('./_corpus.js');
const data = workerData as { protocol?: string; signal: Int32Array; sdk: string };
// The simulator's store (fresh ids, timestamps, the `full_state` snapshot) from the package build the clients use.
const { AgentServerStore } = (await import(
  `${data.sdk}/testing/agent-server/store.js`
)) as typeof import('../src/testing/agent-server/store.js');
/** `session`: `/sockets/session` envelopes as a 1.58.0 server sends them; `events`: bare frames of 1.25.0. */
const session = data.protocol === 'session';
// The snapshot comes on connect, and deltas are not events of the session protocol: both are left out.
const mix = conversationMix({ snapshots: false, deltas: false }).texts.map(
  (text) => JSON.parse(text) as Record<string, unknown>,
);
const store = new AgentServerStore();
const sockets = new Map<string, Set<WebSocket>>();
const prepared = new Map<string, Buffer>();
const onConnect = new Set<string>();
/** The next `seq` (and mix position) of each conversation. */
const seqs = new Map<string, number>();

/** Writes the prepared frames of conversation `id` to its sockets in one write. */
function send(id: string): void {
  const buffer = prepared.get(id) ?? Buffer.alloc(0);
  prepared.delete(id);
  // ws keeps the raw socket private; one write of the prepared frames is what makes the client set the pace.
  for (const socket of sockets.get(id) ?? [])
    (socket as unknown as { _socket: Socket })._socket.write(buffer);
}

/** One unmasked, final text frame (RFC 6455 §5.2), as a server sends it. */
function frame(text: string): Buffer {
  const payload = Buffer.from(text);
  const n = payload.length;
  const header = Buffer.alloc(n < 126 ? 2 : n < 65536 ? 4 : 10);
  header[0] = 0x81;
  if (n < 126) header[1] = n;
  else if (n < 65536) {
    header[1] = 126;
    header.writeUInt16BE(n, 2);
  } else {
    header[1] = 127;
    header.writeBigUInt64BE(BigInt(n), 2);
  }
  return Buffer.concat([header, payload]);
}

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
  } else if (/^\/api\/conversations\/[^/]+\/events\/search/.test(request.url ?? '')) {
    // A live-only subscription's REST catch-up (docs/events-and-streaming.md): nothing was persisted before
    // the frames the bench publishes, as on a real server whose conversation has just started.
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"items":[],"next_page_id":null}');
  } else if (/^\/api\/conversations\/[^/?]+$/.test(request.url ?? '')) {
    // The subscriber's keyless probe (live/connector.ts #checkKeyless: a REST read of the conversation, sent
    // as the socket opens; its answer landed among the timed first 1,000 events, --cpu-prof): an unsecured
    // server answers 200. A 404 here made every run take the SDK's error path, which no real server's takes.
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ id: decodeURIComponent(request.url!.split('/').pop()!) }));
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
  // `{create, onConnect: true}`: the prepared frames follow the snapshot at once (bench/cold.ts).
  if (onConnect.delete(id)) send(id);
});
await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));

const port = parentPort!;
port.on(
  'message',
  (message: { create?: number; id?: string; onConnect?: true; publish?: string; stop?: true }) => {
    if (message.create !== undefined) {
      // `{create: n, id}` appends to an existing conversation (bench/memory.ts streams in batches).
      const id = message.id ?? store.addConversation().id;
      const frames: Buffer[] = [];
      let lastId = '';
      let seq = seqs.get(id) ?? 0;
      for (let i = 0; i < message.create; i += 1, seq += 1) {
        lastId = crypto.randomUUID();
        const event = { ...mix[seq % mix.length], id: lastId, timestamp: store.timestamp() };
        frames.push(frame(JSON.stringify(session ? { type: 'durable', seq, event } : event)));
      }
      seqs.set(id, seq);
      prepared.set(id, Buffer.concat(frames));
      if (message.onConnect) onConnect.add(id);
      port.postMessage({ conversationId: id, lastId });
    } else if (message.publish !== undefined) {
      send(message.publish);
      Atomics.add(data.signal, 0, 1);
      Atomics.notify(data.signal, 0);
    } else if (message.stop) {
      wss.close();
      http.close(() => process.exit(0));
    }
  },
);
port.postMessage({ url: `http://127.0.0.1:${(http.address() as AddressInfo).port}` });
