// Cold-start benchmark: from process start to the first parsed event, for an app using `EventsClient.subscribe`
// (the package's built Node entry, bench/_build.ts) and for a bare WebSocket client doing JSON.parse, each in
// fresh processes (bench/_cold-child.mjs), rounds alternating, medians. The server (bench/_stream-server.ts,
// in a worker of this process) sends the snapshot, then one event of the conversation mix, on connect.
// Target: subscribe <= 2x the bare client.
//
// Run with Node 24:
//   node bench/cold.ts [--rounds 9] [--protocol session|events]
// The last line, `cold: <ratio>× bare WebSocket …; target ≤ 2×: ok|MISSED`, is what `npm run bench` collects.
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

const hooks = './_ts-sources.ts';
await import(hooks);
const { median, option, spread } = await import('./_stats.js');
const { nodeEntry } = await import('./_build.js');

const ROUNDS = option('rounds', 9);
const PROTOCOL = process.argv[process.argv.indexOf('--protocol') + 1] === 'events' ? 'events' : 'session';
const entry = await nodeEntry();
const child = fileURLToPath(new URL('./_cold-child.mjs', import.meta.url));

const signal = new Int32Array(new SharedArrayBuffer(4));
const worker = new Worker(new URL('./_stream-server.ts', import.meta.url), {
  workerData: { protocol: PROTOCOL, signal, sdk: await (await import('./_build.js')).sdkDir() },
});
const [{ url }] = (await once(worker, 'message')) as [{ url: string }];

/** Milliseconds from spawning a fresh `mode` client to its first parsed event. */
async function coldStart(mode: 'bare' | 'sdk'): Promise<number> {
  const reply = once(worker, 'message');
  worker.postMessage({ create: 1, onConnect: true });
  const [{ conversationId, lastId }] = (await reply) as [{ conversationId: string; lastId: string }];
  const started = performance.timeOrigin + performance.now();
  // Synchronous: this thread waits, the server (a worker) answers.
  const out = execFileSync(process.execPath, [child, mode, url, PROTOCOL, conversationId, lastId, entry], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    timeout: 30_000,
  });
  return (JSON.parse(out) as { at: number }).at - started;
}

await coldStart('bare'); // the file system cache, as for every later round
await coldStart('sdk');
const times = { bare: [] as number[], sdk: [] as number[] };
for (let round = 0; round < ROUNDS; round++) {
  for (const mode of round % 2 ? (['sdk', 'bare'] as const) : (['bare', 'sdk'] as const))
    times[mode].push(await coldStart(mode));
}
worker.postMessage({ stop: true });
await once(worker, 'exit');

const ratio = median(times.sdk) / median(times.bare);
console.log(
  `node ${process.version}; protocol ${PROTOCOL}; process start to the first parsed event, ${ROUNDS} fresh processes each; median (min–max):`,
);
console.log(
  `  bare WebSocket + JSON.parse   ${median(times.bare).toFixed(0).padStart(5)} ms (${spread(times.bare)})`,
);
console.log(
  `  EventsClient.subscribe (dist) ${median(times.sdk).toFixed(0).padStart(5)} ms (${spread(times.sdk)})`,
);
console.log(`  subscribe / bare: ${ratio.toFixed(2)}× (target <= 2×) ${ratio <= 2 ? 'ok' : 'MISSED'}`);
console.log(
  `cold: ${ratio.toFixed(2)}× bare WebSocket (process start to first parsed event); target ≤ 2×: ${ratio <= 2 ? 'ok' : 'MISSED'}`,
);
