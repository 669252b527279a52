import type { ConversationItem, ConversationViewApi } from 'agent-platform-sdk';
import { actionSummary, resultSummary } from './event-text.js';

/** One item: a user or agent message (pending, failed or streaming), a tool call with its result, an error. */
export function Item({ item, view }: { item: ConversationItem; view: ConversationViewApi | undefined }) {
  const common = { 'data-item-id': item.id, 'data-item-type': item.type };
  switch (item.type) {
    case 'user-message':
    case 'agent-message': {
      const pending = item.pending;
      const state = pending?.state ?? (item.streaming ? 'streaming' : 'persisted');
      return (
        <li {...common} className={`bubble ${item.type} ${state}`} data-state={state}>
          <p className="text">{item.text}</p>
          {item.streaming ? <span className="caret">▍</span> : null}
          {pending?.state === 'sending' ? <small>sending…</small> : null}
          {pending?.state === 'failed' ? (
            <small className="failure">
              not sent: {pending.error?.message ?? 'failed'}{' '}
              <button type="button" onClick={() => view?.retry(item.id).catch(() => {})}>
                Retry
              </button>
            </small>
          ) : null}
        </li>
      );
    }
    case 'tool-call': {
      const [action, result] = item.events;
      // The finish tool repeats the agent's last message: one line says the run is done.
      if (action?.kind === 'ActionEvent' && action.tool_name === 'finish') {
        return (
          <li {...common} className="tool-call finish" data-answered={result ? 'yes' : 'no'}>
            ✓ finish
          </li>
        );
      }
      return (
        <li {...common} className="tool-call" data-answered={result ? 'yes' : 'no'}>
          <div className="call">{action ? actionSummary(action) : ''}</div>
          {result ? (
            <pre className="result">{resultSummary(result)}</pre>
          ) : (
            <div className="running">running…</div>
          )}
        </li>
      );
    }
    case 'error':
      return (
        <li {...common} className="error">
          {item.events.map((event) => resultSummary(event)).join('\n')}
        </li>
      );
    default:
      return (
        <li {...common} className="other">
          {String(item.events[0]?.kind ?? '')}
        </li>
      );
  }
}
