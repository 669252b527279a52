// A fresh process of bench/memory.ts (run with --expose-gc and an IPC channel). Plain JavaScript, so that
// neither client carries the TypeScript loader.
//   idle:   node --expose-gc bench/_memory-child.mjs idle <bare|sdk> <url> <protocol> <entry>
//           gets `{ids, warm}` (`warm` spare conversations, then the measured ones), opens one socket or subscription per
//           conversation, and answers `{perConnection, connecting}`: heap bytes per open, idle connection, 6 s
//           after connecting (idle HTTP keep-alive connections closed) and 300 ms after.
//   stream: node --expose-gc bench/_memory-child.mjs stream <bare|sdk> <url> <protocol> <entry> <id> <batch>
//           follows conversation <id>, answers `{ready}` once open, `{batch}` after every <batch> events, and
//           samples the RSS there; `{done}` ends it with `{rss0, peak, end, heap, heapTotal}`
//           (heap: heap used after GC minus before; heapTotal: peak growth of the heap V8 reserved).
const [task, mode, url, protocol, entry, id, batchText] = process.argv.slice(2);
const wsUrl = (conversation) => `${url.replace('http', 'ws')}/sockets/${protocol}/${conversation}`;
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));
/** Past the keep-alive of idle HTTP connections: undici closes them after the server's hint (Node's http: 5 s). */
const IDLE_SETTLE = 6000;
const sdk = mode === 'sdk' ? await import(entry) : undefined;
const client = sdk && new sdk.EventsClient({ baseUrl: url, logLevel: 'off' });
const kept = [];

/** Opens one connection; resolves once it has the snapshot (the session socket sends a `sync` first). */
function connect(conversation, onEvent = () => {}) {
  if (sdk) {
    const subscription = client.subscribe(conversation);
    kept.push(subscription);
    const opened = new Promise((resolve) => subscription.once('open', resolve));
    void (async () => {
      for await (const event of subscription) onEvent(event);
    })();
    return opened.then(settle);
  }
  const socket = new WebSocket(wsUrl(conversation));
  kept.push(socket);
  let before = protocol === 'session' ? 2 : 1;
  return new Promise((resolve) => {
    socket.addEventListener('message', (message) => {
      const value = JSON.parse(message.data);
      if (before > 0) {
        if (--before === 0) resolve();
      } else onEvent(value);
    });
  });
}

const heap = () => {
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed;
};

process.once('message', async (message) => {
  if (task === 'idle') {
    // Spare connections first, WARM of them: what every connection shares is not a cost of the next one:
    // parsers built on first use, undici's pools, and the code V8 optimises once the connect path is hot (one
    // spare left it out: the figure then depended on the number of connections, 82 KiB per subscription with
    // 50 and 64 KiB with 100).
    const spares = message.ids.slice(0, message.warm);
    const ids = message.ids.slice(message.warm);
    for (const spare of spares) await connect(spare);
    const before = heap();
    await Promise.all(ids.map((conversation) => connect(conversation)));
    await settle();
    const connecting = heap();
    // Then once the HTTP connections the subscriptions' requests left open (`/server_info`, the REST catch-up;
    // the fetch implementation keeps them alive for a few seconds, one per concurrent request) have closed:
    // what idle subscriptions keep.
    await new Promise((resolve) => setTimeout(resolve, IDLE_SETTLE));
    const after = heap();
    process.send(
      { perConnection: (after - before) / ids.length, connecting: (connecting - before) / ids.length },
      () => process.exit(0),
    );
    return;
  }
  const batch = Number(batchText);
  let count = 0;
  const samples = [];
  const heapTotals = [];
  await connect(id, () => {
    if (++count % batch === 0) {
      const { rss, heapTotal } = process.memoryUsage();
      samples.push(rss);
      heapTotals.push(heapTotal);
      process.send({ batch: count });
    }
  });
  const heap0 = heap();
  const { rss: rss0, heapTotal: heapTotal0 } = process.memoryUsage();
  process.on('message', (next) => {
    if (next.done) {
      const heapEnd = heap();
      const result = {
        rss0,
        peak: Math.max(rss0, ...samples),
        end: process.memoryUsage().rss,
        heap: heapEnd - heap0,
        heapTotal: Math.max(heapTotal0, ...heapTotals) - heapTotal0,
      };
      process.send(result, () => process.exit(0));
    }
  });
  process.send({ ready: true });
});
