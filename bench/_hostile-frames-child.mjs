// A fresh process of bench/hostile-frames.ts: one subscription through the package's Node entry to the hostile
// server, on the default path (no WebSocket option: on Node the ws package with maxPayload) or with Node's own
// WebSocket passed in. Plain JavaScript, so that the client carries no TypeScript loader.
//   node bench/_hostile-frames-child.mjs <entry> <url> <default|built-in>
// Prints one JSON line: how the subscription ended, and the RSS growth from the first `open` to the peak
// (the kernel's maxRSS, so no sample can miss it).
const [entry, url, mode] = process.argv.slice(2);
const { EventsClient } = await import(entry);
const ID = '6f1c2a4e-3b5d-4e7f-8a9b-0c1d2e3f4a5b';
const client = new EventsClient({ baseUrl: url, logLevel: 'off', maxRetries: 0 });
const started = performance.now();
const subscription = client.subscribe(ID, mode === 'built-in' ? { WebSocket: globalThis.WebSocket } : {});
let rssAtOpen;
subscription.once('open', () => {
  rssAtOpen = process.memoryUsage.rss();
});
subscription.on('error', () => undefined);
const ended = await new Promise((resolve) => subscription.once('close', resolve));
const peak = process.resourceUsage().maxRSS * 1024;
console.log(
  JSON.stringify({
    error: ended.error?.name,
    code: ended.error?.code,
    message: ended.error?.message,
    ms: Math.round(performance.now() - started),
    growth: peak - (rssAtOpen ?? peak),
  }),
);
process.exit(0);
