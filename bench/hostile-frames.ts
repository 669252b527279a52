// Memory a hostile agent server can make a subscriber take with one frame (issue 34, items 1 and 2): the
// package's Node entry (bench/_build.ts), each case in a fresh process (bench/_hostile-frames-child.mjs), on
// the default path (on Node the ws package, maxPayload = maxFrameBytes, 16 MiB) against Node's own WebSocket
// passed as the `WebSocket` option, in the same run:
// - huge: one 96 MiB text frame, sent whole;
// - bomb: one permessage-deflate frame of 0.19 MiB that inflates to 200 MiB of "A", on every connection.
// The figure is the subscriber's RSS growth (kernel peak since the first `open` minus the RSS then), default /
// built-in. A control run (no frame: the server closes 4001) prints what the rest of a connection costs alone
// (some 15 MiB: the REST catch-up, code compiled); it is in both figures. Each run also checks how the subscription ended (SubscriptionFrameTooLargeError) and after how many
// connections (the server counts them): the built-in takes the bomb 3 times (repeated-failure.ts).
//   node bench/hostile-frames.ts [--huge-mib 96] [--bomb-mib 200]
// The server (a 1.25.0 `/sockets/events` one, REST catch-up empty) runs in this process: its memory is not
// counted. Last lines, collected by `npm run bench`: `hostile frames huge: …`, `hostile frames bomb: …`.
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { constants, deflateRawSync } from 'node:zlib';
import { WebSocketServer } from 'ws';

const hooks = './_ts-sources.ts';
await import(hooks);
const { option } = await import('./_stats.js');
const { nodeEntry } = await import('./_build.js');

const MiB = 1024 * 1024;
const HUGE = option('huge-mib', 96) * MiB;
const BOMB = option('bomb-mib', 200) * MiB;
/** The growth of the default path must stay under this share of the built-in's. */
const TARGET = 0.25;
const ID = '6f1c2a4e-3b5d-4e7f-8a9b-0c1d2e3f4a5b';

function header(length: number, compressed: boolean): Buffer {
  const bytes = Buffer.alloc(10);
  bytes[0] = 0x81 | (compressed ? 0x40 : 0);
  bytes[1] = 127;
  bytes.writeBigUInt64BE(BigInt(length), 2);
  return bytes;
}
const deflated = deflateRawSync(Buffer.alloc(BOMB, 'A'), { finishFlush: constants.Z_SYNC_FLUSH });
const bomb = Buffer.concat([header(deflated.length - 4, true), deflated.subarray(0, deflated.length - 4)]);
const hugeBody = Buffer.alloc(HUGE, 'x');

let frame: 'none' | 'huge' | 'bomb' = 'huge';
let connections = 0;
const server = createServer((request, response) => {
  const path = new URL(request.url ?? '/', 'http://x').pathname;
  const json = (body: unknown) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  if (path === '/server_info') return json({ uptime: 1, idle_time: 1, title: 'hostile', version: '1.25.0' });
  if (path === `/api/conversations/${ID}`) return json({ id: ID, execution_status: 'running' });
  if (path.endsWith('/events/search')) return json({ items: [], next_page_id: null });
  response.writeHead(404).end();
});
const wss = new WebSocketServer({ noServer: true, perMessageDeflate: { threshold: 0 } });
server.on('upgrade', (request, duplex, head) => {
  wss.handleUpgrade(request, duplex, head, (socket) => {
    connections += 1;
    socket.on('error', () => undefined);
    const raw = duplex as Socket;
    const state = {
      id: 'state',
      timestamp: '2026-11-23T10:00:00.000001',
      source: 'environment',
      kind: 'ConversationStateUpdateEvent',
      key: 'full_state',
      value: { execution_status: 'running' },
    };
    // Uncompressed: the bomb must be the connection's first compressed frame (the client keeps its window).
    socket.send(JSON.stringify(state), { compress: false });
    setTimeout(() => {
      if (raw.destroyed) return;
      // The control: no frame, a close the subscription ends on (4001), to see what a connection costs alone.
      if (frame === 'none') socket.close(4001, 'control');
      else if (frame === 'bomb') raw.write(bomb);
      else {
        raw.write(header(HUGE, false));
        raw.write(hugeBody);
      }
    }, 50);
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const entry = await nodeEntry();
const child = fileURLToPath(new URL('./_hostile-frames-child.mjs', import.meta.url));

interface Run {
  error?: string;
  code?: string;
  message?: string;
  ms: number;
  growth: number;
  connections: number;
}

async function run(mode: 'default' | 'built-in'): Promise<Run> {
  connections = 0;
  // Asynchronously: the server runs in this process.
  const out = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, [child, entry, url, mode], { encoding: 'utf8' }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    ),
  );
  return { ...(JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Run), connections };
}

const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;
const lines: string[] = [];
frame = 'none';
for (const mode of ['default', 'built-in'] as const) {
  const r = await run(mode);
  console.log(`control (no frame, close 4001) ${mode}: ${r.error}, RSS +${mib(r.growth)}`);
}
for (const which of ['huge', 'bomb'] as const) {
  frame = which;
  const result: Record<string, Run> = {};
  for (const mode of ['default', 'built-in'] as const) {
    const r = await run(mode);
    result[mode] = r;
    console.log(
      `${which} ${mode}: ${r.error ?? 'no error'} after ${r.connections} connection(s), ${r.ms} ms, RSS +${mib(r.growth)}`,
    );
    if (r.error !== 'SubscriptionFrameTooLargeError') console.log(`  message: ${r.message}`);
  }
  const ratio = result.default!.growth / result['built-in']!.growth;
  const typed =
    result.default!.error === 'SubscriptionFrameTooLargeError' && result.default!.connections === 1;
  lines.push(
    `hostile frames ${which}: ${ratio.toFixed(2)}× the built-in WebSocket's RSS growth (default +${mib(result.default!.growth)}, built-in +${mib(result['built-in']!.growth)}; default ${typed ? 'typed error on the first connection' : 'NOT a typed error on the first connection'}); target <= ${TARGET}×: ${ratio <= TARGET && typed ? 'ok' : 'MISSED'}`,
  );
}
server.closeAllConnections();
server.close();
console.log(lines.join('\n'));
