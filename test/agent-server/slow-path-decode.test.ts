/**
 * Events that fail the predicates compiled at build time are parsed by zod's parsers, which the SDK loads on
 * first need (src/models/decode-event.ts): the answer is the same as `safeParseEvent`'s, REST pages and live
 * frames keep their order while the parsers load, and a malformed answer is still a typed error. Each test
 * imports the modules afresh (`vi.resetModules`), so the parsers are not loaded yet when it starts.
 */
import { EventEmitter } from 'eventemitter3';
import { HttpResponse, http } from 'msw/http';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Connection } from '../../src/agent-server/live/connection.js';
import type { FrameSink } from '../../src/agent-server/live/frame-reader.js';
import type { Positioned } from '../../src/agent-server/live/positioned.js';
import type { SubscriptionEventMap } from '../../src/agent-server/live/types.js';
import { isResponseValidationError, type ResponseValidationError } from '../../src/core/errors.js';
import { getUnknownInfo } from '../../src/models/unknown.js';
import { useMswServer } from '../helpers/msw.js';

const BASE = 'http://agent.test';
const CONVERSATION = '3fa85f64-5717-4562-b3fc-2c963f66afa6';

/** A MessageEvent without the fields that have defaults: the predicates leave it to the parser. */
const partial = (n: number) => ({
  id: `event-${n}`,
  timestamp: `2026-11-23T10:00:00.${String(n).padStart(6, '0')}`,
  source: 'user',
  llm_message: { role: 'user', content: [{ type: 'text', text: `m${n}` }] },
  kind: 'MessageEvent',
});
/** The same event as servers send it (every field): the predicates accept it as it is. */
const complete = (n: number) => ({
  ...partial(n),
  llm_message: {
    role: 'user',
    content: [{ cache_prompt: false, type: 'text', text: `m${n}` }],
    thinking_blocks: [],
  },
  activated_skills: [],
  extended_content: [],
});
/** A known kind with a field of the wrong type: lenient mode keeps it as an UnknownEvent. */
const invalidField = (n: number) => ({ ...complete(n), source: 42 });

let pageItems: unknown[] = [];
useMswServer(
  http.get(`${BASE}/api/conversations/:id/events/search`, () =>
    HttpResponse.json({ items: pageItems, next_page_id: null }),
  ),
);

beforeEach(() => {
  vi.resetModules();
});

