import { type Event, isActionEvent, isActionKind, isMessageEvent } from '../../models/index.js';

/**
 * The final answer as the server computes it for `GET …/agent_final_response` (OpenAPI `AgentResponseResult`:
 * "extracted from either a FinishAction message or the last agent MessageEvent"), for servers older than the
 * route. `events` newest first; '' when there is none, as the server answers.
 */
export function finalResponseFromEvents(newestFirst: Iterable<Event>): string {
  for (const event of newestFirst) {
    if (isActionEvent(event) && isActionKind(event.action, 'FinishAction')) {
      const message = (event.action as { message?: unknown }).message;
      return typeof message === 'string' ? message : '';
    }
    if (isMessageEvent(event) && event.source === 'agent') {
      const content = (event.llm_message as { content?: unknown }).content;
      if (!Array.isArray(content)) return '';
      return content
        .map((part: { type?: unknown; text?: unknown }) =>
          part?.type === 'text' && typeof part.text === 'string' ? part.text : '',
        )
        .join('');
    }
  }
  return '';
}
