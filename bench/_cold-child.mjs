// A fresh process of bench/cold.ts: connects to the conversation and prints the moment (epoch milliseconds,
// `performance.timeOrigin` based) it holds the first event the server published, parsed.
//   node bench/_cold-child.mjs bare <url> <protocol> <conversationId> <eventId>
//   node bench/_cold-child.mjs sdk <url> <protocol> <conversationId> <eventId> <path of the built Node entry>
// Plain JavaScript, so that neither client pays for stripping TypeScript types.
const [mode, url, protocol, id, eventId, entry] = process.argv.slice(2);
const done = () => {
  process.stdout.write(`${JSON.stringify({ at: performance.timeOrigin + performance.now() })}\n`);
  process.exit(0);
};

if (mode === 'bare') {
  // What the bare client has to do itself: open the socket, JSON.parse each frame, find the event.
  const socket = new WebSocket(`${url.replace('http', 'ws')}/sockets/${protocol}/${id}`);
  socket.addEventListener('message', (message) => {
    const value = JSON.parse(message.data);
    if ((value.event ?? value).id === eventId) done();
  });
} else {
  // The package's Node entry, as `import { EventsClient } from 'agent-platform-sdk'` loads it on Node.
  const { EventsClient } = await import(entry);
  const client = new EventsClient({ baseUrl: url, logLevel: 'off' });
  for await (const event of client.subscribe(id)) if (event.id === eventId) done();
}
