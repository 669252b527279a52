import {
  type Event,
  isActionEvent,
  isAgentErrorEvent,
  isConversationErrorEvent,
  isObservationEvent,
} from 'agent-platform-sdk';

/** `terminal: $ ls -la`: the tool and what it was asked (a command, a path, a message), else its summary. */
export function actionSummary(event: Event): string {
  if (!isActionEvent(event)) return String(event.kind);
  const action = (event.action ?? {}) as Record<string, unknown>;
  const what =
    typeof action.command === 'string' && action.kind === 'TerminalAction'
      ? `$ ${action.command}`
      : typeof action.command === 'string' && typeof action.path === 'string'
        ? `${action.command} ${action.path}`
        : typeof action.message === 'string'
          ? action.message
          : (event.summary ?? String(action.kind ?? ''));
  return `${event.tool_name}: ${what}`;
}

/** What answered a tool call: the observation's text (with a non-zero exit code), a rejection, an error. */
export function resultSummary(event: Event): string {
  if (isObservationEvent(event)) {
    const observation = event.observation as Record<string, unknown>;
    const exit = (observation.metadata as { exit_code?: unknown } | undefined)?.exit_code;
    const text = contentText(observation.content).trim();
    return typeof exit === 'number' && exit > 0 ? `${text}\n(exit ${exit})` : text || '(no output)';
  }
  if (isAgentErrorEvent(event)) return `✗ ${event.tool_name} failed: ${event.error}`;
  if (isConversationErrorEvent(event)) return `✗ ${event.code}: ${event.detail}`;
  if (event.kind === 'UserRejectObservation') {
    return `rejected: ${(event as { rejection_reason?: string }).rejection_reason ?? ''}`;
  }
  return String(event.kind);
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (typeof part?.text === 'string' ? part.text : part?.type === 'image' ? '[image]' : ''))
    .join('');
}
