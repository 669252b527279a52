/**
 * Issue 23 item 9: the methods that gather every page stop at documented caps against a server that never
 * stops sending pages: `bash.output()` (chunks, characters) and the event scan behind `finalResponse` on
 * servers without the route.
 */
import { describe, expect, it } from 'vitest';
import { AgentServerClient } from '../../src/agent-server/index.js';
import { type CollectionLimitError, isCollectionLimitError } from '../../src/core/errors.js';
import { hostileServer } from './servers.js';

const ID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const common = { sessionApiKey: 'k-0123456789', logLevel: 'off' as const, maxRetries: 0, env: false };

/** Pages of `items(n)` forever; `n` counts pages. */
async function endlessPages(
  route: RegExp,
  items: (page: number) => unknown[],
  extra?: (url: string) => unknown,
) {
  let page = 0;
  const server = await hostileServer((req, res) => {
    req.resume();
    const url = req.url ?? '';
    const special = extra?.(url);
    if (special !== undefined) {
      const [status, body] = special as [number, unknown];
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
      return;
    }
    if (!route.test(url)) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"detail":"Not Found"}');
      return;
    }
    page++;
    res.writeHead(200, { 'content-type': 'application/json' });
    // The next page id is the id of the next page's first item, as the real server's are.
    const next = (items(page + 1)[0] as { id: string }).id;
    res.end(JSON.stringify({ items: items(page), next_page_id: next }));
  });
  return { server, pages: () => page };
}

const chunk = (page: number, i: number, text: string) => ({
  kind: 'BashOutput',
  id: `out-${page}-${i}`,
  timestamp: '2026-11-27T00:00:00',
  command_id: 'cmd-1',
  order: page * 100 + i,
  exit_code: null,
  stdout: text,
  stderr: null,
});

describe('bash.output() against endless pages', () => {
  it('stops at maxChunks with CollectionLimitError', async () => {
    const { server, pages } = await endlessPages(/bash_events\/search/, (p) =>
      Array.from({ length: 100 }, (_, i) => chunk(p, i, '')),
    );
    const client = new AgentServerClient({ baseUrl: server.url, ...common });
    const error = await client.bash.output('cmd-1', { maxChunks: 1_000 }).catch((e: unknown) => e);
    expect(isCollectionLimitError(error), String(error)).toBe(true);
    expect((error as CollectionLimitError).limit).toBe(1_000);
    expect(pages()).toBeLessThanOrEqual(11);
  });

  it('stops at maxChars with CollectionLimitError (default cap 16 Mi characters)', async () => {
    const { server, pages } = await endlessPages(/bash_events\/search/, (p) =>
      Array.from({ length: 100 }, (_, i) => chunk(p, i, 'x'.repeat(10_000))),
    );
    const client = new AgentServerClient({ baseUrl: server.url, ...common });
    const error = await client.bash.output('cmd-1').catch((e: unknown) => e);
    expect(isCollectionLimitError(error), String(error)).toBe(true);
    expect((error as CollectionLimitError).unit).toBe('characters');
    expect(pages()).toBeLessThanOrEqual(18);
  });
});

describe('finalResponse on a server without the route, against endless pages', () => {
  it('stops after maxEvents with CollectionLimitError', async () => {
    const userMessage = (p: number, i: number) => ({
      id: `e-${p}-${i}`,
      timestamp: '2026-11-27T00:00:00',
      source: 'user',
      llm_message: { role: 'user', content: [{ type: 'text', text: 'go' }] },
      activated_skills: [],
      extended_content: [],
      kind: 'MessageEvent',
    });
    const { server, pages } = await endlessPages(
      /events\/search/,
      (p) => Array.from({ length: 100 }, (_, i) => userMessage(p, i)),
      (url) =>
        url.startsWith('/server_info')
          ? [200, { uptime: 1, idle_time: 1, title: 'old', version: '1.17.0' }]
          : undefined,
    );
    const client = new AgentServerClient({ baseUrl: server.url, ...common });
    const error = await client.conversations.finalResponse(ID, { maxEvents: 500 }).catch((e: unknown) => e);
    expect(isCollectionLimitError(error), String(error)).toBe(true);
    expect(pages()).toBeLessThanOrEqual(6);
  });
});
