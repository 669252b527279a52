import { describe, expect, it } from 'vitest';
import { GatewayAdminClient, gatewayModelEntry } from '../../src/gateway/index.js';
import { PlatformClient, reconcileSpend } from '../../src/platform/index.js';
import {
  externalGatewayHandlers,
  GatewayStore,
  gatewayHandlers,
  PlatformStore,
  platformHandlers,
} from '../../src/testing.js';
import { useMswServer } from '../helpers/msw.js';

const GATEWAY = 'http://builtin-gateway.test:4000';
const APP = 'https://app.platform.test';
const gatewayStore = new GatewayStore({ env: { GW_KEY: 'sk-ext' }, spendPerCall: 0.02 });
gatewayStore.forwardClientHeaders = true;
const platformStore = new PlatformStore({ sandboxUrl: 'https://sandbox.platform.test' });
useMswServer(
  ...gatewayHandlers({ baseUrl: GATEWAY, masterKey: 'sk-master', store: gatewayStore }),
  ...externalGatewayHandlers({
    baseUrl: 'https://gw.example.com',
    kind: 'same-kind',
    keys: ['sk-ext'],
    models: ['claude-sonnet-4-5-20250929'],
  }),
  ...platformHandlers({ baseUrl: APP, sessionApiKey: 'app-key', store: platformStore }),
);

describe('recipe 5 end to end: tag conversations, call through the gateway, reconcile', () => {
  it('totals the gateway spend per conversation tag', async () => {
    const gateway = new GatewayAdminClient({ baseUrl: GATEWAY, masterKey: 'sk-master', logLevel: 'off' });
    const platform = new PlatformClient({ baseUrl: APP, sessionApiKey: 'app-key', logLevel: 'off' });
    await gateway.addModel(
      gatewayModelEntry({
        modelName: 'sonnet',
        upstreamModel: 'claude-sonnet-4-5-20250929',
        gatewayKind: 'same-kind',
        apiBase: 'https://gw.example.com',
        apiKey: { env: 'GW_KEY' },
      }),
    );
    const start = new Date(Date.now() - 60_000);
    const trade = platformStore.addConversation({
      llm_model: 'compat/sonnet',
      created_by_user_id: 'alice',
      created_at: start.toISOString(),
    });
    const risk = platformStore.addConversation({
      llm_model: 'compat/sonnet',
      created_by_user_id: 'bob',
      created_at: start.toISOString(),
    });
    await platform.updateConversationTags(
      trade.conversation_url,
      { costcenter: 'trade' },
      { sessionApiKey: trade.session_api_key },
    );
    await platform.updateConversationTags(
      risk.conversation_url,
      { costcenter: 'risk' },
      { sessionApiKey: risk.session_api_key },
    );

    // The runtime stamps the conversation id on each call (forwarded to the gateway); one call has none.
    for (const id of [trade.id, trade.id, risk.id]) {
      await gateway.probeModel('sonnet', { headers: { 'x-gateway-session-id': id } });
    }
    await gateway.probeModel('sonnet', { user: 'bob' });
    await gateway.probeModel('sonnet', { user: 'nobody' });

    const rows = [];
    for await (const r of gateway.spendLogs({ startDate: start, endDate: new Date(Date.now() + 60_000) }))
      rows.push(r);
    const conversations = [];
    for await (const c of platform.listConversations()) conversations.push(c);
    const result = reconcileSpend(rows, conversations);

    // Rows come newest first (the real gateway's order), so compare without order.
    expect(result.placed.map((p) => p.matchedBy).sort()).toEqual([
      'session-id',
      'session-id',
      'session-id',
      'window',
    ]);
    expect(result.byTag.costcenter!.trade).toBeCloseTo(0.04, 9);
    expect(result.byTag.costcenter!.risk).toBeCloseTo(0.04, 9);
    expect(result.unplaced.map((u) => u.reason)).toEqual(['no-window-match']);
    expect(result.totals.all).toBeCloseTo(0.1, 9);
  });
});
