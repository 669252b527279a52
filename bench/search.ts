// Search benchmark: HTTP requests `EventsClient.search` makes to iterate every event of a 10,000-event
// conversation from a loopback agent server. The page size is clamped to the server's maximum of 100 (notes
// §1.2.2: above it the real server answers 500), so the target is exactly ⌈10000/100⌉ = 100 requests, also
// when the caller asks for bigger pages. Every event must come once, in order.
//
// Run with Node 24 (the committed sources, transpiled by bench/_build.ts; BENCH_SOURCE to pick another):
//   node bench/search.ts [--events 10000]
// The last line, `search: <n> requests for <events> events; target = 100 requests: ok|MISSED`, is what
// `npm run bench` collects.

// The resolve hook for the TypeScript sources, first (a variable: tsc rejects `.ts` specifiers).
const hooks = './_ts-sources.ts';
await import(hooks);

// The committed sources as the package ships them (bench/_build.ts).
const { sdkDir, nodeEntry } = await import('./_build.js');
const sdk = await sdkDir();
const { EventsClient } = (await import(await nodeEntry())) as typeof import('../src/index.js');
const { serveAgentServer } = (await import(
  `${sdk}/testing/agent-server/loopback.js`
)) as typeof import('../src/testing/agent-server/loopback.js');

const index = process.argv.indexOf('--events');
const EVENTS = index >= 0 ? Number(process.argv[index + 1]) : 10_000;

const server = await serveAgentServer({ version: '1.11.4' });
const id = server.store.addConversation().id;
for (let i = 0; i < EVENTS; i += 1) server.store.publish(id, server.store.message(`message ${i}`));
const expected = server.store.getConversation(id)!.events.map((event) => event.id);

let requests = 0;
const counting: typeof fetch = (input, init) => {
  requests += 1;
  return fetch(input, init);
};
const client = new EventsClient({ baseUrl: server.url, logLevel: 'off', fetch: counting });

async function iterate(limit: number | undefined): Promise<{ requests: number; ms: number }> {
  requests = 0;
  const started = performance.now();
  const ids: string[] = [];
  for await (const event of client.search(id, limit === undefined ? {} : { limit }))
    ids.push(event.id as string);
  const ms = performance.now() - started;
  if (ids.length !== expected.length || ids.some((value, i) => value !== expected[i])) {
    throw new Error(`search returned ${ids.length} events, not the ${expected.length} stored, in order`);
  }
  return { requests, ms };
}

await iterate(undefined); // warm-up
const target = Math.ceil(EVENTS / 100);
const byDefault = await iterate(undefined);
const asked1000 = await iterate(1000);
const asked10 = await iterate(10);
await server.close();

const rate = (ms: number) => Math.round((EVENTS * 1000) / ms).toLocaleString('en-US');
console.log(`node ${process.version}; ${EVENTS} events, every one checked, in order`);
console.log(`  default page size:        ${byDefault.requests} requests, ${rate(byDefault.ms)} events/s`);
console.log(`  limit 1000 (clamped):     ${asked1000.requests} requests, ${rate(asked1000.ms)} events/s`);
console.log(`  limit 10 (as asked):      ${asked10.requests} requests, ${rate(asked10.ms)} events/s`);
const ok = byDefault.requests === target && asked1000.requests === target;
console.log(`  target: exactly ⌈${EVENTS}/100⌉ = ${target} requests ${ok ? 'ok' : 'MISSED'}`);
console.log(
  `search: ${byDefault.requests} requests for ${EVENTS} events; target = ${target} requests: ${ok ? 'ok' : 'MISSED'}`,
);
if (!ok) process.exitCode = 1;