describe('decodeOwnedEvent', () => {
  it('answers at once when the predicates decide, with a promise while the parsers load, then at once', async () => {
    const { decodeOwnedEvent } = await import('../../src/models/decode-event.js');
    const { safeParseEvent } = await import('../../src/models/parse.js');
    const ok = decodeOwnedEvent(complete(1));
    expect(ok).not.toBeInstanceOf(Promise);
    expect(ok).toEqual({ success: true, data: complete(1) });
    // Unknown kinds are kept without the parsers.
    const unknown = decodeOwnedEvent({ id: 'x', kind: 'FutureEvent', extra: 1 });
    expect(unknown).not.toBeInstanceOf(Promise);
    expect(getUnknownInfo((unknown as { data: unknown }).data)?.reason).toBe('unknown-kind');

    const slow = decodeOwnedEvent(partial(2));
    expect(slow).toBeInstanceOf(Promise);
    // Defaults filled in, exactly as safeParseEvent does.
    expect(await slow).toEqual(safeParseEvent(partial(2)));
    expect(await slow).toEqual({ success: true, data: complete(2) });
    const now = decodeOwnedEvent(partial(3));
    expect(now).not.toBeInstanceOf(Promise);
    expect(now).toEqual({ success: true, data: complete(3) });
  });

  it('lenient: an invalid known kind is an UnknownEvent with issues; a value without a kind is a typed error', async () => {
    const { decodeOwnedEvent } = await import('../../src/models/decode-event.js');
    const invalid = await decodeOwnedEvent(invalidField(1));
    expect(invalid.success).toBe(true);
    const info = getUnknownInfo((invalid as { data: unknown }).data);
    expect(info?.reason).toBe('invalid');
    expect(info?.issues.map((issue) => issue.path)).toContainEqual(['source']);

    const bad = await decodeOwnedEvent({ id: 'y', secret: 'sk-1', encrypted_content: 'do not show' });
    expect(bad.success).toBe(false);
    const error = (bad as { error: ResponseValidationError }).error;
    expect(isResponseValidationError(error)).toBe(true);
    expect(error.issues.length).toBeGreaterThan(0);
    expect(error.rawBody).toContain('"id":"y"');
    expect(error.rawBody).not.toContain('do not show');
  });

  it('strict: what no server sends is rejected, with the path of the issue', async () => {
    const { decodeOwnedEvent } = await import('../../src/models/decode-event.js');
    const strict = { mode: 'strict' } as const;
    expect(decodeOwnedEvent(complete(1), strict)).toEqual({ success: true, data: complete(1) });
    const extra = await decodeOwnedEvent({ ...complete(2), surprise: true }, strict);
    expect(extra.success).toBe(false);
    const unknownKind = await decodeOwnedEvent({ ...complete(3), kind: 'FutureEvent' }, strict);
    expect(unknownKind.success).toBe(false);
    expect((unknownKind as { error: ResponseValidationError }).error.issues[0]?.path).toEqual(['kind']);
  });

  it('parsers that fail to load make that value a typed error; a later value tries again', async () => {
    vi.doMock('../../src/models/parse.js', () => {
      throw new Error('chunk lost');
    });
    const { decodeOwnedEvent } = await import('../../src/models/decode-event.js');
    let lost: Awaited<ReturnType<typeof decodeOwnedEvent>>;
    try {
      lost = await decodeOwnedEvent(partial(1));
    } finally {
      vi.doUnmock('../../src/models/parse.js');
    }
    expect(lost.success).toBe(false);
    const error = (lost as { error: ResponseValidationError }).error;
    expect(isResponseValidationError(error)).toBe(true);
    expect(error.issues[0]).toMatchObject({ path: [], code: 'unexpected' });
    expect(error.issues[0]?.message).toMatch(/^could not be validated/);
    expect(error.rawBody).toContain('event-1');
    expect(await decodeOwnedEvent(partial(2))).toEqual({ success: true, data: complete(2) });
  });
});

/** An EventsClient of the double, from modules imported afresh (the parsers not loaded: see beforeEach). */
async function eventsClient() {
  const { EventsClient } = await import('../../src/agent-server/index.js');
  return new EventsClient({ baseUrl: BASE, sessionApiKey: 'k', logLevel: 'off', maxRetryDelay: 10 });
}

async function firstPage<T>(pages: AsyncIterable<T>): Promise<T> {
  for await (const page of pages) return page;
  throw new Error('no page');
}

describe('REST pages through the lazily loaded parsers', () => {
  it('keeps the order of the items, fills in defaults and keeps unknown kinds and invalid events', async () => {
    const client = await eventsClient();
    pageItems = [
      complete(1),
      partial(2),
      { id: 'f', kind: 'FutureEvent', x: 1 },
      invalidField(4),
      partial(5),
    ];
    const page = await firstPage(client.pages(CONVERSATION));
    expect(page.items.map((event) => event.id)).toEqual(['event-1', 'event-2', 'f', 'event-4', 'event-5']);
    expect(page.items[1]).toEqual(complete(2));
    expect(page.items[4]).toEqual(complete(5));
    expect(getUnknownInfo(page.items[2])?.reason).toBe('unknown-kind');
    expect(getUnknownInfo(page.items[3])?.reason).toBe('invalid');
  });

  it('a malformed item is a ResponseValidationError naming its place in the page, with the raw body', async () => {
    const client = await eventsClient();
    pageItems = [partial(1), { id: 'no-kind' }, complete(3)];
    const error = await firstPage(client.pages(CONVERSATION)).catch((caught: unknown) => caught);
    expect(isResponseValidationError(error)).toBe(true);
    const { issues, rawBody } = error as ResponseValidationError;
    expect(issues.length).toBeGreaterThan(0);
    for (const issue of issues) expect(issue.path.slice(0, 2)).toEqual(['items', 1]);
    expect(rawBody).toContain('no-kind');
  });
});

