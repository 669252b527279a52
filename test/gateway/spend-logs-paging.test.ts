// G6 (docs/compatibility.md): the real gateway answers spend-log pages newest first, so a row written while the
// pages are read pushes an older row onto the next page again. spendLogs gives each row once.
import { HttpResponse, http } from 'msw/http';
import { expect, it } from 'vitest';
import { GatewayAdminClient } from '../../src/gateway/index.js';
import { useMswServer } from '../helpers/msw.js';

const GATEWAY = 'http://gateway.test';
const row = (id: string, second: number) => ({
  request_id: id,
  spend: 0.001,
  startTime: `2026-11-27T10:00:${String(second).padStart(2, '0')}Z`,
});
// One page a row; a new row (r4) arrives after page 1 was read, so page 2 repeats r3 and page 3 repeats r2.
const pages: Record<string, unknown[]> = {
  '1': [row('r3', 3)],
  '2': [row('r3', 3)],
  '3': [row('r2', 2)],
  '4': [row('r1', 1)],
};
const { requests } = useMswServer(
  http.get(`${GATEWAY}/spend/logs/v2`, ({ request }) => {
    const page = new URL(request.url).searchParams.get('page') ?? '1';
    return HttpResponse.json({
      data: pages[page] ?? [],
      total: 4,
      page: Number(page),
      page_size: 1,
      total_pages: 4,
    });
  }),
);

it('a row repeated on a later page (new rows shift the pages) is given once, and paging goes on past it', async () => {
  const gateway = new GatewayAdminClient({ baseUrl: GATEWAY, masterKey: 'sk-master', logLevel: 'off' });
  const ids: string[] = [];
  for await (const item of gateway.spendLogs({
    startDate: '2026-11-27 00:00:00',
    endDate: '2026-11-28 00:00:00',
    pageSize: 1,
  })) {
    ids.push(item.request_id);
  }
  expect(ids).toEqual(['r3', 'r2', 'r1']);
  expect(requests.map((r) => new URL(r.url).searchParams.get('page'))).toEqual(['1', '2', '3', '4']);
  // A second iteration starts afresh.
  const again: string[] = [];
  for await (const item of gateway.spendLogs({
    startDate: '2026-11-27 00:00:00',
    endDate: '2026-11-28 00:00:00',
    pageSize: 1,
  }))
    again.push(item.request_id);
  expect(again).toEqual(['r3', 'r2', 'r1']);
});
