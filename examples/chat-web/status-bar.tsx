import type { ConversationSnapshot } from 'agent-platform-sdk';

/** What the conversation is doing and how the page is connected; state updates show here, never as items. */
export function StatusBar({ snapshot }: { snapshot: ConversationSnapshot }) {
  const cost = snapshot.state?.stats ? accumulatedCost(snapshot.state.stats) : undefined;
  return (
    <header className="status-bar" data-connection={snapshot.connection} data-status={snapshot.status ?? ''}>
      <span className={`dot dot-${snapshot.connection}`} />
      <span data-testid="connection">{snapshot.connection}</span>
      <span data-testid="status">{snapshot.status ?? '…'}</span>
      {cost === undefined ? null : <span data-testid="cost">${cost.toFixed(4)}</span>}
      {snapshot.error ? (
        <span className="banner" data-testid="error">
          {snapshot.error.message}
        </span>
      ) : null}
    </header>
  );
}

/** The sum of `accumulated_cost` over every `usage_to_metrics` entry of the `stats` state (if any). */
function accumulatedCost(stats: unknown): number | undefined {
  const usage = (stats as { usage_to_metrics?: Record<string, { accumulated_cost?: unknown }> })
    .usage_to_metrics;
  if (!usage || typeof usage !== 'object') return undefined;
  let total = 0;
  for (const metrics of Object.values(usage)) {
    if (typeof metrics?.accumulated_cost === 'number') total += metrics.accumulated_cost;
  }
  return total;
}