describe('live frames through the lazily loaded parsers', () => {
  async function reader(protocol: 'session' | 'events') {
    const { FrameReader } = await import('../../src/agent-server/live/frame-reader.js');
    const { DeliveryCore } = await import('../../src/agent-server/live/delivery-core.js');
    const { SafeEmitter } = await import('../../src/agent-server/live/safe-emitter.js');
    const { liveSettings } = await import('../../src/agent-server/live/subscribe-options.js');
    const { newConnection } = await import('../../src/agent-server/live/connection.js');
    const { SafeLogger } = await import('../../src/core/logger.js');
    const logger = new SafeLogger({ debug() {}, info() {}, warn() {}, error() {} }, 'off', () => []);
    const target = new EventEmitter<SubscriptionEventMap>();
    const errors: Error[] = [];
    target.on('error', (error: Error) => errors.push(error));
    const emitter = new SafeEmitter(target, logger, () => []);
    const core = new DeliveryCore(liveSettings({}), emitter, logger, 'slow-path');
    core.iterator(() => undefined);
    const delivered: Positioned[] = [];
    let stale = false;
    const sink = {
      isStale: () => stale,
      snapshot: () => undefined,
      becomeReady: () => undefined,
      hold: () => undefined,
      deliverLive: (_conn: Connection, item: Positioned) => {
        delivered.push(item);
        return true;
      },
      resync: () => undefined,
      fillGap: () => undefined,
      reportProtocolError: () => undefined,
      abandon: () => undefined,
    } satisfies FrameSink;
    const ctx = { logger } as unknown as ConstructorParameters<typeof FrameReader>[3];
    const frames = new FrameReader(sink, core, emitter, ctx, 1000);
    const conn = newConnection(1, protocol, { catchUp: { type: 'none' }, floor: undefined, afterSeq: -1 }, 0);
    conn.order.next = 0;
    conn.ready = true;
    conn.live = true;
    return { frames, conn, delivered, errors, goStale: () => (stale = true) };
  }
  const durable = (seq: number, event: unknown) => JSON.stringify({ type: 'durable', seq, event });

  it('session: a frame waiting for the parsers holds the ones after it; all come in order, defaults filled in', async () => {
    const { frames, conn, delivered } = await reader('session');
    frames.sessionFrame(conn, durable(0, partial(0)));
    frames.sessionFrame(conn, durable(1, complete(1)));
    frames.sessionFrame(conn, JSON.stringify({ type: 'transient', event: { id: 't', kind: 'FutureEvent' } }));
    frames.sessionFrame(conn, durable(2, invalidField(2)));
    // Nothing overtakes the event still being parsed.
    expect(delivered).toEqual([]);
    await vi.waitFor(() => expect(delivered).toHaveLength(4));
    expect(delivered.map((item) => item.id)).toEqual(['event-0', 'event-1', 't', 'event-2']);
    expect(delivered[0]?.event).toEqual(complete(0));
    expect(getUnknownInfo(delivered[2]?.event)?.reason).toBe('unknown-kind');
    expect(getUnknownInfo(delivered[3]?.event)?.reason).toBe('invalid');
    // Once loaded, the parsers answer at once.
    frames.sessionFrame(conn, durable(3, partial(3)));
    expect(delivered.map((item) => item.id).at(-1)).toBe('event-3');
  });

  it('legacy socket: order kept; a malformed frame is reported as a typed error and the next still comes', async () => {
    const { frames, conn, delivered, errors } = await reader('events');
    frames.legacyFrame(conn, JSON.stringify(partial(0)));
    frames.legacyFrame(conn, JSON.stringify({ id: 'no-kind', encrypted_content: 'hidden' }));
    frames.legacyFrame(conn, JSON.stringify(complete(2)));
    expect(delivered).toEqual([]);
    await vi.waitFor(() => expect(delivered).toHaveLength(2));
    expect(delivered.map((item) => item.id)).toEqual(['event-0', 'event-2']);
    expect(errors).toHaveLength(1);
    expect(isResponseValidationError(errors[0])).toBe(true);
    expect((errors[0] as ResponseValidationError).rawBody).toContain('no-kind');
    expect((errors[0] as ResponseValidationError).rawBody).not.toContain('hidden');
  });

  it('frames of a connection that ended while they waited are dropped', async () => {
    const { frames, conn, delivered, goStale } = await reader('session');
    frames.sessionFrame(conn, durable(0, partial(0)));
    frames.sessionFrame(conn, durable(1, complete(1)));
    goStale();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(delivered).toEqual([]);
  });
});
