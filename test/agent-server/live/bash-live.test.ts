import { describe, expect, it } from 'vitest';
import {
  AgentServerClient,
  type BashEvent,
  type BashOutput,
  type ReconnectInfo,
} from '../../../src/agent-server/index.js';
import { decodeBashFrame } from '../../../src/agent-server/live/bash-events-adapter.js';
import { bashCatchUpPageDecoder, bashCatchUpPages } from '../../../src/agent-server/live/bash-live.js';
import { isAPIUserAbortError } from '../../../src/core/errors.js';
import { observeSocketConnections } from '../../../src/testing/agent-server/socket-handlers.js';
import { agentServerApiHandlers } from '../../../src/testing.js';
import { useMswServer } from '../../helpers/msw.js';
import { simulatedServer, sleep, until } from '../simulated.js';

const KEY = 'bash-live-key-31';
const newest = simulatedServer('bash-newest.test', { version: '1.58.0', sessionApiKey: KEY });
const anchor = simulatedServer('bash-anchor.test', { version: '1.11.4', sessionApiKey: KEY });

/** The server side of every `/sockets/bash-events` connection, newest last. */
const bashSockets: { url: URL; close(code?: number, reason?: string): void }[] = [];
for (const server of [newest, anchor])
  observeSocketConnections(server.baseUrl, ({ client }) => {
    if (client.url.pathname === '/sockets/bash-events') bashSockets.push(client);
  });

// The bash routes (REST) of the same simulated servers: they share the bash log with the socket.
const bashRoutes = [newest, anchor].flatMap((server) =>
  agentServerApiHandlers({ baseUrl: server.baseUrl, store: server.store, sessionApiKey: KEY }),
);

useMswServer(...bashRoutes, ...newest.handlers, ...anchor.handlers);

function clientFor(server: { baseUrl: string }) {
  return new AgentServerClient({
    baseUrl: server.baseUrl,
    sessionApiKey: KEY,
    logLevel: 'off',
    maxRetries: 0,
  });
}

async function count(client: AgentServerClient): Promise<number> {
  let stored = 0;
  for await (const _ of client.bash.search()) stored += 1;
  return stored;
}

