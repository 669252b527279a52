import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ReconcileConversation,
  type ReconcileSpendRow,
  reconcileSpend,
} from '../../src/platform/index.js';
import { parseUtcTimestamp } from '../../src/platform/utc-time.js';
import { neutral, readJsonFixture } from '../gateway/fixtures.js';

const ALICE_CONV = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const BOB_CONV = '9b2d7a10-1111-4222-8333-444455556666';
const UNTAGGED_CONV = 'c0ffee00-0000-4000-8000-000000000001';

const conversations: ReconcileConversation[] = [
  {
    id: ALICE_CONV,
    tags: { costcenter: 'trade', project: 'p42' },
    created_at: '2026-08-01T12:00:00', // no zone: the platform's UTC
    updated_at: '2026-08-01T12:30:00',
    llm_model: 'compat/claude-sonnet-4-5',
    created_by_user_id: 'alice',
  },
  {
    id: BOB_CONV,
    tags: { costcenter: 'risk' },
    created_at: '2026-08-01T14:00:00Z',
    updated_at: '2026-08-01T15:00:00Z',
    llm_model: 'gpt-4o',
    created_by_user_id: 'bob',
  },
  {
    id: UNTAGGED_CONV,
    tags: {},
    created_at: '2026-08-02T09:00:00Z',
    updated_at: '2026-08-02T09:10:00Z',
    llm_model: 'gpt-4o',
    created_by_user_id: 'carol',
  },
];

const row = (over: Partial<ReconcileSpendRow> & { request_id: string }): ReconcileSpendRow => ({
  spend: 0.01,
  startTime: '2026-08-01 12:10:00',
  model_group: 'claude-sonnet-4-5',
  ...over,
});

