// Issue 34 item 3 as a scenario run (not a timed test): a slow `for await` consumer of large events. A server
// double in its own process (scripts/_slow-consumer-server.mjs) publishes COUNT events of BYTES each as fast
// as its sockets take them; the subscriber (the TypeScript sources, the runtime's built-in WebSocket, default
// bounds: maxBufferedBytes 8 MiB, onOverflow 'pause') takes DELAY ms per event. Prints the outcome: how long
// it took, how many events were delivered (and twice), the reconnects by reason, the peak RSS of this process.
//   node --max-old-space-size=512 scripts/slow-consumer-large.ts [--protocol session|events] [--events 400]
//        [--bytes 2097152] [--delay 30] [--limit-s 120] [--live] [--socket builtin|ws|default] [--verbose]
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

// The package as the benchmarks build it (bench/_build.ts): HEAD's sources, or the working tree with
// BENCH_SOURCE=worktree, so a run before and after a change compares the two.
const hooks = '../bench/_ts-sources.ts';
await import(hooks);
const { nodeEntry, builtFrom } = await import('../bench/_build.js');
const { EventsClient } = (await import(await nodeEntry())) as typeof import('../src/index.js');

const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : (process.argv[at + 1] ?? fallback);
};
const protocol = arg('protocol', 'session') as 'session' | 'events';
const count = Number(arg('events', '400'));
const bytes = Number(arg('bytes', String(2 * 1024 * 1024)));
const delay = Number(arg('delay', '30'));
const limitMs = Number(arg('limit-s', '120')) * 1000;
const ID = '6f1c2a4e-3b5d-4e7f-8a9b-0c1d2e3f4a5b';

const child = spawn(
  process.execPath,
  [fileURLToPath(new URL('./_slow-consumer-server.mjs', import.meta.url))],
  {
    env: {
      ...process.env,
      COUNT: String(count),
      BYTES: String(bytes),
      VERSION: protocol === 'session' ? '1.58.2' : '1.25.0',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const [line] = (await once(child.stdout!, 'data')) as [Buffer];
const { port } = JSON.parse(String(line)) as { port: number };

let peakRss = process.memoryUsage().rss;
const baseRss = peakRss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 50);
const verbose = process.argv.includes('--verbose');
const t0 = performance.now();
const log = (level: string) => (line: string) =>
  verbose && console.error(`${((performance.now() - t0) / 1000).toFixed(2)} ${level} ${line}`);
const logger = { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
const client = new EventsClient({
  baseUrl: `http://127.0.0.1:${port}`,
  logger,
  logLevel: verbose ? 'debug' : 'off',
});
// `--live`: a live-only subscription (its first connection catches up over REST from subscribe()).
const live = process.argv.includes('--live');
// `--socket builtin` (the runtime's WebSocket: cannot pause reading), `ws` (the ws package: pauses), or
// `default` (what subscribe picks when none is passed).
const socketChoice = arg('socket', 'builtin');
const { WebSocket: Ws } = await import('ws');
const WebSocket = socketChoice === 'ws' ? Ws : socketChoice === 'builtin' ? globalThis.WebSocket : undefined;
const sub = client.subscribe(ID, {
  protocol,
  history: !live,
  ...(WebSocket === undefined ? {} : { WebSocket: WebSocket as never }),
});
const reasons = new Map<string, number>();
sub.on('reconnecting', (info) => {
  reasons.set(info.reason, (reasons.get(info.reason) ?? 0) + 1);
  log('reconnecting')(`${info.reason} ${info.closeCode ?? ''} delivered ${seen.size}`);
});
const seen = new Set<string>();
let twice = 0;
let outcome = 'every event';
const started = performance.now();
const timer = setTimeout(() => {
  outcome = `stopped after ${limitMs / 1000} s`;
  sub.close();
}, limitMs);
try {
  for await (const event of sub) {
    if (event.kind !== 'MessageEvent') continue;
    const id = String(event.id);
    if (seen.has(id)) twice += 1;
    seen.add(id);
    if (seen.size === count) break;
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
} catch (error) {
  outcome = `${(error as Error).name}: ${(error as Error).message}`;
}
const seconds = (performance.now() - started) / 1000;
clearTimeout(timer);
clearInterval(sampler);
child.kill();
const MiB = 1024 * 1024;
console.log(
  `package: ${builtFrom()}; protocol ${protocol}${live ? ' live only' : ''}, ${count} events of ${bytes} bytes, ${delay} ms per event`,
);
console.log(`outcome: ${outcome}`);
console.log(`reconnects: ${JSON.stringify(Object.fromEntries(reasons))}`);
console.log(`slow consumer large ${protocol} delivered: ${seen.size} of ${count}, ${twice} twice`);
console.log(
  `slow consumer large ${protocol} time: ${seconds.toFixed(1)} s (the consumer alone: ${((count * delay) / 1000).toFixed(1)} s)`,
);
console.log(
  `slow consumer large ${protocol} peak rss: ${(peakRss / MiB).toFixed(0)} MiB (+${((peakRss - baseRss) / MiB).toFixed(0)} MiB)`,
);
process.exit(0);
