// A fresh process of bench/hostile-frames.ts: one subscription through the package's Node entry to the hostile
// server, on the default path (no WebSocket option: on Node the ws package with maxPayload) or with Node's own
// WebSocket passed in. Plain JavaScript, so that the client carries no TypeScript loader.
//   node bench/_hostile-frames-child.mjs <entry> <url> <default|built-in>
// Prints one JSON line: how the subscription ended, and the RSS growth from the first `open` to the peak. The
// peak is the kernel's (no sample can miss it), reset at `open` where Linux allows it (/proc/self/clear_refs
// "5" resets VmHWM): the peak of loading the SDK is not the frame's.
import { readFileSync, writeFileSync } from 'node:fs';

const [entry, url, mode] = process.argv.slice(2);
/** The peak RSS in bytes since the last reset (Linux), else since the process started. */
function peakRss() {
  try {
    const kib = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (kib) return Number(kib) * 1024;
  } catch {}
  return process.resourceUsage().maxRSS * 1024;
}
const { EventsClient } = await import(entry);
const ID = '6f1c2a4e-3b5d-4e7f-8a9b-0c1d2e3f4a5b';
const client = new EventsClient({ baseUrl: url, logLevel: 'off', maxRetries: 0 });
const started = performance.now();
const subscription = client.subscribe(ID, mode === 'built-in' ? { WebSocket: globalThis.WebSocket } : {});
let rssAtOpen;
subscription.once('open', () => {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch {}
  rssAtOpen = process.memoryUsage.rss();
});
subscription.on('error', () => undefined);
const ended = await new Promise((resolve) => subscription.once('close', resolve));
const peak = Math.max(peakRss(), process.memoryUsage.rss());
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