async function collect(stream: AsyncIterable<BashEvent>, into: BashEvent[]): Promise<unknown> {
  try {
    for await (const event of stream) into.push(event);
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('bash.live(): /sockets/bash-events on the delivery core', () => {
  it('yields typed BashCommand and BashOutput frames and the per-kind emitter names', async () => {
    const client = clientFor(newest);
    const live = client.bash.live();
    const outputs: BashOutput[] = [];
    live.on('BashOutput', (event) => outputs.push(event));
    const seen: BashEvent[] = [];
    const loop = collect(live, seen);
    await live.ready;
    const command = await client.bash.start('echo hello');
    await until(() => outputs.length === 1, 'the output');
    live.close();
    expect(await loop).toBeUndefined();
    expect(seen.map((event) => event.kind)).toEqual(['BashCommand', 'BashOutput']);
    expect(seen[0]).toMatchObject({ kind: 'BashCommand', id: command.id, command: 'echo hello' });
    expect(outputs[0]).toMatchObject({ command_id: command.id, stdout: expect.stringContaining('hello') });
    // Live only by default: the socket was asked for no resend.
    expect(bashSockets.at(-1)?.url.searchParams.has('resend_all')).toBe(false);
  });

  it.each([
    ['1.58.0', newest],
    ['1.11.4', anchor],
  ])(
    'delivers every event exactly once, in order, across a dropped connection, caught up over REST (%s)',
    async (_, server) => {
      const client = clientFor(server);
      for (let i = 0; i < 3; i += 1) await client.bash.execute(`echo before ${i}`);
      const live = client.bash.live({ history: true, reconnect: { initialDelay: 5, maxDelay: 20 } });
      const reconnects: ReconnectInfo[] = [];
      live.on('reconnecting', (info) => reconnects.push(info));
      const seen: BashEvent[] = [];
      const loop = collect(live, seen);
      const history = await count(client);
      await until(() => seen.length === history, 'the history');
      // The history comes over REST: the first socket is asked for no resend.
      const first = bashSockets.at(-1)!;
      expect(first.url.searchParams.has('resend_all')).toBe(false);
      first.close(1011, 'server restarting');
      // Published while the stream is down: the next connection's REST catch-up brings them.
      for (let i = 0; i < 2; i += 1) await client.bash.execute(`echo during ${i}`);
      await until(() => seen.length >= history + 4, 'the events published during the drop');
      for (let i = 0; i < 2; i += 1) await client.bash.execute(`echo after ${i}`);
      await until(() => seen.length >= history + 8, 'the live events after the reconnect');
      await sleep(30);
      live.close();
      await loop;
      expect(reconnects.length).toBeGreaterThan(0);
      expect(bashSockets.at(-1)).not.toBe(first);
      // The reconnect asked for no resend (all or nothing on this socket: the whole log again).
      expect(bashSockets.at(-1)!.url.searchParams.has('resend_all')).toBe(false);
      const stored: string[] = [];
      for await (const event of client.bash.search()) stored.push(event.id);
      expect(seen.map((event) => event.id)).toEqual(stored);
      expect(new Set(seen.map((event) => event.id)).size).toBe(seen.length);
    },
  );

  it('ends a for-await loop with APIUserAbortError when its signal aborts, and plainly on close()', async () => {
    const client = clientFor(newest);
    const controller = new AbortController();
    const aborted = client.bash.live({ signal: controller.signal });
    const loop = collect(aborted, []);
    await aborted.ready;
    controller.abort();
    expect(isAPIUserAbortError(await loop)).toBe(true);
    expect(aborted.closed).toBe(true);

    const closed = client.conversation(crypto.randomUUID()).bash.live();
    const closes: string[] = [];
    closed.on('close', (info) => closes.push(info.reason));
    const second = collect(closed, []);
    await closed.ready;
    closed.close();
    expect(await second).toBeUndefined();
    expect(closes).toEqual(['closed']);
  });

  it('decodes frames: a BashError reply is reported, an unknown kind is kept, a malformed frame is refused', () => {
    const error = decodeBashFrame(
      '{"kind":"BashError","code":"ValidationError","detail":"command: Field required"}',
    );
    expect(error).toMatchObject({ type: 'server-error' });
    expect(
      decodeBashFrame('{"kind":"BashSignal","id":"e1","timestamp":"2026-01-01T00:00:00"}'),
    ).toMatchObject({
      type: 'event',
      item: { id: 'e1', event: { kind: 'BashSignal' } },
    });
    expect(decodeBashFrame('{"kind":"BashOutput","id":"e2"}')).toMatchObject({ type: 'invalid' });
    expect(decodeBashFrame('not json')).toMatchObject({ type: 'invalid' });
  });

  it('orders catch-up pages by timestamp: servers before 1.31.1 sort a second by kind and id, over two pages', async () => {
    // 1.11.4's search sorts by file name, `YYYYMMDDHHMMSS_<kind>_…`: both commands of the second before both outputs.
    const command = (id: string, at: string) => ({
      kind: 'BashCommand',
      id,
      timestamp: at,
      command: 'echo',
      cwd: null,
      timeout: 300,
    });
    const output = (id: string, of: string, at: string) => ({
      kind: 'BashOutput',
      id,
      timestamp: at,
      command_id: of,
      order: 0,
      exit_code: 0,
      stdout: 'x',
      stderr: null,
    });
    // Pages as the server pages them: the page id is the file name of the next page's first event.
    const decode = bashCatchUpPageDecoder(true);
    const pagesOf = async (wire: Map<string | undefined, unknown>, maxBytes = Number.POSITIVE_INFINITY) => {
      const pages: string[][] = [];
      const fetchPage = async (pageId: string | undefined) => {
        const decoded = decode(wire.get(pageId));
        if (!decoded.success) throw new Error('not a page');
        return decoded.data;
      };
      for await (const page of bashCatchUpPages(fetchPage, maxBytes))
        pages.push(page.items.map((item) => item.id));
      return pages;
    };
    const first = [
      command('c1', '2026-11-28T00:10:25.128013Z'),
      command('c2', '2026-11-28T00:10:25.147939Z'),
    ];
    const second = [
      output('o1', 'c1', '2026-11-28T00:10:25.138984Z'),
      output('o2', 'c2', '2026-11-28T00:10:25.160235Z'),
      command('c3', '2026-11-28T00:10:26.101000Z'),
    ];
    // 1.11.4: files named by the second; the second spans both pages, so its events wait for the second page.
    expect(
      await pagesOf(
        new Map<string | undefined, unknown>([
          [undefined, { items: first, next_page_id: '20261128001025_BashOutput_c1_o1' }],
          ['20261128001025_BashOutput_c1_o1', { items: second, next_page_id: null }],
        ]),
      ),
    ).toEqual([[], ['c1', 'o1', 'c2', 'o2', 'c3']]);
    // Unless the waiting events would be over the byte bound: then the server's order across the boundary.
    const byTheSecond = new Map<string | undefined, unknown>([
      [undefined, { items: first, next_page_id: '20261128001025_BashOutput_c1_o1' }],
      ['20261128001025_BashOutput_c1_o1', { items: second, next_page_id: null }],
    ]);
    expect(await pagesOf(byTheSecond, 100)).toEqual([
      ['c1', 'c2'],
      ['o1', 'o2', 'c3'],
    ]);
    // A second over three pages, within the bound: one page, sorted.
    expect(
      await pagesOf(
        new Map<string | undefined, unknown>([
          [undefined, { items: first.slice(0, 1), next_page_id: '20261128001025_BashCommand_c2' }],
          [
            '20261128001025_BashCommand_c2',
            { items: first.slice(1), next_page_id: '20261128001025_BashOutput_c1_o1' },
          ],
          ['20261128001025_BashOutput_c1_o1', { items: second, next_page_id: null }],
        ]),
      ),
    ).toEqual([[], [], ['c1', 'o1', 'c2', 'o2', 'c3']]);
    // 1.31.1 on: named to the microsecond, in timestamp order already; nothing waits.
    expect(
      await pagesOf(
        new Map<string | undefined, unknown>([
          [undefined, { items: first, next_page_id: '20261128001025138984_BashOutput_c1_o1' }],
          ['20261128001025138984_BashOutput_c1_o1', { items: second, next_page_id: null }],
        ]),
      ),
    ).toEqual([
      ['c1', 'c2'],
      ['o1', 'o2', 'c3'],
    ]);
  });

  it.each([
    ['1.58.0', newest],
    ['1.11.4', anchor],
  ])('history: a bash log of many pages arrives whole, once, in order (%s)', async (_, server) => {
    const client = clientFor(server);
    // Over a page of 100 (and the first page of 10, while no event's size is known).
    for (let i = 0; i < 60; i += 1) await client.bash.execute(`echo page ${i}`);
    const stored: string[] = [];
    for await (const event of client.bash.search({ sortOrder: 'TIMESTAMP' })) stored.push(event.id);
    expect(stored.length).toBeGreaterThan(110);
    const live = client.bash.live({ history: true });
    const errors: Error[] = [];
    live.on('error', (error) => errors.push(error));
    const reconnects: ReconnectInfo[] = [];
    live.on('reconnecting', (info) => reconnects.push(info));
    const seen: BashEvent[] = [];
    const loop = collect(live, seen);
    await until(() => seen.length >= stored.length, 'the whole history');
    live.close();
    expect(await loop).toBeUndefined();
    expect(seen.map((event) => event.id)).toEqual(stored);
    expect(reconnects).toEqual([]);
    expect(errors).toEqual([]);
  });
});
