// The agent-server double of scripts/slow-consumer-large.ts, in its own process (its memory is not the
// client's): `/server_info`, the conversation, the REST event search (paged in log order, `timestamp__gte`),
// `/sockets/session` (`after_seq` replay, `sync`, a `full_state`) and `/sockets/events` (`resend_mode=since`).
// Events are built from their index on demand (a shared padding string), so the server holds no log of its own.
// Once a first socket is ready it publishes COUNT events of BYTES each as fast as it can.
import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';

const ID = '6f1c2a4e-3b5d-4e7f-8a9b-0c1d2e3f4a5b';
const COUNT = Number(process.env.COUNT ?? 400);
const BYTES = Number(process.env.BYTES ?? 2 * 1024 * 1024);
const VERSION = process.env.VERSION ?? '1.58.2';
const padding = 'x'.repeat(BYTES);
let published = 0;
const stamp = (n) =>
  `2026-11-23T10:${String(Math.floor(n / 60000)).padStart(2, '0')}:${String(Math.floor(n / 1000) % 60).padStart(2, '0')}.${String(n % 1000).padStart(3, '0')}000`;
const event = (n) => ({
  id: `event-${n}`,
  timestamp: stamp(n + 1),
  source: 'user',
  llm_message: { role: 'user', content: [{ type: 'text', text: `message ${n}` }] },
  kind: 'MessageEvent',
  extra_padding: padding,
});
const fullState = () => ({
  id: `state-${Math.random()}`,
  timestamp: stamp(published + 1),
  source: 'environment',
  kind: 'ConversationStateUpdateEvent',
  key: 'full_state',
  value: { execution_status: 'running' },
});
const sockets = new Set();
const json = (response, status, body) =>
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://x');
  if (url.pathname === '/server_info')
    return json(response, 200, { uptime: 1, idle_time: 1, version: VERSION });
  if (url.pathname === `/api/conversations/${ID}`)
    return json(response, 200, { id: ID, execution_status: 'running' });
  if (url.pathname === `/api/conversations/${ID}/events/search`) {
    const since = url.searchParams.get('timestamp__gte');
    const desc = url.searchParams.get('sort_order') === 'TIMESTAMP_DESC';
    const limit = Number(url.searchParams.get('limit') ?? 100);
    let first = 0;
    while (since !== null && first < published && stamp(first + 1) < since) first += 1;
    const pageId = url.searchParams.get('page_id');
    if (pageId !== null) first = Math.max(first, Number(pageId.slice('event-'.length)));
    if (desc)
      return json(response, 200, { items: published ? [event(published - 1)] : [], next_page_id: null });
    const items = [];
    for (let n = first; n < Math.min(published, first + limit); n += 1) items.push(event(n));
    const next = first + limit < published ? `event-${first + limit}` : null;
    return json(response, 200, { items, next_page_id: next });
  }
  json(response, 404, { detail: 'Not Found' });
});
const wss = new WebSocketServer({ noServer: true });
let started = false;
server.on('upgrade', (request, duplex, head) => {
  const url = new URL(request.url ?? '/', 'http://x');
  wss.handleUpgrade(request, duplex, head, (socket) => {
    socket.on('error', () => undefined);
    const session = url.pathname.startsWith('/sockets/session/');
    const send = (n) =>
      socket.send(JSON.stringify(session ? { type: 'durable', seq: n, event: event(n) } : event(n)));
    const conn = { session, send, socket };
    if (session) {
      socket.send(JSON.stringify({ type: 'sync', through_seq: published - 1 }));
      const after = url.searchParams.get('after_seq');
      if (after !== null) for (let n = Number(after) + 1; n < published; n += 1) send(n);
      socket.send(JSON.stringify({ type: 'transient', event: fullState() }));
    } else {
      socket.send(JSON.stringify(fullState()));
      const since = url.searchParams.get('after_timestamp');
      if (url.searchParams.get('resend_mode') === 'since' && since !== null)
        for (let n = 0; n < published; n += 1) if (stamp(n + 1) >= since) send(n);
    }
    sockets.add(conn);
    socket.on('close', () => sockets.delete(conn));
    if (!started) {
      started = true;
      setTimeout(publish, 100);
    }
  });
});
// Publishes as fast as it can; a socket with more than 16 MiB waiting to be written is closed 1013
// `slow_consumer`, as 1.58's session socket does (docs/compatibility.md), instead of holding the publisher.
function publish() {
  if (published >= COUNT) return;
  const n = published;
  published += 1;
  for (const conn of sockets) {
    if (conn.socket.bufferedAmount > 16 * 1024 * 1024) {
      sockets.delete(conn);
      // The close frame goes after what is queued: the client reads all of it, then sees 1013 (as with 1.58).
      conn.socket.close(1013, 'slow_consumer');
    } else conn.send(n);
  }
  setImmediate(publish);
}
server.listen(0, '127.0.0.1', () =>
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`),
);