describe('reconcileSpend — recipe 5', () => {
  it('joins by session id where present (dashed or 32-hex, any case), whatever the time', () => {
    const rows = [
      row({
        request_id: 'r1',
        session_id: ALICE_CONV,
        startTime: '2027-01-01 00:00:00',
        model_group: 'other',
      }),
      row({ request_id: 'r2', session_id: BOB_CONV.replaceAll('-', '').toUpperCase() }),
    ];
    const result = reconcileSpend(rows, conversations);
    expect(result.placed.map((p) => [p.row.request_id, p.conversationId, p.matchedBy])).toEqual([
      ['r1', ALICE_CONV, 'session-id'],
      ['r2', BOB_CONV, 'session-id'],
    ]);
    expect(result.unplaced).toEqual([]);
  });

  it('joins by model and time window when the row has no session id', () => {
    const rows = [
      row({
        request_id: 'w1',
        startTime: '2026-08-01 12:10:00',
        model_group: 'claude-sonnet-4-5',
        user: 'alice',
      }),
      row({ request_id: 'w2', startTime: '2026-08-01T14:59:00Z', model_group: 'gpt-4o', session_id: null }),
      // Within the default one-minute slack after updated_at.
      row({ request_id: 'w3', startTime: '2026-08-01 15:00:30', model: 'gpt-4o', model_group: null }),
    ];
    const result = reconcileSpend(rows, conversations);
    expect(result.placed.map((p) => [p.row.request_id, p.conversationId, p.matchedBy])).toEqual([
      ['w1', ALICE_CONV, 'window'],
      ['w2', BOB_CONV, 'window'],
      ['w3', BOB_CONV, 'window'],
    ]);
  });

  it('reads naive timestamps as UTC on both sides', () => {
    // 12:00–12:30 UTC; 12:31 (inside the slack) matches, 13:00 does not, whatever the machine's zone.
    const result = reconcileSpend(
      [
        row({ request_id: 'in', startTime: '2026-08-01 12:31:00' }),
        row({ request_id: 'out', startTime: '2026-08-01 13:00:00' }),
      ],
      conversations,
    );
    expect(result.placed.map((p) => p.row.request_id)).toEqual(['in']);
    expect(result.unplaced.map((u) => [u.row.request_id, u.reason])).toEqual([['out', 'no-window-match']]);
  });

  it('reports rows that match nothing, with the reason, and never drops them', () => {
    const rows = [
      row({ request_id: 'n1', session_id: '00000000-0000-4000-8000-00000000dead' }),
      row({ request_id: 'n2', startTime: '2026-08-03 00:00:00' }),
      row({ request_id: 'n3', model_group: 'gpt-4o', startTime: '2026-08-01 12:10:00' }),
      row({ request_id: 'n4', user: 'mallory' }),
      row({ request_id: 'n5', spend: Number.NaN }),
      row({ request_id: 'n6', startTime: 'not a time' }),
      { request_id: 'n7', startTime: '2026-08-01 12:10:00', spend: '0.5' } as unknown as ReconcileSpendRow,
    ];
    const result = reconcileSpend(rows, conversations);
    expect(result.placed).toEqual([]);
    expect(result.unplaced.map((u) => [u.row.request_id, u.reason])).toEqual([
      ['n1', 'session-not-listed'],
      ['n2', 'no-window-match'],
      ['n3', 'no-window-match'],
      ['n4', 'no-window-match'],
      ['n5', 'invalid-row'],
      ['n6', 'invalid-row'],
      ['n7', 'invalid-row'],
    ]);
    expect(result.unplaced).toHaveLength(rows.length);
  });

  it('a row that fits two conversations is ambiguous, with both candidates', () => {
    const twin = { ...conversations[0]!, id: 'twin', tags: { costcenter: 'other' } };
    const result = reconcileSpend([row({ request_id: 'a1' })], [...conversations, twin]);
    expect(result.unplaced).toEqual([
      {
        row: expect.objectContaining({ request_id: 'a1' }),
        reason: 'ambiguous',
        candidates: [ALICE_CONV, 'twin'],
      },
    ]);
  });

  it('the user narrows the window join', () => {
    const twin = { ...conversations[0]!, id: 'twin', created_by_user_id: 'zoe' };
    const result = reconcileSpend([row({ request_id: 'u1', user: 'zoe' })], [...conversations, twin]);
    expect(result.placed.map((p) => p.conversationId)).toEqual(['twin']);
  });

  it('totals spend per tag, per conversation, and the untagged and unplaced spend', () => {
    const rows = [
      row({ request_id: 'a', spend: 0.25, session_id: ALICE_CONV }),
      row({ request_id: 'b', spend: 0.5, startTime: '2026-08-01 12:20:00' }),
      row({ request_id: 'c', spend: 1, session_id: BOB_CONV }),
      row({ request_id: 'd', spend: 2, session_id: UNTAGGED_CONV }),
      row({ request_id: 'e', spend: 4, startTime: '2030-01-01 00:00:00' }),
    ];
    const result = reconcileSpend(rows, conversations);
    expect(result.byTag).toEqual({ costcenter: { trade: 0.75, risk: 1 }, project: { p42: 0.75 } });
    expect(result.byConversation).toEqual({ [ALICE_CONV]: 0.75, [BOB_CONV]: 1, [UNTAGGED_CONV]: 2 });
    expect(result.totals).toEqual({ all: 7.75, placed: 3.75, unplaced: 4, untagged: 2 });
  });

  it('tagKeys limits the totals to the keys asked for', () => {
    const result = reconcileSpend([row({ request_id: 'a', session_id: ALICE_CONV })], conversations, {
      tagKeys: ['project'],
    });
    expect(Object.keys(result.byTag)).toEqual(['project']);
  });

  it('joins the documented spend row (fixture) by its session id', () => {
    const shapes = neutral(readJsonFixture('litellm-proxy-shapes.json')) as Record<
      string,
      { data: ReconcileSpendRow[] }
    >;
    const page = shapes[Object.keys(shapes).find((k) => k.startsWith('GET /spend/logs/v2'))!]!;
    const documented = { ...page.data[0]!, session_id: ALICE_CONV };
    const result = reconcileSpend([documented], conversations);
    expect(result.byTag.costcenter).toEqual({ trade: 0.0123 });
  });

  it('every row is either placed or reported, and the totals add up (property)', () => {
    const ids = [ALICE_CONV, BOB_CONV, UNTAGGED_CONV, 'ffffffff-0000-4000-8000-000000000000'];
    const anyRow = fc.record({
      request_id: fc.uuid(),
      spend: fc.oneof(fc.double({ min: 0, max: 10, noNaN: true }), fc.constant(Number.NaN)),
      startTime: fc
        .date({
          min: new Date('2026-07-31T00:00:00Z'),
          max: new Date('2026-08-03T00:00:00Z'),
          noInvalidDate: true,
        })
        .map((d) => d.toISOString()),
      model_group: fc.constantFrom('claude-sonnet-4-5', 'gpt-4o', 'x'),
      user: fc.option(fc.constantFrom('alice', 'bob', 'carol', 'zed'), { nil: null }),
      session_id: fc.option(fc.constantFrom(...ids), { nil: null }),
    });
    fc.assert(
      fc.property(fc.array(anyRow, { maxLength: 40 }), (rows) => {
        const result = reconcileSpend(rows, conversations);
        expect(result.placed.length + result.unplaced.length).toBe(rows.length);
        const valid = rows.filter((r) => Number.isFinite(r.spend));
        const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
        expect(result.totals.all).toBeCloseTo(sum(valid.map((r) => r.spend)), 9);
        expect(result.totals.placed + result.totals.unplaced).toBeCloseTo(result.totals.all, 9);
        expect(sum(Object.values(result.byConversation))).toBeCloseTo(result.totals.placed, 9);
        expect(sum(Object.values(result.byTag.costcenter ?? {})) + result.totals.untagged).toBeCloseTo(
          result.totals.placed,
          9,
        );
      }),
    );
  });
});

describe('parseUtcTimestamp', () => {
  it.each([
    ['2026-08-01 12:00:00', Date.UTC(2026, 7, 1, 12)],
    ['2026-08-01T12:00:00', Date.UTC(2026, 7, 1, 12)],
    ['2026-08-01T12:00:00Z', Date.UTC(2026, 7, 1, 12)],
    ['2026-08-01T14:00:00+02:00', Date.UTC(2026, 7, 1, 12)],
    ['2026-08-01T12:00:00.250000', Date.UTC(2026, 7, 1, 12, 0, 0, 250)],
  ])('%s', (text, expected) => {
    expect(parseUtcTimestamp(text)).toBe(expected);
  });

  it.each([[''], ['nope'], [null], [42]])('%j is NaN', (text) => {
    expect(parseUtcTimestamp(text)).toBeNaN();
  });
});
