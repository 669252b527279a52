import { parseUtcTimestamp } from './utc-time.js';

/** A gateway spend-log row, as `GatewayAdminClient.spendLogs` yields it. */
export interface ReconcileSpendRow {
  request_id?: string | undefined;
  spend: number;
  startTime: string;
  model?: string | null | undefined;
  /** The public `model_name` the call used. */
  model_group?: string | null | undefined;
  /** The body `user` field: the platform user id (spec recipes, default request). */
  user?: string | null | undefined;
  /** `x-gateway-session-id`: the conversation id, when header forwarding reached the gateway. */
  session_id?: string | null | undefined;
}

/** A platform conversation, as `PlatformClient.listConversations` yields it. */
export interface ReconcileConversation {
  id: string;
  tags?: Record<string, string> | null | undefined;
  created_at: string;
  updated_at: string;
  llm_model?: string | null | undefined;
  created_by_user_id?: string | null | undefined;
}

export interface ReconcileOptions {
  /** Slack added on both sides of a conversation's `created_at`…`updated_at` window. Default 60 000 ms. */
  windowSlackMs?: number | undefined;
  /** Total only these tag keys. Default: every key found. */
  tagKeys?: readonly string[] | undefined;
}

export type SpendMatch = 'session-id' | 'window';
export type UnplacedSpendReason = 'invalid-row' | 'session-not-listed' | 'no-window-match' | 'ambiguous';

export interface PlacedSpendRow<R extends ReconcileSpendRow = ReconcileSpendRow> {
  row: R;
  conversationId: string;
  matchedBy: SpendMatch;
}

export interface UnplacedSpendRow<R extends ReconcileSpendRow = ReconcileSpendRow> {
  row: R;
  reason: UnplacedSpendReason;
  /** For `ambiguous`: the conversations the row could belong to. */
  candidates?: string[];
}

export interface SpendReconciliation<R extends ReconcileSpendRow = ReconcileSpendRow> {
  placed: PlacedSpendRow<R>[];
  /** Rows that could not be placed: reported, never dropped. */
  unplaced: UnplacedSpendRow<R>[];
  /** Tag key → tag value → spend. */
  byTag: Record<string, Record<string, number>>;
  byConversation: Record<string, number>;
  totals: { all: number; placed: number; unplaced: number; untagged: number };
}

/**
 * Recipe 5, batch reconciliation: tags are not visible at the gateway, so spend rows are joined with
 * conversations: by session id where the row has one (the SDK stamps the conversation id), else by model and
 * time window (and by user where both sides name one). Spend is totalled per tag; rows that match nothing,
 * or more than one conversation, are reported in `unplaced`.
 */
export function reconcileSpend<R extends ReconcileSpendRow>(
  rows: readonly R[],
  conversations: readonly ReconcileConversation[],
  options: ReconcileOptions = {},
): SpendReconciliation<R> {
  const slack = options.windowSlackMs ?? 60_000;
  const byId = new Map(conversations.map((c) => [canonicalId(c.id), c]));
  const windows = conversations.map((c) => ({
    conversation: c,
    start: parseUtcTimestamp(c.created_at) - slack,
    end: parseUtcTimestamp(c.updated_at) + slack,
  }));
  const result: SpendReconciliation<R> = {
    placed: [],
    unplaced: [],
    byTag: {},
    byConversation: {},
    totals: { all: 0, placed: 0, unplaced: 0, untagged: 0 },
  };

  for (const row of rows) {
    const spend = typeof row?.spend === 'number' && Number.isFinite(row.spend) ? row.spend : Number.NaN;
    const at = parseUtcTimestamp(row?.startTime);
    if (Number.isNaN(spend) || Number.isNaN(at)) {
      result.unplaced.push({ row, reason: 'invalid-row' });
      continue;
    }
    result.totals.all += spend;
    let conversation: ReconcileConversation | undefined;
    let matchedBy: SpendMatch = 'session-id';
    if (row.session_id) {
      conversation = byId.get(canonicalId(row.session_id));
      if (!conversation) {
        result.unplaced.push({ row, reason: 'session-not-listed' });
        result.totals.unplaced += spend;
        continue;
      }
    } else {
      const candidates = windows
        .filter(
          (w) =>
            at >= w.start && at <= w.end && sameModel(row, w.conversation) && sameUser(row, w.conversation),
        )
        .map((w) => w.conversation);
      if (candidates.length !== 1) {
        result.unplaced.push(
          candidates.length === 0
            ? { row, reason: 'no-window-match' }
            : { row, reason: 'ambiguous', candidates: candidates.map((c) => c.id) },
        );
        result.totals.unplaced += spend;
        continue;
      }
      conversation = candidates[0]!;
      matchedBy = 'window';
    }
    result.placed.push({ row, conversationId: conversation.id, matchedBy });
    result.totals.placed += spend;
    result.byConversation[conversation.id] = (result.byConversation[conversation.id] ?? 0) + spend;
    const tags = Object.entries(conversation.tags ?? {}).filter(
      ([key]) => !options.tagKeys || options.tagKeys.includes(key),
    );
    if (tags.length === 0) result.totals.untagged += spend;
    for (const [key, value] of tags) {
      const perValue = result.byTag[key] ?? {};
      perValue[value] = (perValue[value] ?? 0) + spend;
      result.byTag[key] = perValue;
    }
  }
  return result;
}

/** Conversation ids compare in any of their forms (dashed or 32 hex, any case). */
function canonicalId(id: string): string {
  const compact = id.toLowerCase().replaceAll('-', '');
  return /^[0-9a-f]{32}$/.test(compact) ? compact : id;
}

/**
 * The row's model (public name or upstream name) against the conversation's `llm_model`, which may carry a
 * routing prefix (e.g. `compat/<model_name>` in a profile): equal, or one ends with `/` + the other.
 */
function sameModel(row: ReconcileSpendRow, conversation: ReconcileConversation): boolean {
  const target = conversation.llm_model;
  if (!target) return false;
  return [row.model_group, row.model].some(
    (model) => !!model && (model === target || target.endsWith(`/${model}`) || model.endsWith(`/${target}`)),
  );
}

function sameUser(row: ReconcileSpendRow, conversation: ReconcileConversation): boolean {
  return !row.user || !conversation.created_by_user_id || row.user === conversation.created_by_user_id;
}
